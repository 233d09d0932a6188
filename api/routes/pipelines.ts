// /pipelines: create, read, edit, delete, elements, result, and cancellation (one or many).
import { Router } from 'express';
import * as cancellation from '../services/pipelines/cancellation.ts';
import * as creation from '../services/pipelines/creation.ts';
import * as records from '../services/pipelines/records.ts';
import { plotData, type PlotQuery } from '../services/elementSeries.ts';
import { simplePipelineRoutes } from './simplePipelines.ts';
import { optimizationRoutes } from './optimizations.ts';
import { diagnosticRoutes } from './diagnostics.ts';
import { simulationBoardRoutes } from './simulationBoards.ts';

/** Pipelines, simple pipelines, optimizations, diagnostics and simulation boards (one router for app.ts). */
export function pipelineRoutes(): Router {
  const r = Router();
  r.use(simplePipelineRoutes(), optimizationRoutes(), diagnosticRoutes(), simulationBoardRoutes());
  r.post('/pipelines', async (req, res) => {
    const p = await creation.createPipeline(req.ctx, req.body, 'pipeline');
    res.status(201).setHeader('Location', `/pipelines/${p.id}`).json(p);
  });
  r.get('/pipelines', async (req, res) => {
    res.json(await records.listPipelines(req.ctx, req.query));
  });
  r.post('/pipelines/cancel', async (req, res) => {
    res.json(await cancellation.cancelPipelines(req.ctx, req.body.pipeline_ids));
  });
  r.get('/pipelines/:pipeline_id', async (req, res) => {
    res.json(await records.getPipeline(req.ctx, req.params.pipeline_id));
  });
  r.patch('/pipelines/:pipeline_id', async (req, res) => {
    res.json(await records.updatePipeline(req.ctx, req.params.pipeline_id, req.body));
  });
  r.delete('/pipelines/:pipeline_id', async (req, res) => {
    res.json(await records.deletePipeline(req.ctx, req.params.pipeline_id));
  });
  r.get('/pipelines/:pipeline_id/elements', async (req, res) => {
    res.json(await records.listElements(req.ctx, req.params.pipeline_id));
  });
  r.get('/pipelines/:pipeline_id/result', async (req, res) => {
    res.json(await records.getResult(req.ctx, req.params.pipeline_id));
  });
  r.get('/pipelines/datafits/:job_id/plot_data', async (req, res) => {
    res.json(await plotData(req.ctx, req.params.job_id, req.query as unknown as PlotQuery));
  });
  r.post('/pipelines/:pipeline_id/cancel', async (req, res) => {
    res.json(await cancellation.cancelPipeline(req.ctx, req.params.pipeline_id));
  });
  return r;
}
