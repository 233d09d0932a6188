// Extending a time series measurement: initiate (one signed target per version) and confirm
// (seal it and start the extend's processing).
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import * as repo from '../../db/repositories/measurementData.ts';
import { recordAndStart, recordStarts, startRecorded } from '../../db/workflowStarts.ts';
import { EXTEND_UPLOAD, extendKey, measurementPrefix, sealedKey } from '../../storage/measurementKeys.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { answerMeasurement, processingStart, validationOptions } from './measurementProcessing.ts';
import { sealUploads, uploadInfo } from './measurementUploadTargets.ts';

async function requireDataMeasurement(
  ctx: RequestContext,
  measurementId: string,
  permission: string,
): Promise<repo.MeasurementDataRow> {
  const m = await repo.findMeasurement(ctx.em, measurementId);
  if (!m) throw notFound('cell measurement', measurementId);
  assertSameOrganization(ctx.caller, m.organization_id, 'cell measurement');
  await requireProjectPermission(ctx, m.project_id, permission);
  return m;
}

/** The rules an extend must meet before and at confirm. */
function assertExtendable(m: repo.MeasurementDataRow) {
  if (m.measurement_type !== 'time_series') {
    throw conflict(`cell measurement ${m.id} holds ${m.measurement_type} data; only time series can be extended`, {
      measurement_type: m.measurement_type,
    });
  }
  if (m.end_time) {
    throw conflict(
      `cell measurement ${m.id} has ended (end_time ${m.end_time.toISOString()}); clear end_time to extend it`,
      { end_time: m.end_time.toISOString() },
    );
  }
  if (m.processing_status === 'pending' || m.processing_status === 'running') {
    throw conflict(`cell measurement ${m.id} is still processing; extend it once processing_status is ready`, {
      processing_status: m.processing_status,
    });
  }
  if (m.processing_status === 'failed' || !m.time_series_key) {
    throw conflict(`cell measurement ${m.id} has no stored series to extend (its upload failed processing)`, {
      processing_status: m.processing_status,
      processing_error: m.processing_error,
    });
  }
}

export async function initiateExtend(ctx: RequestContext, measurementId: string) {
  await requireDataMeasurement(ctx, measurementId, 'cell_measurement:update');
  const ttl = ctx.config.signedUrlTtlSeconds;
  return ctx.em.transactional(async (em) => {
    const m = (await repo.findMeasurement(em, measurementId, { forUpdate: true }))!;
    assertExtendable(m);
    const latest = await repo.latestExtendSession(em, measurementId);
    if (latest && !latest.confirmed_at) {
      const remaining = Math.floor((latest.expires_at.getTime() - Date.now()) / 1000);
      if (remaining > 0) {
        // The in-flight target again, freshly signed until the same expiry: a script that
        // lost the first answer (it crashed, or the response was lost) can finish that extend.
        const uploads = [await uploadInfo(ctx, { ...latest.targets[0]! }, remaining)];
        throw conflict(
          `an extend of cell measurement ${measurementId} is already in flight; ` +
            `upload to detail.uploads and confirm it, or wait until its target expires`,
          {
            version: latest.version,
            expires_at: latest.expires_at.toISOString(),
            uploads,
          },
        );
      }
      await repo.deleteSession(em, latest.id);
    }
    // Versions are never reused (an abandoned one's number included), so an earlier extend's
    // session row and object never collide with the next.
    const version = Math.max(m.data_version, latest?.version ?? 0) + 1;
    const prefix = measurementPrefix(m.organization_id, m.project_id, m.id);
    const target: repo.UploadTarget = {
      filename: EXTEND_UPLOAD,
      path: extendKey(prefix, version),
      sealed_path: sealedKey(extendKey(prefix, version)),
      max_bytes: ctx.config.uploadMaxBytes,
      multipart: false,
    };
    const upload = await uploadInfo(ctx, target, ttl);
    await repo.insertSession(em, {
      id: randomUUID(),
      measurement_id: m.id,
      kind: 'extend',
      version,
      organization_id: m.organization_id,
      project_id: m.project_id,
      cell_instance_id: m.cell_instance_id,
      measurement_type: 'time_series',
      measurement: {},
      targets: [target],
      expires_at: new Date(Date.now() + ttl * 1000),
      created_by: ctx.caller.userId,
    });
    return { measurement_id: m.id, uploads: [upload] };
  });
}

export async function confirmExtend(
  ctx: RequestContext,
  measurementId: string,
  body: RequestBody<'confirmMeasurementExtend'> = {},
) {
  await requireDataMeasurement(ctx, measurementId, 'cell_measurement:update');
  const session = await repo.latestExtendSession(ctx.em, measurementId);
  if (!session)
    throw conflict(`no extend of cell measurement ${measurementId} was initiated; call initiate-extend first`, {});
  if (session.confirmed_at) {
    // Confirming again: join the processing if it is still the one in flight.
    const m = (await repo.findMeasurement(ctx.em, measurementId))!;
    if (m.extending_version === session.version)
      await recordAndStart(ctx, [processingStart(ctx, m, 'extend', session.version)]);
    return answerMeasurement(ctx, measurementId);
  }
  const recorded = await ctx.em.transactional(async (em) => {
    const m = (await repo.findMeasurement(em, measurementId, { forUpdate: true }))!;
    const current = await repo.latestExtendSession(em, measurementId);
    if (current?.id !== session.id || current.confirmed_at) return null;
    assertExtendable(m);
    await sealUploads(ctx, session, session.targets);
    const updated = await repo.markExtending(em, m.id, session.version, validationOptions(body.validation));
    await repo.markSessionConfirmed(em, session.id);
    return recordStarts(em, [processingStart(ctx, updated, 'extend', session.version)]);
  });
  const measurement = await answerMeasurement(ctx, measurementId); // as confirmed, before processing can start (above)
  if (recorded) await startRecorded(ctx, recorded);
  return measurement;
}
