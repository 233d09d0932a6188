// Planned measurements: future test requests of a project. A requested plan waits with an
// estimated duration; a scheduled one holds a channel over [planned_start_time, planned_end_time)
// (planReservations.ts). Creating, reading, listing and deleting plans; updates in planUpdates.ts.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { parseList, type ListSpec } from '../listQuery.ts';
import * as repo from '../../db/repositories/plannedMeasurements.ts';
import { insertRow, orConflict, page } from '../../db/repositories/sqlRows.ts';
import { requireProjectPermission } from './access.ts';
import { orOverlap, reserve, window } from './planReservations.ts';
import { assertNameFree, checkReferences, requirePlan, WINDOW_FIELDS, type PlanCreate } from './planRules.ts';

const PLAN_LIST: ListSpec = {
  columns: {
    name: { kind: 'text', sql: 'p.name' },
    status: { kind: 'enum', sql: 'p.status', values: repo.PLAN_STATUSES },
    channel_id: { kind: 'id', sql: 'p.channel_id' },
    protocol_id: { kind: 'id', sql: 'p.protocol_id' },
    cell_specification_id: { kind: 'id', sql: 'p.cell_specification_id' },
    cell_instance_id: { kind: 'id', sql: 'p.cell_instance_id' },
    notes: { kind: 'text', sql: 'p.notes' },
    requested_by_email: { kind: 'text', sql: 'ru.email' },
    planned_start_time: { kind: 'date', sql: 'p.planned_start_time' },
    planned_end_time: { kind: 'date', sql: 'p.planned_end_time' },
    created_at: { kind: 'date', sql: 'p.created_at' },
    updated_at: { kind: 'date', sql: 'p.updated_at' },
  },
  sortable: [
    'name',
    'status',
    'planned_start_time',
    'planned_end_time',
    'estimated_duration_seconds',
    'created_at',
    'updated_at',
  ],
  defaultOrderBy: 'created_at',
  defaultOrder: 'desc',
  tieBreak: 'p.id',
};

export async function createPlan(ctx: RequestContext, projectId: string, body: PlanCreate) {
  const project = await requireProjectPermission(ctx, projectId, 'cell_measurement:create');
  const status = body.status ?? 'requested';
  if (status === 'requested') {
    if (body.estimated_duration_seconds == null)
      throw invalid(['body', 'estimated_duration_seconds'], 'is required for a requested plan', 'missing');
    for (const f of WINDOW_FIELDS) {
      if (body[f] != null)
        throw invalid(
          ['body', f],
          'a requested plan holds no channel or window; send status "scheduled" with them',
          'value_error',
          body[f],
        );
    }
  } else {
    for (const f of WINDOW_FIELDS)
      if (body[f] == null) throw invalid(['body', f], 'is required for a scheduled plan', 'missing');
  }
  const w = status === 'scheduled' ? window(body.planned_start_time, body.planned_end_time) : null;
  await checkReferences(ctx, projectId, body, body.cell_specification_id);
  await assertNameFree(ctx, projectId, body.name);
  const id = randomUUID();
  return orConflict(
    () =>
      orOverlap(() =>
        ctx.em.transactional(async (em) => {
          if (w)
            await reserve(
              em,
              ctx,
              { id: null, project_id: projectId, cell_specification_id: body.cell_specification_id },
              body.channel_id!,
              w.start,
              w.end,
            );
          await insertRow(
            em,
            'planned_measurements',
            {
              id,
              organization_id: project.organization_id,
              project_id: projectId,
              name: body.name,
              status,
              protocol_id: body.protocol_id,
              cell_specification_id: body.cell_specification_id,
              cell_instance_id: body.cell_instance_id ?? null,
              channel_id: w ? body.channel_id : null,
              planned_start_time: w?.start ?? null,
              planned_end_time: w?.end ?? null,
              estimated_duration_seconds: body.estimated_duration_seconds ?? null,
              setup_duration_seconds: body.setup_duration_seconds ?? null,
              teardown_duration_seconds: body.teardown_duration_seconds ?? null,
              test_setup: body.test_setup ?? null,
              notes: body.notes ?? null,
              requested_by: ctx.caller.userId,
              scheduled_by: w ? ctx.caller.userId : null,
              created_by: ctx.caller.userId,
            },
            'id',
          );
          return (await repo.findPlan(em, id))!;
        }),
      ),
    () => assertNameFree(ctx, projectId, body.name),
  );
}

export async function getPlan(ctx: RequestContext, projectId: string, planId: string) {
  return requirePlan(ctx, projectId, planId, 'cell_measurement:read');
}

export async function listPlans(ctx: RequestContext, projectId: string, query: Record<string, unknown>) {
  await requireProjectPermission(ctx, projectId, 'cell_measurement:read');
  // The client sends status=scheduled as a plain value; the conventions' eq./in. forms work too.
  const status = query.status;
  const q = typeof status === 'string' && !/^(eq|neq|in)\./.test(status) ? { ...query, status: `eq.${status}` } : query;
  const list = parseList(q, PLAN_LIST);
  return page<repo.PlanRow>(ctx.em, {
    select: repo.PLAN_SELECT,
    from: repo.PLAN_FROM,
    scope: [{ sql: 'p.project_id = ?', params: [projectId] }],
    list,
  });
}
export async function deletePlan(ctx: RequestContext, projectId: string, planId: string) {
  await requirePlan(ctx, projectId, planId, 'cell_measurement:delete');
  await ctx.em.transactional(async (em) => {
    const plan = await repo.findPlan(em, planId, { forUpdate: true });
    if (!plan) throw notFound('planned measurement', planId);
    if (plan.status === 'in_progress')
      throw conflict('an in_progress planned measurement cannot be deleted; complete or cancel it first', {
        status: plan.status,
      });
    await em.execute(`delete from planned_measurements where id = ?`, [planId]);
  });
  return { id: planId, deleted: true };
}
