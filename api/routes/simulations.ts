// /simulations: batch submission, records and result downloads; also mounts every router
// of the simulation area (one line in app.ts).
import { Router } from 'express';
import { sendStream } from '../http.ts';
import * as batches from '../services/simulations/batches.ts';
import * as deletion from '../services/simulations/deletion.ts';
import * as results from '../services/simulations/results.ts';
import * as submission from '../services/simulations/submission.ts';
import { experimentTemplateRoutes } from './experimentTemplates.ts';
import { jobRoutes } from './jobs.ts';
import { modelRoutes } from './models.ts';
import { protocolRoutes } from './protocols.ts';
import { studyRoutes } from './studies.ts';
import { usageRoutes } from './usage.ts';

export function simulationRoutes(): Router {
  const r = Router();
  r.post('/simulations/protocol/batch', async (req, res) => {
    res.json(await submission.submitProtocolBatch(req.ctx, req.body, req.header('idempotency-key')));
  });
  r.post('/simulations/with-template/batch', async (req, res) => {
    res.json(await submission.submitTemplateBatch(req.ctx, req.body, req.header('idempotency-key')));
  });
  r.get('/simulations/batches', async (req, res) => {
    res.json(await batches.listBatches(req.ctx, req.query));
  });
  r.get('/simulations/batches/:batch_id', async (req, res) => {
    res.json(await batches.getBatch(req.ctx, req.params.batch_id));
  });
  r.post('/simulations/batches/:batch_id/cancel', async (req, res) => {
    res.json(await batches.cancelBatch(req.ctx, req.params.batch_id));
  });
  r.get('/simulations', async (req, res) => {
    res.json(await results.listSimulations(req.ctx, req.query));
  });
  r.post('/simulations/statuses', async (req, res) => {
    res.json(await results.simulationStatuses(req.ctx, req.body));
  });
  r.get('/simulations/:simulation_id', async (req, res) => {
    res.json(await results.loadSimulation(req.ctx, req.params.simulation_id));
  });
  r.delete('/simulations/:simulation_id', async (req, res) => {
    res.json(await deletion.deleteSimulation(req.ctx, req.params.simulation_id));
  });
  for (const kind of ['time_series', 'steps'] as const) {
    r.get(`/simulations/:simulation_id/${kind}/download`, async (req, res) => {
      const file = await results.resultFile(req.ctx, req.params.simulation_id, kind);
      res.status(200).setHeader('Content-Type', 'application/vnd.apache.parquet');
      res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
      sendStream(res, file.stream);
    });
  }
  return Router().use(
    r,
    modelRoutes(),
    protocolRoutes(),
    experimentTemplateRoutes(),
    jobRoutes(),
    studyRoutes(),
    usageRoutes(),
  );
}
