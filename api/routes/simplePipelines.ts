// /simple_pipelines: a pipeline with at most one fit or validation, accepted with 202.
import { Router } from 'express';
import * as cancellation from '../services/pipelines/cancellation.ts';
import * as creation from '../services/pipelines/creation.ts';
import * as records from '../services/pipelines/records.ts';

export function simplePipelineRoutes(): Router {
  const r = Router();
  r.post('/simple_pipelines', async (req, res) => {
    const p = await creation.createPipeline(req.ctx, req.body, 'simple');
    res.status(202).setHeader('Location', `/simple_pipelines/${p.id}`).json(p);
  });
  r.get('/simple_pipelines', async (req, res) => {
    res.json(await records.listSimplePipelines(req.ctx, req.query));
  });
  r.get('/simple_pipelines/:pipeline_id', async (req, res) => {
    res.json(await records.getPipeline(req.ctx, req.params.pipeline_id, 'simple'));
  });
  r.patch('/simple_pipelines/:pipeline_id', async (req, res) => {
    res.json(await records.updatePipeline(req.ctx, req.params.pipeline_id, req.body, 'simple'));
  });
  r.delete('/simple_pipelines/:pipeline_id', async (req, res) => {
    res.json(await records.deletePipeline(req.ctx, req.params.pipeline_id, 'simple'));
  });
  r.post('/simple_pipelines/:pipeline_id/cancel', async (req, res) => {
    res.json(await cancellation.cancelPipeline(req.ctx, req.params.pipeline_id, 'simple'));
  });
  return r;
}
