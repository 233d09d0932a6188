// /organizations/current/usage: this month's simulations and compute against the limit.
import { Router } from 'express';
import { usage } from '../services/simulations/results.ts';

export function usageRoutes(): Router {
  const r = Router();
  r.get('/organizations/current/usage', async (req, res) => {
    res.json(await usage(req.ctx));
  });
  return r;
}
