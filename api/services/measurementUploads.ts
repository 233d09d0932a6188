// Signed-URL uploads of measurement data: initiate (targets) and confirm (record + background
// processing); extends are in measurementExtends.ts. The API never carries the bytes.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { AppError, notFound, type ValidationIssue, ValidationFailed } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import * as repo from '../../db/repositories/measurementData.ts';
import { findMeasurement as findMeasurementRecord } from '../../db/repositories/cells.ts';
import { recordAndStart, recordStarts, startRecorded } from '../../db/workflowStarts.ts';
import {
  fileKey,
  fileUploadKey,
  measurementPrefix,
  sealedKey,
  STEPS_UPLOAD,
  TIME_SERIES_UPLOAD,
  uploadKey,
} from '../../storage/measurementKeys.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { requireInstance } from './cellAccess.ts';
import { assertChannelAttachable } from './measurementChannels.ts';
import { NO_SUCH_PROTOCOL, protocolTemplateExists } from './measurementChecks.ts';
import { answerMeasurement, processingStart, validationOptions } from './measurementProcessing.ts';
import { indexMeasurement } from './measurementRecords.ts';
import { normalizeTags } from './measurementTags.ts';
import { checkFilenames, sealUploads, uploadInfo } from './measurementUploadTargets.ts';

type InitiateBody = RequestBody<'initiateMeasurementUpload'>;
type ConfirmBody = RequestBody<'confirmMeasurementUpload'>;

export async function initiateUpload(ctx: RequestContext, cellInstanceId: string, body: InitiateBody) {
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

export async function confirmUpload(
  ctx: RequestContext,
  measurementId: string,
  body: ConfirmBody,
): Promise<{ created: boolean; measurement: Record<string, unknown> }> {
  const session = await repo.findUploadSession(ctx.em, measurementId);
  if (!session) throw notFound('upload for cell measurement', measurementId);
  assertSameOrganization(ctx.caller, session.organization_id, 'cell measurement');
  await requireProjectPermission(ctx, session.project_id, 'cell_measurement:create');

  await checkConfirm(ctx, session, body);
  const fields = body.measurement ?? {};

  const existing = await repo.findMeasurement(ctx.em, measurementId);
  if (existing) {
    if (['pending', 'running'].includes(existing.processing_status))
      await recordAndStart(ctx, [processingStart(ctx, existing, 'upload', 0)]);
    return { created: false, measurement: await answerMeasurement(ctx, measurementId) };
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
    const inserted = await insertConfirmed(ctx, em, session, fields);
    // Inserted pending: its processing starts with it.
    return recordStarts(em, [processingStart(ctx, inserted, 'upload', 0)]);
  });
  // The answer is the record as confirmed (pending), read before its processing starts: a
  // worker that takes it at once must not turn the confirm's own answer into 'running'.
  const measurement = await answerMeasurement(ctx, measurementId);
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

/** 422 naming every field of the confirm that does not match its upload or names what does not exist. */
async function checkConfirm(ctx: RequestContext, session: repo.UploadSessionRow, body: ConfirmBody) {
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
}

/** The record as the confirm and its upload describe it, written and indexed; the session marked confirmed. */
async function insertConfirmed(
  ctx: RequestContext,
  em: EntityManager,
  session: repo.UploadSessionRow,
  fields: NonNullable<ConfirmBody['measurement']>,
) {
  const initiatedNames = session.targets.map((t) => t.filename);
  const initiated = session.measurement as InitiateBody['measurement'];
  const inserted = await repo.insertMeasurement(em, {
    id: session.measurement_id,
    organization_id: session.organization_id,
    project_id: session.project_id,
    cell_instance_id: session.cell_instance_id,
    name: fields.name ?? initiated.name ?? session.measurement_id,
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
  await indexMeasurement(em, (await findMeasurementRecord(em, session.measurement_id))!);
  return inserted;
}
