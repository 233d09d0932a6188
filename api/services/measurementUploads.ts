// Signed-URL uploads of measurement data: initiate (targets), confirm (record + background
// processing), and extend. The API never carries the bytes.
import { randomUUID } from 'node:crypto';
import type { RequestContext, Services } from '../context.ts';
import { AppError, conflict, invalid, notFound, type ValidationIssue, ValidationFailed } from '../errors.ts';
import * as repo from '../../db/repositories/measurementData.ts';
import { findMeasurement as findMeasurementRecord } from '../../db/repositories/cells.ts';
import { logger } from '../../stack/logger.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { requireInstance } from './cellAccess.ts';
import { assertChannelAttachable } from './measurementChannels.ts';
import { NO_SUCH_PROTOCOL, protocolTemplateExists } from './measurementChecks.ts';
import { indexMeasurement, serializeMeasurement } from './measurementRecords.ts';
import { normalizeTags } from './measurementTags.ts';

export { serializeMeasurement };
import { recordAndStart, recordStarts, startRecorded, type WorkflowStart } from '../../db/workflowStarts.ts';
import {
  EXTEND_UPLOAD,
  extendKey,
  fileKey,
  fileUploadKey,
  measurementPrefix,
  sealedKey,
  STEPS_UPLOAD,
  TIME_SERIES_UPLOAD,
  uploadKey,
} from '../../storage/measurementKeys.ts';
import type { ProcessMeasurementInput } from '../../workflows/processMeasurement.ts';
import { workflowIds } from '../../worker/taskQueues.ts';

export const workflowIdOf = workflowIds.measurementProcessing;

interface ValidationOptions {
  strict?: boolean;
  skip_checks?: string[];
}

interface MeasurementFields {
  name?: string;
  notes?: string | null;
  protocol?: string | Record<string, unknown> | null;
  protocol_id?: string | null;
  tags?: string[];
  program_name?: string | null;
  test_setup?: unknown;
  properties?: unknown;
  start_time?: string | null;
  end_time?: string | null;
  estimated_end_time?: string | null;
  channel_id?: string | null;
  validation?: ValidationOptions;
}

async function uploadInfo(ctx: Services, target: repo.UploadTarget, ttl: number) {
  const signed = await ctx.storage.signedPutUrl(target.path, { expiresInSeconds: ttl, maxBytes: target.max_bytes });
  // Without scoped credentials the signed PUT still works, so a refusing STS only takes the
  // multipart block away (docs/spec/measurement-data.md: multipart is null when none can be minted).
  const multipart = await ctx.storage.scopedUploadCredentials(target.path, ttl).catch((err: unknown) => {
    const { name, message } = err instanceof Error ? err : { name: 'Error', message: String(err) };
    logger.warn(
      { err: { name, message }, path: target.path },
      'scoped upload credentials not minted; offering the signed PUT only',
    );
    return null;
  });
  target.multipart = multipart !== null;
  return {
    filename: target.filename,
    signed_url: signed.url,
    token: signed.token,
    path: target.path,
    multipart,
    expires_at: signed.expiresAt.toISOString(),
  };
}

function checkFilenames(filenames: string[] | undefined): string[] {
  if (!filenames?.length)
    throw invalid(['body', 'filenames'], 'a file measurement needs at least one filename', 'missing', filenames);
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  filenames.forEach((name, i) => {
    if (
      [...name].some((ch) => ch < ' ' || ch === '/' || ch === '\\') ||
      name.trim() === '' ||
      name === '.' ||
      name === '..'
    ) {
      issues.push({
        loc: ['body', 'filenames', i],
        msg: 'must be a plain file name (no path separators or control characters)',
        type: 'value_error',
        input: name,
      });
    } else if (seen.has(name)) {
      issues.push({ loc: ['body', 'filenames', i], msg: 'is listed twice', type: 'value_error', input: name });
    }
    seen.add(name);
  });
  if (issues.length) throw new ValidationFailed(issues);
  return filenames;
}

