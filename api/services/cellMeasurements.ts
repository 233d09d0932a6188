// Cell measurement records (metadata), attaching them to channels, and watching them.
// Data uploads create records of type time_series/file through the measurement-data service,
// which uses indexMeasurement and assertChannelAttachable from here.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../errors.ts';
import { parseList, type ListSpec } from '../listQuery.ts';
import * as repo from '../../db/repositories/cells.ts';
import { openServiceEvent } from '../../db/repositories/inventory.ts';
import { insertRow, page, updateRow } from '../../db/repositories/sqlRows.ts';
import { assertSameOrganization, holdsInProject, requireProjectPermission } from './access.ts';
import { requireInstance } from './cellAccess.ts';
import { indexEntity, unindexAnalysesOf, unindexEntity } from './searchIndex.ts';
import { normalizeTags, tagFilters } from './measurementTags.ts';
import { startRecorded } from '../../db/workflowStarts.ts';
import { recordMeasurementPurges } from './measurementPurges.ts';

const MEASUREMENT_LIST: ListSpec = {
  columns: {
    name: { kind: 'text', sql: 'm.name' },
    notes: { kind: 'text', sql: 'm.notes' },
    // The protocol's name: the string itself, or the name key of a protocol object.
    protocol: {
      kind: 'text',
      sql: `coalesce(m.protocol->>'name', case when jsonb_typeof(m.protocol) = 'string' then m.protocol #>> '{}' end)`,
    },
    program_name: { kind: 'text', sql: 'm.program_name' },
    measurement_type: { kind: 'enum', sql: 'm.measurement_type', values: ['time_series', 'file', 'properties'] },
    processing_status: { kind: 'enum', sql: 'm.processing_status', values: ['pending', 'running', 'ready', 'failed'] },
    channel_id: { kind: 'id', sql: 'm.channel_id' },
    requested_by: { kind: 'id', sql: 'm.requested_by' },
    created_by_email: { kind: 'text', sql: '(select u.email from users u where u.id = m.created_by)' },
    start_time: { kind: 'date', sql: 'm.start_time' },
    end_time: { kind: 'date', sql: 'm.end_time' },
    estimated_end_time: { kind: 'date', sql: 'm.estimated_end_time' },
    created_at: { kind: 'date', sql: 'm.created_at' },
    updated_at: { kind: 'date', sql: 'm.updated_at' },
  },
  sortable: ['name', 'start_time', 'end_time', 'estimated_end_time', 'created_at', 'updated_at'],
  defaultOrderBy: 'start_time',
  defaultOrder: 'desc',
  tieBreak: 'm.id',
  maxLimit: 1000, // the Python client's Navigator pages with 200
};

const EDITABLE = [
  'name',
  'notes',
  'channel_id',
  'start_time',
  'end_time',
  'estimated_end_time',
  'protocol',
  'protocol_id',
  'program_name',
  'test_setup',
  'properties',
  'requested_by',
  'planned_measurement_id',
  'tags',
] as const;

/** The stored form of the fields a create or PATCH gives: protocol as JSON, tags normalised. */
function storedFields(body: MeasurementBody): Record<string, unknown> {
  const values: Record<string, unknown> = Object.fromEntries(EDITABLE.map((f) => [f, body[f]]));
  values.protocol = protocolParam(body.protocol);
  if (Array.isArray(body.tags)) values.tags = normalizeTags(body.tags as string[], ['body', 'tags']);
  return values;
}
type MeasurementBody = Partial<Record<(typeof EDITABLE)[number], unknown>> & { measurement_type?: string };

/**
 * The record as answered by every operation: internal storage columns left out; the last
 * processing's issues as its processing report (docs/spec/measurement-data.md: errors fail processing
 * "with the issues in the measurement's processing report"; warnings are kept and shown).
 */
export function serializeMeasurement(row: object): Record<string, unknown> {
  const {
    time_series_key: _ts,
    steps_key: _st,
    cycles_key: _cy,
    validation_report: report,
    extending_version: _ev,
    validation_options: _vo,
    data_columns,
    row_count,
    ...rest
  } = row as Record<string, unknown>;
  const iso = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
  return {
    ...iso,
    row_count: row_count == null ? null : Number(row_count),
    columns: data_columns ?? null,
    ...(report !== undefined ? { processing_report: report } : {}),
  };
}

