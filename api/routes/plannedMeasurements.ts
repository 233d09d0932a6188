// Planned measurements of a project and their auto-schedule.
import { Router } from 'express';
import * as plans from '../services/plannedMeasurements.ts';
import { updatePlan } from '../services/planUpdates.ts';
import { applySchedule, proposeSchedule } from '../services/autoSchedule.ts';

/** Timestamps as ISO strings: nullable date-time fields are not serialized by the validator. */
function wire<T extends object>(row: T): T {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])) as T;
}

export function plannedMeasurementRoutes(): Router {
  const r = Router();
  const base = '/projects/:project_id/planned_measurements';
  r.get(base, async (req, res) => {
    const list = await plans.listPlans(req.ctx, req.params.project_id, req.query);
    res.json({ ...list, items: list.items.map(wire) });
  });
  r.post(base, async (req, res) => {
    const plan = wire(await plans.createPlan(req.ctx, req.params.project_id, req.body));
    res.status(201).setHeader('Location', `/projects/${plan.project_id}/planned_measurements/${plan.id}`).json(plan);
  });
  r.post(`${base}/auto_schedule_proposal`, async (req, res) => {
    res.json(await proposeSchedule(req.ctx, req.params.project_id, req.body));
  });
  r.post(`${base}/apply_auto_schedule_proposal`, async (req, res) => {
    res.json((await applySchedule(req.ctx, req.params.project_id, req.body)).map(wire));
  });
  r.get(`${base}/:planned_measurement_id`, async (req, res) => {
    res.json(wire(await plans.getPlan(req.ctx, req.params.project_id, req.params.planned_measurement_id)));
  });
  r.patch(`${base}/:planned_measurement_id`, async (req, res) => {
    res.json(wire(await updatePlan(req.ctx, req.params.project_id, req.params.planned_measurement_id, req.body)));
  });
  r.delete(`${base}/:planned_measurement_id`, async (req, res) => {
    res.json(await plans.deletePlan(req.ctx, req.params.project_id, req.params.planned_measurement_id));
  });
  return r;
}