export async function initiateUpload(
  ctx: RequestContext,
  cellInstanceId: string,
  body: {
    measurement: { name: string; notes?: string | null };
    measurement_type?: repo.MeasurementType;
    filenames?: string[];
  },
) {
  const instance = await requireInstance(ctx, cellInstanceId, 'cell_measurement:create');
  const type = body.measurement_type ?? 'time_series';
  const measurementId = randomUUID();
  const prefix = measurementPrefix(instance.organization_id, instance.project_id, measurementId);
  const max = ctx.config.uploadMaxBytes;
  const targets: repo.UploadTarget[] =
    type === 'file'
      ? checkFilenames(body.filenames).map((filename, i) => ({
          filename,
          path: fileUploadKey(prefix, i, filename),
          sealed_path: fileKey(prefix, i, filename),
          max_bytes: max,
          multipart: false,
        }))
      : [TIME_SERIES_UPLOAD, STEPS_UPLOAD].map((filename) => ({
          filename,
          path: uploadKey(prefix, filename),
          sealed_path: sealedKey(uploadKey(prefix, filename)),
          max_bytes: max,
          multipart: false,
        }));
  const ttl = ctx.config.signedUrlTtlSeconds;
  const uploads = [];
  for (const t of targets) uploads.push(await uploadInfo(ctx, t, ttl));
  await repo.insertSession(ctx.em, {
    id: randomUUID(),
    measurement_id: measurementId,
    kind: 'upload',
    version: 0,
    organization_id: instance.organization_id,
    project_id: instance.project_id,
    cell_instance_id: cellInstanceId,
    measurement_type: type,
    measurement: body.measurement,
    targets,
    expires_at: new Date(Date.now() + ttl * 1000),
    created_by: ctx.caller.userId,
  });
  return { measurement_id: measurementId, uploads };
}

/**
 * 409 naming the `required` targets with no object yet. Then every uploaded target is sealed:
 * copied to its sealed_path, which no upload credential names, so what is confirmed cannot be
 * rewritten through a signed URL or scoped credential still valid. The size limit is held on
 * the copy (413, both removed), on every path, multipart included (scoped credentials carry no
 * size limit).
 */
async function sealUploads(ctx: Services, session: repo.UploadSessionRow, required: repo.UploadTarget[]) {
  const missing: { filename: string; path: string }[] = [];
  const present: repo.UploadTarget[] = [];
  for (const t of session.targets) {
    if (await ctx.storage.head(t.path)) present.push(t);
    else if (required.includes(t)) missing.push({ filename: t.filename, path: t.path });
  }
  if (missing.length) {
    const expired = session.expires_at.getTime() < Date.now();
    throw conflict(
      `nothing was uploaded for ${missing.map((m) => m.filename).join(', ')}; ` +
        `PUT the bytes to the signed_url before confirming` +
        (expired ? ` (the upload targets expired at ${session.expires_at.toISOString()}: initiate a new upload)` : ''),
      { missing, expired, expires_at: session.expires_at.toISOString() },
    );
  }
  for (const t of present) {
    const readFrom = t.sealed_path ?? t.path;
    if (t.sealed_path) await ctx.storage.copy(t.path, t.sealed_path);
    const head = await ctx.storage.head(readFrom);
    if (head && head.size > t.max_bytes) {
      for (const key of new Set([t.path, readFrom])) await ctx.storage.delete(key);
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `${t.filename} is ${head.size} bytes, more than this upload target accepts (${t.max_bytes}); it was discarded`,
        {
          filename: t.filename,
          size: head.size,
          max_bytes: t.max_bytes,
        },
      );
    }
  }
}

/** Strict checks stay on unless turned off; the worker accepts check names and codes in any case. */
function validationOptions(v: ValidationOptions | undefined): ValidationOptions | undefined {
  return v === undefined ? undefined : { strict: v.strict ?? true, skip_checks: v.skip_checks ?? [] };
}

/**
 * The processing workflow of an upload or extend: confirming again while it runs joins it; after a failed run it may
 * run again.
 */
function processingStart(ctx: Services, m: { id: string }, mode: 'upload' | 'extend', version: number): WorkflowStart {
  const args: ProcessMeasurementInput = {
    measurementId: m.id,
    mode,
    version,
    measurementTaskQueue: ctx.config.measurementTaskQueue,
  };
  return {
    workflowType: 'processMeasurementData',
    taskQueue: ctx.config.taskQueue,
    workflowId: workflowIdOf(m.id, mode, version),
    args: [args],
    reusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  };
}

async function answer(ctx: RequestContext, measurementId: string) {
  return serializeMeasurement((await findMeasurementRecord(ctx.em, measurementId))!);
}

