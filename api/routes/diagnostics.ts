// /diagnostics: the captured exception behind a failure's error_detail (project admins only).
import { Router } from 'express';
import * as pipelines from '../services/pipelines.ts';

export function diagnosticRoutes(): Router {
  const r = Router();
  r.get('/diagnostics/:event_id', async (req, res) => {
    res.json(await pipelines.getDiagnostic(req.ctx, req.params.event_id));
  });
  return r;
}
