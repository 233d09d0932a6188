// Planned measurements: future test requests of a project. A requested plan waits with an
// estimated duration; a scheduled one holds a channel over [planned_start_time, planned_end_time).
// Reservations never overlap anything else on the channel: checked here under the channel's row
// lock (naming the collision), and held by the table's exclusion constraint under any concurrency.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { AppError, conflict, invalid, notFound } from '../errors.ts';
import { parseList, type ListSpec } from '../listQuery.ts';
import * as repo from '../../db/repositories/plannedMeasurements.ts';
import { insertRow, orConflict, page, updateRow } from '../../db/repositories/sqlRows.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { blockConflict, checkRatings, requirementsOf } from './scheduling.ts';

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

export interface PlanBody {
  name?: string;
  status?: repo.PlanStatus;
  protocol_id?: string;
  cell_specification_id?: string;
  cell_instance_id?: string | null;
  channel_id?: string | null;
  planned_start_time?: string | null;
  planned_end_time?: string | null;
  estimated_duration_seconds?: number | null;
  setup_duration_seconds?: number | null;
  teardown_duration_seconds?: number | null;
  test_setup?: unknown;
  notes?: string | null;
}

const WINDOW_FIELDS = ['channel_id', 'planned_start_time', 'planned_end_time'] as const;

/** Which status may follow which; anything else is 409 with the current status. */
const NEXT: Record<repo.PlanStatus, readonly repo.PlanStatus[]> = {
  requested: ['requested', 'scheduled', 'cancelled'],
  scheduled: ['scheduled', 'requested', 'in_progress', 'cancelled'],
  in_progress: ['in_progress', 'completed', 'cancelled'],
  completed: ['completed'],
  cancelled: ['cancelled'],
};

/** The referenced record must exist (404), be of the caller's organization (403) and of this project (400). */
async function requireInProject(
  em: EntityManager,
  ctx: RequestContext,
  table: string,
  what: string,
  field: string,
  id: string,
  projectId: string,
) {
  const rows = await em.execute<{ organization_id: string; project_id: string }[]>(
    `select organization_id, project_id from ${table} where id = ?`,
    [id],
  );
  if (!rows[0]) throw notFound(what, id);
  assertSameOrganization(ctx.caller, rows[0].organization_id, what);
  if (rows[0].project_id !== projectId) {
    throw new AppError('BAD_REQUEST', `the ${what} ${id} belongs to another project`, {
      field,
      project_id: rows[0].project_id,
    });
  }
}

async function checkReferences(ctx: RequestContext, projectId: string, body: PlanBody, specId: string | null) {
  if (body.protocol_id)
    await requireInProject(ctx.em, ctx, 'experiment_templates', 'protocol', 'protocol_id', body.protocol_id, projectId);
  if (body.cell_specification_id) {
    await requireInProject(
      ctx.em,
      ctx,
      'cell_specifications',
      'cell specification',
      'cell_specification_id',
      body.cell_specification_id,
      projectId,
    );
  }
  if (body.cell_instance_id) {
    const rows = await ctx.em.execute<{ cell_specification_id: string; organization_id: string }[]>(
      `select cell_specification_id, organization_id from cell_instances where id = ?`,
      [body.cell_instance_id],
    );
    if (!rows[0]) throw notFound('cell instance', body.cell_instance_id);
    assertSameOrganization(ctx.caller, rows[0].organization_id, 'cell instance');
    if (rows[0].cell_specification_id !== specId) {
      throw invalid(
        ['body', 'cell_instance_id'],
        `is not a cell of the cell specification ${specId}`,
        'value_error',
        body.cell_instance_id,
      );
    }
  }
}

function window(start: string | Date | null | undefined, end: string | Date | null | undefined) {
  const s = new Date(start!);
  const e = new Date(end!);
  if (e.getTime() <= s.getTime()) {
    throw invalid(
      ['body', 'planned_end_time'],
      `must be after planned_start_time (${s.toISOString()})`,
      'value_error',
      end instanceof Date ? end.toISOString() : end,
    );
  }
  return { start: s, end: e };
}

