// /projects/{project_id}/studies and their links to simulations and measurements.
import { Router } from 'express';
import * as studies from '../services/studies.ts';

export function studyRoutes(): Router {
  const r = Router();
  const base = '/projects/:project_id/studies';
  r.get(base, async (req, res) => {
    res.json(await studies.listStudies(req.ctx, req.params.project_id, req.query));
  });
  r.post(base, async (req, res) => {
    const s = await studies.createStudy(req.ctx, req.params.project_id, req.body);
    res.status(201).setHeader('Location', `/projects/${s.project_id}/studies/${s.id}`).json(s);
  });
  r.get(`${base}/:study_id`, async (req, res) => {
    res.json(await studies.getStudy(req.ctx, req.params.project_id, req.params.study_id));
  });
  r.patch(`${base}/:study_id`, async (req, res) => {
    res.json(await studies.updateStudy(req.ctx, req.params.project_id, req.params.study_id, req.body));
  });
  r.delete(`${base}/:study_id`, async (req, res) => {
    res.json(await studies.deleteStudy(req.ctx, req.params.project_id, req.params.study_id));
  });
  r.get(`${base}/:study_id/measurements`, async (req, res) => {
    res.json(await studies.listStudyMeasurements(req.ctx, req.params.project_id, req.params.study_id, req.query));
  });
  for (const [kind, param] of [
    ['simulations', 'simulation_id'],
    ['measurements', 'measurement_id'],
  ] as const) {
    r.post(`${base}/:study_id/${kind}/:${param}`, async (req, res) => {
      res.json(
        await studies.setLink(
          req.ctx,
          req.params.project_id!,
          req.params.study_id!,
          kind,
          (req.params as Record<string, string>)[param]!,
          true,
        ),
      );
    });
    r.delete(`${base}/:study_id/${kind}/:${param}`, async (req, res) => {
      res.json(
        await studies.setLink(
          req.ctx,
          req.params.project_id!,
          req.params.study_id!,
          kind,
          (req.params as Record<string, string>)[param]!,
          false,
        ),
      );
    });
  }
  return r;
}
