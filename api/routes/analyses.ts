// /analyses: features extracted from a cell measurement, a Parquet table with its metadata.
import { Router } from 'express';
import * as analyses from '../services/analyses.ts';
import type { UploadedFile } from '../multipart.ts';

export function analysisRoutes(): Router {
  const r = Router();
  r.post('/analyses', async (req, res) => {
    // The multipart body was read by multipartBodies: fields in req.body, the table in req.files.
    const a = await analyses.createAnalysis(req.ctx, req.body, req.files as UploadedFile[] | undefined);
    res.status(201).setHeader('Location', `/analyses/${a.id}`).json(a);
  });
  r.get('/analyses', async (req, res) => {
    res.json(await analyses.listAnalyses(req.ctx, req.query));
  });
  r.get('/analyses/:analysis_id', async (req, res) => {
    res.json(await analyses.getAnalysis(req.ctx, req.params.analysis_id));
  });
  r.patch('/analyses/:analysis_id', async (req, res) => {
    res.json(await analyses.updateAnalysis(req.ctx, req.params.analysis_id, req.body));
  });
  r.delete('/analyses/:analysis_id', async (req, res) => {
    res.json(await analyses.deleteAnalysis(req.ctx, req.params.analysis_id));
  });
  r.get('/analyses/:analysis_id/download-url', async (req, res) => {
    res.json(await analyses.analysisDownloadUrl(req.ctx, req.params.analysis_id));
  });
  return r;
}