/** A protocol is a name or, as the client sends it, an object with a name. */
export function protocolName(protocol: unknown): string | null {
  if (typeof protocol === 'string') return protocol;
  const name = protocol !== null && typeof protocol === 'object' ? (protocol as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : null;
}

/** The protocol as a jsonb parameter: a string is stored as a JSON string, an object as itself. */
export function protocolParam(protocol: unknown): unknown {
  return typeof protocol === 'string' ? JSON.stringify(protocol) : protocol;
}

export function indexMeasurement(em: EntityManager, m: repo.MeasurementRow) {
  return indexEntity(em, {
    entity_type: 'cell_measurement',
    entity_id: m.id,
    organization_id: m.organization_id,
    project_id: m.project_id,
    parent_id: m.cell_instance_id,
    name: m.name,
    body: [protocolName(m.protocol), m.program_name, m.notes, ...((m.tags as string[] | undefined) ?? [])]
      .filter(Boolean)
      .join(' '),
  });
}

export async function requireMeasurement(
  ctx: RequestContext,
  measurementId: string,
  permission: string,
): Promise<repo.MeasurementRow> {
  const m = await repo.findMeasurement(ctx.em, measurementId);
  if (!m) throw notFound('cell measurement', measurementId);
  assertSameOrganization(ctx.caller, m.organization_id, 'cell measurement');
  await requireProjectPermission(ctx, m.project_id, permission);
  return m;
}

/**
 * Checks, under a lock on the channel, that the measurement may occupy it: same organization
 * (403) and project (400, naming the field at `loc`), in commission (409), its cycler not in
 * service while the measurement runs (409), no other unfinished measurement overlapping its
 * time (409). Call inside the transaction that writes channel_id.
 */
export async function assertChannelAttachable(
  em: EntityManager,
  caller: RequestContext['caller'],
  m: { id: string | null; project_id: string; start_time: Date | string | null; end_time: Date | string | null },
  channelId: string,
  loc: (string | number)[] = ['body', 'channel_id'],
): Promise<void> {
  const channel = await repo.lockChannelForAttach(em, channelId);
  if (!channel) throw invalid(loc, 'no such channel', 'value_error', channelId);
  if (channel.organization_id !== caller.organizationId)
    throw forbidden('the channel belongs to another organization', { channel_id: channelId });
  if (channel.project_id !== m.project_id) {
    // 400, not 422: the issue's attach rules answer a cross-project link with 400.
    throw new AppError(
      'BAD_REQUEST',
      `the channel belongs to another project (${channel.project_id}) than the measurement (${m.project_id})`,
      {
        field: loc.at(-1),
        loc,
        channel_project_id: channel.project_id,
        measurement_project_id: m.project_id,
      },
    );
  }
  // A cycler in service runs nothing new (opening an event likewise waits for no running
  // measurement), and the event is the more telling answer; finished runs may still be recorded
  // on it, although the event took its channels out of commission. A channel out for its own
  // fault takes nothing.
  if (runsOn(m.end_time)) {
    const event = await openServiceEvent(em, channel.cycler_id);
    if (event) {
      throw conflict(`the channel's cycler has an open ${event.event_type} service event`, {
        channel_id: channelId,
        cycler_id: channel.cycler_id,
        service_event_id: event.id,
      });
    }
  }
  if (channel.out_of_commission && (runsOn(m.end_time) || !channel.service_event_id)) {
    throw conflict('the channel is out of commission', { channel_id: channelId });
  }
  await assertNoOverlap(em, m, channelId);
}

/** Whether a measurement with this end runs now or later (the RUNNING condition of the repositories). */
function runsOn(endTime: Date | string | null): boolean {
  return endTime == null || new Date(endTime) > new Date();
}

/**
 * No other unfinished measurement on the channel overlaps the measurement's time; the caller holds the channel's
 * lock.
 */
async function assertNoOverlap(
  em: EntityManager,
  m: { id: string | null; start_time: Date | string | null; end_time: Date | string | null },
  channelId: string,
) {
  const other = await repo.overlappingRunning(em, channelId, m.id, m.start_time, m.end_time);
  if (other)
    throw conflict('another unfinished measurement occupies the channel in an overlapping time', {
      channel_id: channelId,
      measurement_id: other.id,
    });
}

function checkTimes(start: unknown, end: unknown) {
  if (start != null && end != null && new Date(String(start)) > new Date(String(end))) {
    throw invalid(['body', 'end_time'], 'must not be before start_time', 'value_error', end);
  }
}

export const NO_SUCH_PROTOCOL = 'no such experiment template (protocol) in this organization';

/** protocol_id names an experiment template of the caller's organization. */
export async function protocolTemplateExists(ctx: RequestContext, templateId: string): Promise<boolean> {
  const rows = await ctx.em.execute<{ project_id: string }[]>(
    `select project_id from experiment_templates where id = ? and organization_id = ?`,
    [templateId, ctx.caller.organizationId],
  );
  // One the caller cannot read (experiment_template:read in its project) is not revealed either.
  return rows.length > 0 && holdsInProject(ctx, rows[0]!.project_id, 'experiment_template:read');
}

async function checkProtocol(ctx: RequestContext, templateId: unknown) {
  if (templateId == null) return;
  if (!(await protocolTemplateExists(ctx, templateId as string)))
    throw invalid(['body', 'protocol_id'], NO_SUCH_PROTOCOL, 'value_error', templateId);
}

/** planned_measurement_id names a plan of the measurement's project (the run it is). */
async function checkPlan(ctx: RequestContext, planId: unknown, projectId: string) {
  if (planId == null) return;
  const rows = await ctx.em.execute(`select 1 from planned_measurements where id = ? and project_id = ?`, [
    planId,
    projectId,
  ]);
  if (!rows.length)
    throw invalid(
      ['body', 'planned_measurement_id'],
      "is not a planned measurement of the measurement's project",
      'value_error',
      planId,
    );
}

async function checkRequester(ctx: RequestContext, userId: unknown) {
  if (userId == null) return;
  const rows = await ctx.em.execute(`select 1 from memberships where organization_id = ? and user_id = ?`, [
    ctx.caller.organizationId,
    userId,
  ]);
  if (!rows.length)
    throw invalid(['body', 'requested_by'], 'is not a member of this organization', 'value_error', userId);
}

export async function listMeasurements(ctx: RequestContext, instanceId: string, query: Record<string, unknown>) {
  await requireInstance(ctx, instanceId, 'cell_measurement:read');
  return listMeasurementsWhere(ctx, { sql: 'm.cell_instance_id = ?', params: [instanceId] }, query);
}

/**
 * GET /cell_measurements: a project's measurements across its cells; q matches name, notes,
 * the protocol's name and tags (case-insensitive substring).
 */
export async function listProjectMeasurements(ctx: RequestContext, query: Record<string, unknown>) {
  await requireProjectPermission(ctx, String(query.project_id), 'cell_measurement:read');
  const clauses: { sql: string; params: unknown[] }[] = [{ sql: 'm.project_id = ?', params: [query.project_id] }];
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  if (q) {
    const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    clauses.push({
      sql: `(lower(m.name) like ? or lower(coalesce(m.notes, '')) like ?
        or lower(coalesce(m.protocol->>'name', m.protocol #>> '{}', '')) like ?
             or exists (select 1 from jsonb_array_elements_text(m.tags) t where lower(t) like ?))`,
      params: [like, like, like, like],
    });
  }
  const { q: _q, project_id: _p, ...rest } = query;
  return listMeasurementsWhere(
    ctx,
    { sql: clauses.map((c) => c.sql).join(' and '), params: clauses.flatMap((c) => c.params) },
    { limit: '25', ...rest },
  );
}

/** A page of the measurements `scope` picks, with the list filters of every measurement list. */
export async function listMeasurementsWhere(
  ctx: RequestContext,
  scope: { sql: string; params: unknown[] },
  input: Record<string, unknown>,
) {
  // The Python client sends measurement_type as a bare value.
  const type = input.measurement_type;
  const query = typeof type === 'string' && !type.includes('.') ? { ...input, measurement_type: `eq.${type}` } : input;
  const list = parseList(query, MEASUREMENT_LIST);
  const result = await page<repo.MeasurementRow>(ctx.em, {
    select: repo.MEASUREMENT_SELECT,
    from: repo.MEASUREMENT_FROM,
    scope: [scope, ...tagFilters(query)],
    list,
  });
  return { ...result, items: result.items.map(serializeMeasurement) };
}

export async function getMeasurement(ctx: RequestContext, measurementId: string) {
  return serializeMeasurement(await requireMeasurement(ctx, measurementId, 'cell_measurement:read'));
}

/** POST /cell_instances/{id}/cell_measurements/create: a 'properties' measurement (values with units). */
export async function createPropertiesMeasurement(
  ctx: RequestContext,
  instanceId: string,
  body: MeasurementBody & { name: string },
) {
  const instance = await requireInstance(ctx, instanceId, 'cell_measurement:create');
  if ((body.measurement_type ?? 'properties') !== 'properties') {
    throw invalid(
      ['body', 'measurement_type'],
      'only "properties" measurements are created here; time series and files use initiate-upload',
      'value_error',
      body.measurement_type,
    );
  }
  checkTimes(body.start_time, body.end_time);
  await checkRequester(ctx, body.requested_by);
  await checkProtocol(ctx, body.protocol_id);
  await checkPlan(ctx, body.planned_measurement_id, instance.project_id);
  const id = randomUUID();
  return ctx.em.transactional(async (em) => {
    const values = storedFields(body);
    if (body.channel_id != null) {
      await assertChannelAttachable(
        em,
        ctx.caller,
        {
          id: null,
          project_id: instance.project_id,
          start_time: (body.start_time as string) ?? null,
          end_time: (body.end_time as string) ?? null,
        },
        body.channel_id as string,
      );
    }
    await insertRow(
      em,
      'cell_measurements',
      {
        ...values,
        requested_by: body.requested_by ?? ctx.caller.userId,
        id,
        organization_id: instance.organization_id,
        project_id: instance.project_id,
        cell_instance_id: instanceId,
        measurement_type: 'properties',
        created_by: ctx.caller.userId,
      },
      'id',
    );
    const row = (await repo.findMeasurement(em, id))!;
    await indexMeasurement(em, row);
    return row;
  });
}

/**
 * Only given fields change; channel_id null detaches. Linking to another channel runs every
 * attach check; re-timing on the same channel only the overlap check, since the run was already
 * there (its channel may since have gone out of commission or moved to another project).
 */
export async function updateMeasurement(ctx: RequestContext, measurementId: string, body: MeasurementBody) {
  const current = await requireMeasurement(ctx, measurementId, 'cell_measurement:update');
  const next = {
    channel_id: body.channel_id === undefined ? current.channel_id : (body.channel_id as string | null),
    start_time: body.start_time === undefined ? current.start_time : (body.start_time as string | null),
    end_time: body.end_time === undefined ? current.end_time : (body.end_time as string | null),
  };
  checkTimes(next.start_time, next.end_time);
  if (body.requested_by !== undefined) await checkRequester(ctx, body.requested_by);
  await checkProtocol(ctx, body.protocol_id);
  await checkPlan(ctx, body.planned_measurement_id, current.project_id);
  const relinks = next.channel_id !== null && next.channel_id !== current.channel_id;
  const retimes =
    next.channel_id !== null && !relinks && (body.start_time !== undefined || body.end_time !== undefined);
  return ctx.em.transactional(async (em) => {
    const m = { id: measurementId, project_id: current.project_id, ...next };
    if (relinks) await assertChannelAttachable(em, ctx.caller, m, next.channel_id!);
    if (retimes) {
      const channel = await repo.lockChannelForAttach(em, next.channel_id!);
      // Running again on a channel that has since moved to another project would occupy it
      // unseen: that project's lab status cannot show another project's measurement.
      if (runsOn(next.end_time) && channel && channel.project_id !== current.project_id) {
        throw conflict(
          'the channel has moved to another project since this run ended, so the run cannot go on there; ' +
            'end it in the past, or detach it (channel_id null)',
          {
            channel_id: channel.id,
            loc: ['body', 'end_time'],
          },
        );
      }
      await assertNoOverlap(em, m, next.channel_id!);
    }
    await updateRow(em, 'cell_measurements', measurementId, storedFields(body));
    const row = (await repo.findMeasurement(em, measurementId))!;
    await indexMeasurement(em, row);
    return row;
  });
}

export async function deleteMeasurement(ctx: RequestContext, measurementId: string) {
  const m = await requireMeasurement(ctx, measurementId, 'cell_measurement:delete');
  const purges = await ctx.em.transactional(async (em) => {
    const purges = await recordMeasurementPurges(em, ctx.config, [m]);
    await unindexEntity(em, 'cell_measurement', measurementId);
    await unindexAnalysesOf(em, [measurementId]);
    await em.execute(`delete from cell_measurements where id = ?`, [measurementId]);
    return purges;
  });
  await startRecorded(ctx, purges);
  return { id: measurementId, deleted: true };
}

/** Idempotent: watching twice keeps one watch, unwatching an unwatched measurement is fine. */
export async function setWatch(ctx: RequestContext, measurementId: string, watched: boolean) {
  const m = await requireMeasurement(ctx, measurementId, 'cell_measurement:read');
  await repo.setWatch(ctx.em, ctx.caller.userId, m, watched);
  return { measurement_id: measurementId, watched };
}

export async function watchedMeasurements(ctx: RequestContext, projectId: string) {
  await requireProjectPermission(ctx, projectId, 'cell_measurement:read');
  return { measurement_ids: await repo.watchedIn(ctx.em, ctx.caller.userId, projectId) };
}
