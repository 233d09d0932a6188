// Cell measurement records (metadata): creating a properties measurement, editing, deleting and
// watching them. Data uploads create records of type time_series/file (measurementUploads.ts).
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, invalid } from '../errors.ts';
import type { Schema } from '../schemas.ts';
import * as repo from '../../db/repositories/cells.ts';
import { insertRow, updateRow } from '../../db/repositories/sqlRows.ts';
import { requireProjectPermission } from './access.ts';
import { requireInstance } from './cellAccess.ts';
import { unindexAnalysesOf, unindexEntity } from './searchIndex.ts';
import { normalizeTags } from './measurementTags.ts';
import { startRecorded } from '../../db/workflowStarts.ts';
import { recordMeasurementPurges } from './measurementPurges.ts';
import { assertChannelAttachable, assertNoOverlap, runsOn } from './measurementChannels.ts';
import { checkPlan, checkProtocol, checkRequester, checkTimes } from './measurementChecks.ts';
import { indexMeasurement, protocolParam, requireMeasurement, serializeMeasurement } from './measurementRecords.ts';

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
type MeasurementBody = Schema<'PropertiesMeasurementCreate'> | Schema<'CellMeasurementUpdate'>;

export async function getMeasurement(ctx: RequestContext, measurementId: string) {
  return serializeMeasurement(await requireMeasurement(ctx, measurementId, 'cell_measurement:read'));
}

/** POST /cell_instances/{id}/cell_measurements/create: a 'properties' measurement (values with units). */
export async function createPropertiesMeasurement(
  ctx: RequestContext,
  instanceId: string,
  body: Schema<'PropertiesMeasurementCreate'>,
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
export async function updateMeasurement(
  ctx: RequestContext,
  measurementId: string,
  body: Schema<'CellMeasurementUpdate'>,
) {
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
