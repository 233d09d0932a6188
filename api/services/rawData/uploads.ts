// Signed-URL uploads of raw data: initiate allocates the record and its one target, confirm
// checks the object is there and within its limit, then makes the record visible. The API never
// carries the bytes.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../context.ts';
import { AppError, conflict, notFound, type ValidationIssue, ValidationFailed } from '../../errors.ts';
import * as repo from '../../../db/repositories/rawData.ts';
import { indexRawData } from '../searchIndex.ts';
import type { RequestBody } from '../../schemas.ts';
import { logger } from '../../../stack/logger.ts';
import { rawDataKey, rawDataPrefix } from '../../../storage/rawDataKeys.ts';
import { assertSameOrganization, requireProjectPermission } from '../access.ts';
import { serialize } from './records.ts';

type InitiateBody = RequestBody<'initiateRawDataUpload'>;
type ConfirmBody = RequestBody<'confirmRawDataUpload'>;

function plainFilename(name: string): ValidationIssue | null {
  const bad =
    [...name].some((ch) => ch < ' ' || ch === '/' || ch === '\\' || ch === '\x7f') ||
    name.trim() === '' ||
    name === '.' ||
    name === '..';
  return bad
    ? {
        loc: ['body', 'filename'],
        msg: 'must be a plain file name (no path separators or control characters)',
        type: 'value_error',
        input: name,
      }
    : null;
}

export async function initiateUpload(ctx: RequestContext, body: InitiateBody) {
  const issue = plainFilename(body.filename);
  if (issue) throw new ValidationFailed([issue]);
  const project = await requireProjectPermission(ctx, body.project_id, 'cell_measurement:create');
  const id = randomUUID();
  const key = rawDataKey(rawDataPrefix(project.organization_id, body.project_id, id), body.filename);
  const ttl = ctx.config.signedUrlTtlSeconds;
  const maxBytes = ctx.config.uploadMaxBytes;
  const signed = await ctx.storage.signedPutUrl(key, { expiresInSeconds: ttl, maxBytes });
  // Without scoped credentials the signed PUT still works; only the multipart block goes.
  const multipart = await ctx.storage.scopedUploadCredentials(key, ttl).catch((err: unknown) => {
    const { name, message } = err instanceof Error ? err : { name: 'Error', message: String(err) };
    logger.warn(
      { err: { name, message }, path: key },
      'scoped upload credentials not minted; offering the signed PUT only',
    );
    return null;
  });
  await repo.insertRawData(ctx.em, {
    id,
    organization_id: project.organization_id,
    project_id: body.project_id,
    name: body.name ?? body.filename,
    filename: body.filename,
    content_type: body.content_type ?? 'application/octet-stream',
    source: body.source ?? null,
    metadata: body.metadata ?? {},
    object_key: key,
    max_bytes: maxBytes,
    expires_at: new Date(Date.now() + ttl * 1000),
    created_by: ctx.caller.userId,
  });
  return {
    raw_data_id: id,
    uploads: [
      {
        filename: body.filename,
        signed_url: signed.url,
        token: signed.token,
        path: key,
        multipart,
        expires_at: signed.expiresAt.toISOString(),
      },
    ],
  };
}

export async function confirmUpload(
  ctx: RequestContext,
  id: string,
  body: ConfirmBody,
): Promise<{ created: boolean; record: Record<string, unknown> }> {
  const row = await repo.findRawData(ctx.em, id);
  if (!row) throw notFound('raw data upload', id);
  assertSameOrganization(ctx.caller, row.organization_id, 'raw data');
  await requireProjectPermission(ctx, row.project_id, 'cell_measurement:create');
  const issues: ValidationIssue[] = [];
  if (body.project_id !== row.project_id) {
    issues.push({
      loc: ['body', 'project_id'],
      msg: 'is not the project this upload was initiated for',
      type: 'value_error',
      input: body.project_id,
    });
  }
  if (body.filename !== row.filename) {
    issues.push({
      loc: ['body', 'filename'],
      msg: `must be the filename of initiate-upload: ${JSON.stringify(row.filename)}`,
      type: 'value_error',
      input: body.filename,
    });
  }
  if (issues.length) throw new ValidationFailed(issues);
  if (row.confirmed_at) return { created: false, record: serialize(await repo.record(ctx.em, id)) };

  const head = await ctx.storage.head(row.object_key);
  if (!head) {
    const expired = row.expires_at.getTime() < Date.now();
    throw conflict(
      `nothing was uploaded for ${row.filename}; PUT the bytes to the signed_url before confirming` +
        (expired ? ` (the upload target expired at ${row.expires_at.toISOString()}: initiate a new upload)` : ''),
      {
        missing: [{ filename: row.filename, path: row.object_key }],
        expired,
        expires_at: row.expires_at.toISOString(),
      },
    );
  }
  if (head.size > row.max_bytes) {
    // Scoped multipart credentials carry no size limit, so the limit is held here.
    await ctx.storage.delete(row.object_key);
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `${row.filename} is ${head.size} bytes, more than this upload target accepts (${row.max_bytes}); ` +
        `it was discarded`,
      {
        filename: row.filename,
        size: head.size,
        max_bytes: row.max_bytes,
        limit: row.max_bytes,
      },
    );
  }
  if (body.size_bytes !== undefined && body.size_bytes !== head.size) {
    throw new ValidationFailed([
      {
        loc: ['body', 'size_bytes'],
        msg: `the stored file is ${head.size} bytes`,
        type: 'value_error',
        input: body.size_bytes,
      },
    ]);
  }
  const created = await ctx.em.transactional(async (em) => {
    // Two confirms racing: the second waits here, then answers the confirmed record.
    const locked = await repo.findRawData(em, id, { forUpdate: true });
    // Expired and removed meanwhile (activities/uploads.ts): its object went with it.
    if (!locked) throw notFound('raw data upload', id);
    if (locked.confirmed_at) return false;
    await repo.confirm(em, id, {
      name: body.name,
      content_type: body.content_type,
      source: body.source,
      metadata: body.metadata,
      size_bytes: head.size,
    });
    await indexRawData(em, id);
    return true;
  });
  return { created, record: serialize(await repo.record(ctx.em, id)) };
}