/** Locks the channel and refuses the window on it: other project 400, out of commission, ratings or a collision 409. */
export async function reserve(
  em: EntityManager,
  ctx: RequestContext,
  plan: { id: string | null; project_id: string; cell_specification_id: string | null },
  channelId: string,
  start: Date,
  end: Date,
) {
  const channel = await repo.channelForPlan(em, channelId, true);
  if (!channel) throw notFound('channel', channelId);
  assertSameOrganization(ctx.caller, channel.organization_id, 'channel');
  if (channel.project_id !== plan.project_id) {
    throw new AppError('BAD_REQUEST', `the channel ${channelId} belongs to another project`, {
      field: 'channel_id',
      project_id: channel.project_id,
    });
  }
  // Out for its cycler's service, the channel is held by the service's window (a block below); out for its own fault,
  // for good.
  if (channel.out_of_commission && !channel.service_event_id) {
    throw conflict(`channel ${channel.name} on ${channel.cycler_name} is out of commission`, {
      channel_id: channelId,
      out_of_commission: true,
    });
  }
  const spec = plan.cell_specification_id ? await repo.specForPlan(em, plan.cell_specification_id) : null;
  checkRatings(channel, requirementsOf(spec?.ratings ?? null));
  const hit = await repo.firstCollision(em, channelId, start, end, plan.id);
  if (hit) throw blockConflict(hit, channel);
  return channel;
}

/** The exclusion constraint caught a reservation that committed meanwhile: the same 409. */
async function orOverlap<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23P01') {
      throw conflict('the window collides with another reservation on this channel made at the same time', {
        collides_with: { kind: 'planned_measurement' },
      });
    }
    throw err;
  }
}

async function assertNameFree(ctx: RequestContext, projectId: string, name: string, selfId?: string) {
  const clash = await repo.findPlanByName(ctx.em, projectId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a planned measurement named "${name}" already exists in this project`, { existing_id: clash.id });
}

export async function createPlan(
  ctx: RequestContext,
  projectId: string,
  body: PlanBody & { name: string; protocol_id: string; cell_specification_id: string },
) {
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

/** The plan of this project (404 otherwise, also for another project's plan), with `permission`. */
export async function requirePlan(ctx: RequestContext, projectId: string, planId: string, permission: string) {
  await requireProjectPermission(ctx, projectId, permission);
  const plan = await repo.findPlan(ctx.em, planId);
  if (!plan || plan.project_id !== projectId) throw notFound('planned measurement', planId);
  return plan;
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

export async function updatePlan(ctx: RequestContext, projectId: string, planId: string, body: PlanBody) {
  const before = await requirePlan(ctx, projectId, planId, 'cell_measurement:update');
  await checkReferences(ctx, projectId, body, body.cell_specification_id ?? before.cell_specification_id);
  if (body.name !== undefined) await assertNameFree(ctx, projectId, body.name, planId);
  return orConflict(
    () =>
      orOverlap(() =>
        ctx.em.transactional(async (em) => {
          const plan = (await repo.findPlan(em, planId, { forUpdate: true }))!;
          const target = body.status ?? plan.status;
          const moves = WINDOW_FIELDS.some((f) => body[f] !== undefined);
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
          const specId = body.cell_specification_id ?? plan.cell_specification_id;
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
            await reserve(
              em,
              ctx,
              { id: planId, project_id: projectId, cell_specification_id: specId },
              channelId!,
              w.start,
              w.end,
            );
            Object.assign(changes, { channel_id: channelId, planned_start_time: w.start, planned_end_time: w.end });
            if (moves || plan.status !== 'scheduled') changes.scheduled_by = ctx.caller.userId;
          }
          if (target === 'requested') {
            if (body.estimated_duration_seconds === null)
              throw invalid(
                ['body', 'estimated_duration_seconds'],
                'is required for a requested plan',
                'missing',
                null,
              );
            const kept =
              plan.planned_start_time && plan.planned_end_time
                ? Math.max(1, Math.round((plan.planned_end_time.getTime() - plan.planned_start_time.getTime()) / 1000))
                : null;
            const duration = body.estimated_duration_seconds ?? plan.estimated_duration_seconds ?? kept;
            if (duration == null)
              throw invalid(['body', 'estimated_duration_seconds'], 'is required for a requested plan', 'missing');
            Object.assign(changes, {
              channel_id: null,
              planned_start_time: null,
              planned_end_time: null,
              scheduled_by: null,
              estimated_duration_seconds: duration,
            });
          } else {
            changes.estimated_duration_seconds = body.estimated_duration_seconds;
          }
          await updateRow(em, 'planned_measurements', planId, changes);
          return (await repo.findPlan(em, planId))!;
        }),
      ),
    () => assertNameFree(ctx, projectId, body.name ?? before.name, planId),
  );
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