export async function confirmUpload(
  ctx: RequestContext,
  measurementId: string,
  body: {
    cell_instance_id: string;
    measurement?: MeasurementFields;
    measurement_type?: repo.MeasurementType;
    filenames?: string[];
  },
): Promise<{ created: boolean; measurement: Record<string, unknown> }> {
  const session = await repo.findUploadSession(ctx.em, measurementId);
  if (!session) throw notFound('upload for cell measurement', measurementId);
  assertSameOrganization(ctx.caller, session.organization_id, 'cell measurement');
  await requireProjectPermission(ctx, session.project_id, 'cell_measurement:create');

  const issues: ValidationIssue[] = [];
  if (body.cell_instance_id !== session.cell_instance_id) {
    issues.push({
      loc: ['body', 'cell_instance_id'],
      msg: 'is not the cell instance this upload was initiated for',
      type: 'value_error',
      input: body.cell_instance_id,
    });
  }
  if (body.measurement_type !== undefined && body.measurement_type !== session.measurement_type) {
    issues.push({
      loc: ['body', 'measurement_type'],
      msg: `this upload was initiated as ${session.measurement_type}`,
      type: 'value_error',
      input: body.measurement_type,
    });
  }
  const initiatedNames = session.targets.map((t) => t.filename);
  if (
    session.measurement_type === 'file' &&
    body.filenames !== undefined &&
    JSON.stringify(body.filenames) !== JSON.stringify(initiatedNames)
  ) {
    issues.push({
      loc: ['body', 'filenames'],
      msg: `must match the filenames of initiate-upload: ${JSON.stringify(initiatedNames)}`,
      type: 'value_error',
      input: body.filenames,
    });
  }
  const fields = body.measurement ?? {};
  if (fields.start_time && fields.end_time && new Date(fields.start_time) > new Date(fields.end_time)) {
    issues.push({
      loc: ['body', 'measurement', 'end_time'],
      msg: 'must not be before start_time',
      type: 'value_error',
      input: fields.end_time,
    });
  }
  if (fields.protocol_id != null && !(await protocolTemplateExists(ctx, fields.protocol_id))) {
    issues.push({
      loc: ['body', 'measurement', 'protocol_id'],
      msg: NO_SUCH_PROTOCOL,
      type: 'value_error',
      input: fields.protocol_id,
    });
  }
  if (issues.length) throw new ValidationFailed(issues);

  const existing = await repo.findMeasurement(ctx.em, measurementId);
  if (existing) {
    if (['pending', 'running'].includes(existing.processing_status))
      await recordAndStart(ctx, [processingStart(ctx, existing, 'upload', 0)]);
    return { created: false, measurement: await answer(ctx, measurementId) };
  }
  if (session.confirmed_at)
    throw new AppError('GONE', `cell measurement ${measurementId} was confirmed and has since been deleted`, {
      id: measurementId,
    });
  const required =
    session.measurement_type === 'file'
      ? session.targets
      : session.targets.filter((t) => t.filename === TIME_SERIES_UPLOAD);
  await sealUploads(ctx, session, required);

  const recorded = await ctx.em.transactional(async (em) => {
    // Two confirms racing: the second waits here, then finds the record and answers it.
    await em.execute(`select id from measurement_upload_sessions where id = ? for update`, [session.id]);
    if (await repo.findMeasurement(em, measurementId)) return false;
    if (fields.channel_id) {
      await assertChannelAttachable(
        em,
        ctx.caller,
        {
          id: null,
          project_id: session.project_id,
          start_time: fields.start_time ?? null,
          end_time: fields.end_time ?? null,
        },
        fields.channel_id,
        ['body', 'measurement', 'channel_id'],
      );
    }
    const initiated = session.measurement as MeasurementFields;
    const inserted = await repo.insertMeasurement(em, {
      id: measurementId,
      organization_id: session.organization_id,
      project_id: session.project_id,
      cell_instance_id: session.cell_instance_id,
      name: fields.name ?? initiated.name ?? measurementId,
      measurement_type: session.measurement_type,
      channel_id: fields.channel_id ?? null,
      start_time: fields.start_time ?? null,
      end_time: fields.end_time ?? null,
      estimated_end_time: fields.estimated_end_time ?? null,
      protocol: fields.protocol ?? null,
      protocol_id: fields.protocol_id ?? null,
      tags: normalizeTags(fields.tags ?? [], ['body', 'measurement', 'tags']),
      program_name: fields.program_name ?? null,
      test_setup: fields.test_setup ?? null,
      notes: fields.notes !== undefined ? fields.notes : (initiated.notes ?? null),
      properties: fields.properties ?? null,
      filenames: session.measurement_type === 'file' ? initiatedNames : null,
      validation_options: validationOptions(fields.validation) ?? null,
      created_by: ctx.caller.userId,
    });
    await repo.markSessionConfirmed(em, session.id);
    await indexMeasurement(em, (await findMeasurementRecord(em, measurementId))!);
    // Inserted pending: its processing starts with it.
    return recordStarts(em, [processingStart(ctx, inserted, 'upload', 0)]);
  });
  // The answer is the record as confirmed (pending), read before its processing starts: a
  // worker that takes it at once must not turn the confirm's own answer into 'running'.
  const measurement = await answer(ctx, measurementId);
  if (recorded) {
    await startRecorded(ctx, recorded);
  } else {
    // The other confirm created it: join its processing.
    const m = (await repo.findMeasurement(ctx.em, measurementId))!;
    if (['pending', 'running'].includes(m.processing_status))
      await recordAndStart(ctx, [processingStart(ctx, m, 'upload', 0)]);
  }
  return { created: recorded !== false, measurement };
}

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
  body: { validation?: ValidationOptions } = {},
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
    return answer(ctx, measurementId);
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
  const measurement = await answer(ctx, measurementId); // as confirmed, before processing can start (above)
  if (recorded) await startRecorded(ctx, recorded);
  return measurement;
}
