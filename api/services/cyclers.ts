// Cyclers (owned by a project, standing at a site), GET /cyclers, and service events.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { AppError, conflict, invalid, notFound } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { parseList, type ListSpec } from '../listQuery.ts';
import * as repo from '../../db/repositories/inventory.ts';
import { insertRow, orConflict, page, updateRow } from '../../db/repositories/sqlRows.ts';
import { assertSameOrganization, readableProjectsSql, requireProjectPermission } from './access.ts';
import { textMatch } from './search.ts';
import { indexEntity, unindexEntity } from './searchIndex.ts';
import { requireSite } from './sites.ts';

const TEXT_FIELDS = [
  'name',
  'manufacturer',
  'model',
  'version',
  'serial_number',
  'firmware_version',
  'hostname',
  'ip_address',
  'notes',
] as const;

export const CYCLER_LIST: ListSpec = {
  columns: {
    ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, { kind: 'text', sql: `c.${f}` }])),
    site_id: { kind: 'id', sql: 'c.site_id' },
    project_id: { kind: 'id', sql: 'c.project_id' },
    created_by: { kind: 'id', sql: 'c.created_by' },
    port: { kind: 'number', sql: 'c.port' },
    calibration_interval_days: { kind: 'number', sql: 'c.calibration_interval_days' },
    last_calibrated_at: { kind: 'date', sql: 'c.last_calibrated_at' },
    calibration_due_at: { kind: 'date', sql: 'c.calibration_due_at' },
    created_at: { kind: 'date', sql: 'c.created_at' },
    updated_at: { kind: 'date', sql: 'c.updated_at' },
  },
  sortable: [
    'name',
    'manufacturer',
    'model',
    'version',
    'serial_number',
    'firmware_version',
    'hostname',
    'last_calibrated_at',
    'calibration_due_at',
    'created_at',
    'updated_at',
  ],
  defaultOrderBy: 'name',
  maxLimit: 1000,
  tieBreak: 'c.id',
};

const SERVICE_EVENT_LIST: ListSpec = {
  columns: {
    event_type: { kind: 'enum', values: ['calibration', 'preventive_maintenance', 'firmware', 'repair', 'other'] },
    status: { kind: 'enum', values: ['open', 'completed'] },
    started_at: { kind: 'date' },
    completed_at: { kind: 'date' },
    created_at: { kind: 'date' },
  },
  sortable: ['started_at', 'completed_at', 'created_at'],
  defaultOrderBy: 'created_at',
  defaultOrder: 'desc',
};

type CyclerBody = RequestBody<'createCycler'> | RequestBody<'updateCycler'>;

/** 404 when missing, 403 for another organization or without `permission` in its project. */
export async function requireCycler(
  ctx: RequestContext,
  cyclerId: string,
  permission: string,
): Promise<repo.CyclerRow> {
  const cycler = await repo.findCycler(ctx.em, cyclerId);
  if (!cycler) throw notFound('cycler', cyclerId);
  assertSameOrganization(ctx.caller, cycler.organization_id, 'cycler');
  await requireProjectPermission(ctx, cycler.project_id, permission);
  return cycler;
}

export function indexCycler(ctx: RequestContext, c: repo.CyclerRow) {
  return indexEntity(ctx.em, {
    entity_type: 'cycler',
    entity_id: c.id,
    organization_id: c.organization_id,
    project_id: c.project_id,
    parent_id: c.site_id,
    name: c.name,
    body: [c.manufacturer, c.model, c.serial_number, c.hostname].filter(Boolean).join(' '),
  });
}

