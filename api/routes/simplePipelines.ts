// /simple_pipelines: a pipeline with at most one fit or validation, accepted with 202.
import { Router } from 'express';
import * as pipelines from '../services/pipelines.ts';

export function simplePipelineRoutes(): Router {
  const r = Router();
  r.post('/simple_pipelines', async (req, res) => {
    const p = await pipelines.createPipeline(req.ctx, req.body, 'simple');
    res.status(202).setHeader('Location', `/simple_pipelines/${p.id}`).json(p);
  });
  r.get('/simple_pipelines', async (req, res) => {
    res.json(await pipelines.listSimplePipelines(req.ctx, req.query));
  });
  r.get('/simple_pipelines/:pipeline_id', async (req, res) => {
    res.json(await pipelines.getPipeline(req.ctx, req.params.pipeline_id, 'simple'));
  });
  r.patch('/simple_pipelines/:pipeline_id', async (req, res) => {
    res.json(await pipelines.updatePipeline(req.ctx, req.params.pipeline_id, req.body, 'simple'));
  });
  r.delete('/simple_pipelines/:pipeline_id', async (req, res) => {
    res.json(await pipelines.deletePipeline(req.ctx, req.params.pipeline_id, 'simple'));
  });
  r.post('/simple_pipelines/:pipeline_id/cancel', async (req, res) => {
    res.json(await pipelines.cancelPipeline(req.ctx, req.params.pipeline_id, 'simple'));
  });
  return r;
}
