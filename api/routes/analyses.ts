// Analyses: features extracted from a measurement, a Parquet table uploaded as multipart.
import { Router } from 'express';
import type { UploadedFile } from '../multipart.ts';
import * as analyses from '../services/analyses/analyses.ts';

export function analysisRoutes(): Router {
  const r = Router();
  r.get('/analyses', async (req, res) => {
    res.json(await analyses.listAnalyses(req.ctx, req.query));
  });
  r.post('/analyses', async (req, res) => {
    // The multipart reader has parsed the body: form fields in req.body, the file in req.files.
    res.status(201).json(await analyses.createAnalysis(req.ctx, req.body, req.files as UploadedFile[] | undefined));
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
    res.json(await analyses.downloadUrl(req.ctx, req.params.analysis_id));
  });
  return r;
}