async function assertNameFree(ctx: RequestContext, siteId: string, name: string, selfId?: string) {
  const clash = await repo.findCyclerByName(ctx.em, siteId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a cycler named "${name}" already exists at this site`, { existing_id: clash.id });
}

function fields(body: CyclerBody) {
  return {
    ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, body[f]])),
    port: body.port,
    // As UTC: RFC 3339 offsets go to ±23:59, PostgreSQL's only to ±15:59.
    last_calibrated_at: body.last_calibrated_at && new Date(body.last_calibrated_at).toISOString(),
    calibration_interval_days: body.calibration_interval_days,
  };
}

export async function createCycler(ctx: RequestContext, siteId: string, body: RequestBody<'createCycler'>) {
  await requireSite(ctx, siteId);
  await requireProjectPermission(ctx, body.project_id, 'cycler:create');
  await assertNameFree(ctx, siteId, body.name);
  const id = randomUUID();
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        await insertRow(
          em,
          'cyclers',
          {
            ...fields(body),
            id,
            organization_id: ctx.caller.organizationId,
            site_id: siteId,
            project_id: body.project_id,
            created_by: ctx.caller.userId,
          },
          'id',
        );
        const row = (await repo.findCycler(em, id))!;
        await indexCycler({ ...ctx, em }, row);
        return row;
      }),
    () => assertNameFree(ctx, siteId, body.name),
  );
}

export async function getCycler(ctx: RequestContext, cyclerId: string) {
  return requireCycler(ctx, cyclerId, 'cycler:read');
}

export async function updateCycler(ctx: RequestContext, cyclerId: string, body: RequestBody<'updateCycler'>) {
  const cycler = await requireCycler(ctx, cyclerId, 'cycler:update');
  const siteId = body.site_id ?? cycler.site_id;
  if (body.site_id !== undefined && body.site_id !== cycler.site_id) await requireSite(ctx, body.site_id);
  const moving = body.project_id !== undefined && body.project_id !== cycler.project_id;
  if (moving) await requireProjectPermission(ctx, body.project_id!, 'cycler:create');
  if (body.name !== undefined || siteId !== cycler.site_id)
    await assertNameFree(ctx, siteId, body.name ?? cycler.name, cyclerId);
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        await repo.lockCycler(em, cyclerId);
        if (moving) {
          // see lockCyclerChannels: no attach slips in between check and move
          await repo.lockCyclerChannels(em, cyclerId);
          const running = await repo.runningMeasurement(em, { cyclerId });
          if (running)
            throw conflict('a measurement is running on this cycler; it cannot move to another project', {
              measurement_id: running.id,
            });
          await repo.moveCyclerChannels(em, cyclerId, body.project_id!);
        }
        await updateRow(em, 'cyclers', cyclerId, {
          ...fields(body),
          site_id: body.site_id,
          project_id: body.project_id,
        });
        const row = (await repo.findCycler(em, cyclerId))!;
        await indexCycler({ ...ctx, em }, row);
        return row;
      }),
    () => assertNameFree(ctx, siteId, body.name ?? cycler.name, cyclerId),
  );
}

export async function deleteCycler(ctx: RequestContext, cyclerId: string) {
  await requireCycler(ctx, cyclerId, 'cycler:delete');
  await ctx.em.transactional(async (em) => {
    await repo.lockCycler(em, cyclerId);
    // an attach racing the delete commits before the check or fails after it
    await repo.lockCyclerChannels(em, cyclerId);
    const running = await repo.runningMeasurement(em, { cyclerId });
    if (running)
      throw conflict('a measurement is running on a channel of this cycler', {
        measurement_id: running.id,
        channel_id: running.channel_id,
      });
    await repo.unindexCyclerChannels(em, cyclerId);
    await unindexEntity(em, 'cycler', cyclerId);
    await em.execute(`delete from cyclers where id = ?`, [cyclerId]);
  });
  return { id: cyclerId, deleted: true };
}

/** GET /cyclers and GET /sites/{id}/cyclers: readable projects only; `q` uses the search matcher. */
export async function listCyclers(ctx: RequestContext, query: Record<string, unknown>, siteId?: string) {
  if (siteId) await requireSite(ctx, siteId);
  const list = parseList(query, CYCLER_LIST);
  const scope = [readableProjectsSql(ctx.caller, 'c.project_id')];
  if (siteId) scope.push({ sql: 'c.site_id = ?', params: [siteId] });
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  if (q) {
    const m = textMatch(q, 'c.name', 'c.tsv');
    scope.push({ sql: m.where, params: m.whereParams });
  }
  return page<repo.CyclerRow>(ctx.em, { select: repo.CYCLER_COLUMNS, from: 'cyclers c', scope, list });
}

export async function listServiceEvents(ctx: RequestContext, cyclerId: string, query: Record<string, unknown>) {
  await requireCycler(ctx, cyclerId, 'cycler:read');
  const list = parseList(query, SERVICE_EVENT_LIST);
  return page(ctx.em, {
    select: SERVICE_EVENT_COLUMNS,
    from: 'cycler_service_events',
    scope: [{ sql: 'cycler_id = ?', params: [cyclerId] }],
    list,
  });
}

// The Python client reads when the work was done as performed_at/performed_by (null: still open).
const SERVICE_EVENT_COLUMNS = '*, completed_at as performed_at, completed_by as performed_by';

/** Opens a service event; one at a time, and never while a measurement runs on the cycler. */
export async function openServiceEvent(
  ctx: RequestContext,
  cyclerId: string,
  body: RequestBody<'openCyclerServiceEvent'>,
) {
  const cycler = await requireCycler(ctx, cyclerId, 'cycler:update');
  // The booked visit (as the client sends it): its end must follow its start.
  const from = body.scheduled_for ?? body.started_at;
  if (body.scheduled_until && Date.parse(body.scheduled_until) <= (from ? Date.parse(from) : Date.now())) {
    throw new AppError(
      'BAD_REQUEST',
      `scheduled_until must be after ${body.scheduled_for ? 'scheduled_for' : 'the start of the event'}`,
      { field: 'scheduled_until' },
    );
  }
  return ctx.em.transactional(async (em) => {
    await repo.lockCycler(em, cyclerId);
    // An attach locks only its channel: holding them all makes a concurrent attach either
    // commit first (and the running check below sees it) or wait and then see this event.
    await repo.lockCyclerChannels(em, cyclerId);
    const open = await repo.openServiceEvent(em, cyclerId);
    if (open)
      throw conflict(`a ${open.event_type} service event is already open on this cycler`, { existing_id: open.id });
    const running = await repo.runningMeasurement(em, { cyclerId });
    if (running)
      throw conflict('a measurement is running on this cycler', {
        measurement_id: running.id,
        channel_id: running.channel_id,
      });
    const event = {
      id: randomUUID(),
      cycler_id: cyclerId,
      event_type: body.event_type,
      notes: body.notes ?? null,
      created_by: ctx.caller.userId,
      scheduled_for: body.scheduled_for ?? null,
      scheduled_until: body.scheduled_until ?? null,
    };
    const row = await insertRow(
      em,
      'cycler_service_events',
      {
        ...event,
        organization_id: cycler.organization_id,
        project_id: cycler.project_id,
        started_at: body.started_at,
      },
      SERVICE_EVENT_COLUMNS,
    );
    // the whole instrument reads as down, as the client's start_service says
    await repo.takeCyclerChannelsOut(em, event);
    return row;
  });
}

/**
 * Completes the open event or, with none open, records one already done (event_type, default
 * calibration: "I calibrated this, log it", as the Python client does in one call). A
 * calibration sets last_calibrated_at (and the due date follows).
 */
export async function completeServiceEvent(
  ctx: RequestContext,
  cyclerId: string,
  body: RequestBody<'completeCyclerServiceEvent'>,
) {
  const cycler = await requireCycler(ctx, cyclerId, 'cycler:update');
  const at = body.completed_at ?? body.performed_at;
  const atField = body.completed_at !== undefined ? 'completed_at' : 'performed_at';
  return ctx.em.transactional(async (em) => {
    await repo.lockCycler(em, cyclerId);
    const open = await repo.openServiceEvent(em, cyclerId);
    const completedAt = at ?? new Date().toISOString();
    if (!open) {
      const eventType = body.event_type ?? 'calibration';
      const event = await insertRow<Record<string, unknown>>(
        em,
        'cycler_service_events',
        {
          id: randomUUID(),
          organization_id: cycler.organization_id,
          project_id: cycler.project_id,
          cycler_id: cyclerId,
          event_type: eventType,
          status: 'completed',
          notes: body.notes ?? null,
          completion_notes: body.notes ?? null,
          started_at: completedAt,
          completed_at: completedAt,
          created_by: ctx.caller.userId,
          completed_by: ctx.caller.userId,
        },
        SERVICE_EVENT_COLUMNS,
      );
      if (eventType === 'calibration') {
        await updateRow(em, 'cyclers', cyclerId, {
          last_calibrated_at: completedAt,
          calibration_interval_days: body.calibration_interval_days,
        });
      }
      return { ...event, cycler: (await repo.findCycler(em, cyclerId))! };
    }
    // An event cannot end before it began (a calibration would also date the cycler wrongly).
    if (new Date(completedAt).getTime() < new Date(open.started_at).getTime()) {
      throw invalid(
        ['body', atField],
        `must not be before the event's started_at (${new Date(open.started_at).toISOString()})`,
        'value_error',
        completedAt,
      );
    }
    const [event] = await em.execute(
      `update cycler_service_events set status = 'completed', completed_at = ?, completion_notes = ?,
        completed_by = ?, updated_at = now()
        where id = ? returning ${SERVICE_EVENT_COLUMNS}`,
      [completedAt, body.notes ?? null, ctx.caller.userId, open.id],
    );
    await repo.bringCyclerChannelsBack(em, open.id, body.notes ?? null, ctx.caller.userId);
    if (open.event_type === 'calibration') {
      await updateRow(em, 'cyclers', cyclerId, {
        last_calibrated_at: completedAt,
        calibration_interval_days: body.calibration_interval_days,
      });
    }
    return { ...event, cycler: (await repo.findCycler(em, cyclerId))! };
  });
}
