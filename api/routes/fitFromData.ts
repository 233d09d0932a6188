// /fit-from-measurements and /fit-from-file: a data fit accepted as a simple pipeline (202),
// followed through /simple_pipelines/{id} and /pipelines/{id}/result.
import { Router } from 'express';
import * as fits from '../services/fitFromData.ts';

export function fitFromDataRoutes(): Router {
  const r = Router();
  r.post('/fit-from-measurements', async (req, res) => {
    const p = await fits.fitFromMeasurements(req.ctx, req.body);
    res.status(202).setHeader('Location', `/simple_pipelines/${p.id}`).json(p);
  });
  r.post('/fit-from-file', async (req, res) => {
    // The validator has parsed the multipart body: form fields in req.body, the file in req.files.
    const p = await fits.fitFromFile(req.ctx, req.body, req.files as fits.UploadedFile[] | undefined);
    res.status(202).setHeader('Location', `/simple_pipelines/${p.id}`).json(p);
  });
  return r;
}
