// Materials (read-only registry) and material property datasets (Parquet tables, multipart).
import { Router } from 'express';
import type { UploadedFile } from '../multipart.ts';
import * as datasets from '../services/materials/datasets.ts';
import * as materials from '../services/materials/materials.ts';

export function materialRoutes(): Router {
  const r = Router();
  r.get('/materials', async (req, res) => {
    res.json(await materials.listMaterials(req.ctx, req.query));
  });
  r.get('/materials/:material_id', async (req, res) => {
    res.json(await materials.getMaterial(req.ctx, req.params.material_id));
  });
  const base = '/material_property_datasets';
  r.get(base, async (req, res) => {
    res.json(await datasets.listDatasets(req.ctx, req.query));
  });
  r.post(base, async (req, res) => {
    // The multipart reader has parsed the body: form fields in req.body, the file in req.files.
    res.status(201).json(await datasets.createDataset(req.ctx, req.body, req.files as UploadedFile[] | undefined));
  });
  r.get(`${base}/:dataset_id`, async (req, res) => {
    res.json(await datasets.getDataset(req.ctx, req.params.dataset_id));
  });
  r.patch(`${base}/:dataset_id`, async (req, res) => {
    res.json(await datasets.updateDataset(req.ctx, req.params.dataset_id, req.body));
  });
  r.delete(`${base}/:dataset_id`, async (req, res) => {
    res.json(await datasets.deleteDataset(req.ctx, req.params.dataset_id));
  });
  r.get(`${base}/:dataset_id/data`, async (req, res) => {
    res.json(await datasets.datasetData(req.ctx, req.params.dataset_id));
  });
  r.patch(`${base}/:dataset_id/file`, async (req, res) => {
    res.json(
      await datasets.replaceFile(req.ctx, req.params.dataset_id, req.body, req.files as UploadedFile[] | undefined),
    );
  });
  r.get(`${base}/:dataset_id/download-url`, async (req, res) => {
    res.json(await datasets.downloadUrl(req.ctx, req.params.dataset_id));
  });
  return r;
}
