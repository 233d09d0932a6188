// /diagnostics: the captured exception behind a failure's error_detail (project admins only).
import { Router } from 'express';
import * as records from '../services/pipelines/records.ts';

export function diagnosticRoutes(): Router {
  const r = Router();
  r.get('/diagnostics/:event_id', async (req, res) => {
    res.json(await records.getDiagnostic(req.ctx, req.params.event_id));
  });
  return r;
}
