// Updating a plan: only given fields change; a status moves only as NEXT allows; scheduling
// (again) reserves its channel window, returning to requested frees it and keeps a duration.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { conflict, invalid } from '../errors.ts';
import type * as repo from '../../db/repositories/plannedMeasurements.ts';
import { findPlan } from '../../db/repositories/plannedMeasurements.ts';
import { orConflict, updateRow } from '../../db/repositories/sqlRows.ts';
import { orOverlap, reserve, window } from './planReservations.ts';
import { assertNameFree, checkReferences, NEXT, requirePlan, WINDOW_FIELDS, type PlanUpdate } from './planRules.ts';

export async function updatePlan(ctx: RequestContext, projectId: string, planId: string, body: PlanUpdate) {
  const before = await requirePlan(ctx, projectId, planId, 'cell_measurement:update');
  await checkReferences(ctx, projectId, body, body.cell_specification_id ?? before.cell_specification_id);
  if (body.name !== undefined) await assertNameFree(ctx, projectId, body.name, planId);
  return orConflict(
    () =>
      orOverlap(() =>
        ctx.em.transactional(async (em) => {
          const plan = (await findPlan(em, planId, { forUpdate: true }))!;
          const target = body.status ?? plan.status;
          const moves = WINDOW_FIELDS.some((f) => body[f] !== undefined);
          assertMove(plan, target, moves, body);
          const changes: Record<string, unknown> = {
            name: body.name,
            protocol_id: body.protocol_id,
            cell_specification_id: body.cell_specification_id,
            cell_instance_id: body.cell_instance_id,
            setup_duration_seconds: body.setup_duration_seconds,
            teardown_duration_seconds: body.teardown_duration_seconds,
            test_setup: body.test_setup,
            notes: body.notes,
            status: target,
          };
          if (
            target === 'scheduled' &&
            (moves || plan.status !== 'scheduled' || body.cell_specification_id !== undefined)
          ) {
            Object.assign(changes, await scheduled(em, ctx, plan, body, moves));
          }
          if (target === 'requested') Object.assign(changes, requested(plan, body));
          else changes.estimated_duration_seconds = body.estimated_duration_seconds;
          await updateRow(em, 'planned_measurements', planId, changes);
          return (await findPlan(em, planId))!;
        }),
      ),
    () => assertNameFree(ctx, projectId, body.name ?? before.name, planId),
  );
}

/** 409 for a status NEXT does not allow (or a move of a plan that is neither scheduled nor requested). */
function assertMove(plan: repo.PlanRow, target: repo.PlanStatus, moves: boolean, body: PlanUpdate) {
  if (!NEXT[plan.status].includes(target) || (moves && target !== 'scheduled' && target !== 'requested')) {
    const what = target === plan.status ? 'moved' : `made ${target}`;
    throw conflict(`a ${plan.status} planned measurement cannot be ${what}`, {
      status: plan.status,
      requested_status: target,
    });
  }
  if (moves && target === 'requested') {
    throw invalid(
      ['body', WINDOW_FIELDS.find((f) => body[f] !== undefined)!],
      'a requested plan holds no channel or window; send status "scheduled" with them',
      'value_error',
    );
  }
}

/** The channel and window the plan holds once scheduled, reserved (every field needed, given or kept). */
async function scheduled(
  em: EntityManager,
  ctx: RequestContext,
  plan: repo.PlanRow,
  body: PlanUpdate,
  moves: boolean,
): Promise<Record<string, unknown>> {
  const channelId = body.channel_id === undefined ? plan.channel_id : body.channel_id;
  const start = body.planned_start_time === undefined ? plan.planned_start_time : body.planned_start_time;
  const end = body.planned_end_time === undefined ? plan.planned_end_time : body.planned_end_time;
  for (const [f, v] of [
    ['channel_id', channelId],
    ['planned_start_time', start],
    ['planned_end_time', end],
  ] as const) {
    if (v == null) throw invalid(['body', f], 'is required to schedule a plan', 'missing');
  }
  const w = window(start, end);
  const specId = body.cell_specification_id ?? plan.cell_specification_id;
  await reserve(
    em,
    ctx,
    { id: plan.id, project_id: plan.project_id, cell_specification_id: specId },
    channelId!,
    w.start,
    w.end,
  );
  const changes: Record<string, unknown> = {
    channel_id: channelId,
    planned_start_time: w.start,
    planned_end_time: w.end,
  };
  if (moves || plan.status !== 'scheduled') changes.scheduled_by = ctx.caller.userId;
  return changes;
}

/** A requested plan holds no channel; it keeps a duration (given, its own, or its window's length). */
function requested(plan: repo.PlanRow, body: PlanUpdate): Record<string, unknown> {
  if (body.estimated_duration_seconds === null)
    throw invalid(['body', 'estimated_duration_seconds'], 'is required for a requested plan', 'missing', null);
  const kept =
    plan.planned_start_time && plan.planned_end_time
      ? Math.max(1, Math.round((plan.planned_end_time.getTime() - plan.planned_start_time.getTime()) / 1000))
      : null;
  const duration = body.estimated_duration_seconds ?? plan.estimated_duration_seconds ?? kept;
  if (duration == null)
    throw invalid(['body', 'estimated_duration_seconds'], 'is required for a requested plan', 'missing');
  return {
    channel_id: null,
    planned_start_time: null,
    planned_end_time: null,
    scheduled_by: null,
    estimated_duration_seconds: duration,
  };
}
