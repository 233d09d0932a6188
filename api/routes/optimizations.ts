// /optimizations: parameter fits run as durable workflows (the Python client's OptimizationClient).
import { Router } from 'express';
import * as optimizations from '../services/optimizations.ts';

export function optimizationRoutes(): Router {
  const r = Router();
  r.post('/optimizations', async (req, res) => {
    const o = await optimizations.createOptimization(req.ctx, req.body);
    res.status(201).setHeader('Location', `/optimizations/${o.id}`).json(o);
  });
  r.get('/optimizations', async (req, res) => {
    res.json(await optimizations.listOptimizations(req.ctx, req.query));
  });
  r.get('/optimizations/:optimization_id', async (req, res) => {
    res.json(await optimizations.getOptimization(req.ctx, req.params.optimization_id));
  });
  r.patch('/optimizations/:optimization_id', async (req, res) => {
    res.json(await optimizations.updateOptimization(req.ctx, req.params.optimization_id, req.body));
  });
  r.post('/optimizations/:optimization_id/cancel', async (req, res) => {
    res.json(await optimizations.cancelOptimization(req.ctx, req.params.optimization_id));
  });
  return r;
}
