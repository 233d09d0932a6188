// Measurement data: signed-URL uploads, extends, downloads and processed reads.
import { Router } from 'express';
import * as uploads from '../services/measurementUploads.ts';
import * as extensions from '../services/measurementExtends.ts';
import * as reads from '../services/measurementReads.ts';

export function measurementDataRoutes(): Router {
  const r = Router();
  r.post('/cell_instances/:cell_instance_id/cell_measurements/initiate-upload', async (req, res) => {
    res.json(await uploads.initiateUpload(req.ctx, req.params.cell_instance_id, req.body));
  });
  r.post('/cell_measurements/:measurement_id/confirm-upload', async (req, res) => {
    const { created, measurement } = await uploads.confirmUpload(req.ctx, req.params.measurement_id, req.body);
    res.status(created ? 201 : 200).json(measurement);
  });
  r.post('/cell_measurements/:measurement_id/initiate-extend', async (req, res) => {
    res.status(201).json(await extensions.initiateExtend(req.ctx, req.params.measurement_id));
  });
  r.post('/cell_measurements/:measurement_id/confirm-extend', async (req, res) => {
    res.json(await extensions.confirmExtend(req.ctx, req.params.measurement_id, req.body));
  });
  r.get('/cell_measurements/:measurement_id/validation', async (req, res) => {
    res.json(await reads.validationReport(req.ctx, req.params.measurement_id));
  });
  r.get('/cell_measurements/:measurement_id/time_series/download', async (req, res) => {
    res.redirect(302, await reads.timeSeriesDownload(req.ctx, req.params.measurement_id));
  });
  r.get('/cell_measurements/:measurement_id/steps/download', async (req, res) => {
    res.redirect(302, await reads.stepsDownload(req.ctx, req.params.measurement_id));
  });
  r.get('/cell_measurements/:measurement_id/time_series', async (req, res) => {
    res.json(
      await reads.timeSeries(
        req.ctx,
        req.params.measurement_id,
        req.query as { columns?: unknown; max_points?: number },
      ),
    );
  });
  r.get('/cell_measurements/:measurement_id/steps_and_cycles', async (req, res) => {
    res.json(await reads.stepsAndCycles(req.ctx, req.params.measurement_id));
  });
  r.get('/cell_measurements/:measurement_id/cycles', async (req, res) => {
    res.json(await reads.cycles(req.ctx, req.params.measurement_id));
  });
  r.get('/cell_measurements/:measurement_id/files', async (req, res) => {
    res.json(await reads.files(req.ctx, req.params.measurement_id));
  });
  r.get('/cell_measurements/:measurement_id/files/:filename', async (req, res) => {
    res.redirect(302, await reads.fileDownload(req.ctx, req.params.measurement_id, req.params.filename));
  });
  return r;
}
