// Raw data: original files uploaded through signed URLs, and their links to measurements.
import { Router } from 'express';
import * as links from '../services/rawData/links.ts';
import * as records from '../services/rawData/records.ts';
import * as uploads from '../services/rawData/uploads.ts';

export function rawDataRoutes(): Router {
  const r = Router();
  r.post('/raw_data/initiate-upload', async (req, res) => {
    res.json(await uploads.initiateUpload(req.ctx, req.body));
  });
  r.post('/raw_data/:raw_data_id/confirm-upload', async (req, res) => {
    const { created, record } = await uploads.confirmUpload(req.ctx, req.params.raw_data_id, req.body);
    res.status(created ? 201 : 200).json(record);
  });
  r.get('/raw_data', async (req, res) => {
    res.json(await records.listRawData(req.ctx, req.query));
  });
  r.get('/raw_data/:raw_data_id', async (req, res) => {
    res.json(await records.getRawData(req.ctx, req.params.raw_data_id));
  });
  r.patch('/raw_data/:raw_data_id', async (req, res) => {
    res.json(await records.updateRawData(req.ctx, req.params.raw_data_id, req.body));
  });
  r.delete('/raw_data/:raw_data_id', async (req, res) => {
    res.json(await records.deleteRawData(req.ctx, req.params.raw_data_id));
  });
  r.get('/raw_data/:raw_data_id/download-url', async (req, res) => {
    res.json(await records.downloadUrl(req.ctx, req.params.raw_data_id));
  });
  r.get('/raw_data/:raw_data_id/cell_measurements', async (req, res) => {
    res.json(await links.measurementsOfRawData(req.ctx, req.params.raw_data_id, req.query));
  });
  r.get('/cell_measurements/:measurement_id/raw_data', async (req, res) => {
    res.json(await links.rawDataOfMeasurement(req.ctx, req.params.measurement_id, req.query));
  });
  r.post('/cell_measurements/:measurement_id/raw_data', async (req, res) => {
    res.json(await links.attach(req.ctx, req.params.measurement_id, req.body));
  });
  r.delete('/cell_measurements/:measurement_id/raw_data/:raw_data_id', async (req, res) => {
    res.json(await links.detach(req.ctx, req.params.measurement_id, req.params.raw_data_id));
  });
  return r;
}
