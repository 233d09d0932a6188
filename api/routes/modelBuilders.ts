// /model_builders and the cell specification reads a recipe is written against.
import { Router } from 'express';
import * as builders from '../services/modelBuilders.ts';

export function modelBuilderRoutes(): Router {
  const r = Router();
  r.get('/model_builders', async (req, res) => {
    res.json(await builders.listBuilders(req.ctx, req.query));
  });
  r.post('/model_builders', async (req, res) => {
    const b = await builders.createBuilder(req.ctx, req.body);
    res.status(201).setHeader('Location', `/model_builders/${b.id}`).json(b);
  });
  r.post('/model_builders/dry_run', async (req, res) => {
    res.json(await builders.dryRun(req.ctx, req.body));
  });
  r.post('/model_builders/preview_mapping', async (req, res) => {
    res.json(await builders.previewMapping(req.ctx, req.body));
  });
  r.get('/model_builders/calculations/producing', (req, res) => {
    res.json(builders.producing(String(req.query.parameter)));
  });
  r.get('/model_builders/:model_builder_id', async (req, res) => {
    res.json(await builders.getBuilder(req.ctx, req.params.model_builder_id));
  });
  r.patch('/model_builders/:model_builder_id', async (req, res) => {
    res.json(await builders.updateBuilder(req.ctx, req.params.model_builder_id, req.body));
  });
  r.delete('/model_builders/:model_builder_id', async (req, res) => {
    res.json(await builders.deleteBuilder(req.ctx, req.params.model_builder_id));
  });
  r.post('/model_builders/:model_builder_id/check', async (req, res) => {
    res.json(await builders.checkBuilder(req.ctx, req.params.model_builder_id, req.body));
  });
  r.post('/model_builders/:model_builder_id/build', async (req, res) => {
    res.json(await builders.buildWithBuilder(req.ctx, req.params.model_builder_id, req.body));
  });
  r.get('/cell_specifications/:spec_id/resolved', async (req, res) => {
    res.json(await builders.resolvedSpec(req.ctx, req.params.spec_id));
  });
  r.get('/cell_specifications/:spec_id/builder_readiness', async (req, res) => {
    const modelId = typeof req.query.model_id === 'string' ? req.query.model_id : undefined;
    res.json(await builders.builderReadiness(req.ctx, req.params.spec_id, modelId));
  });
  return r;
}
