// /jobs: the run of each simulation.
import { Router } from 'express';
import * as jobs from '../services/jobs.ts';
import { jobMetadata, readSeries, seriesChannels, type SeriesQuery } from '../services/elementSeries.ts';
import { AppError } from '../errors.ts';

export function jobRoutes(): Router {
  const r = Router();
  // Jobs are started by the operations that own them; the hosted service answers 410 here too.
  r.post('/jobs', () => {
    throw new AppError(
      'GONE',
      'jobs are not created directly: start work with the simulation, pipeline or measurement operations',
      {},
    );
  });
  r.get('/jobs', async (req, res) => {
    res.json(await jobs.listJobs(req.ctx, req.query));
  });
  r.get('/jobs/:job_id', async (req, res) => {
    res.json(await jobs.getJob(req.ctx, req.params.job_id));
  });
  r.get('/jobs/:job_id/metadata', async (req, res) => {
    res.json(await jobMetadata(req.ctx, req.params.job_id));
  });
  r.get('/jobs/:job_id/series/channels', async (req, res) => {
    res.json(await seriesChannels(req.ctx, req.params.job_id));
  });
  r.get('/jobs/:job_id/series', async (req, res) => {
    res.json(await readSeries(req.ctx, req.params.job_id, req.query as unknown as SeriesQuery));
  });
  r.post('/jobs/:job_id/cancel', async (req, res) => {
    res.json(await jobs.cancelJob(req.ctx, req.params.job_id));
  });
  return r;
}
