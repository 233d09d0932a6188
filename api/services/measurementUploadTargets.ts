// Upload targets of measurement data: signed PUT URLs (and scoped multipart credentials when
// they can be minted), the file names a file measurement may use, and sealing what arrived.
import type { Services } from '../context.ts';
import { AppError, conflict, invalid, type ValidationIssue, ValidationFailed } from '../errors.ts';
import type * as repo from '../../db/repositories/measurementData.ts';
import { logger } from '../../stack/logger.ts';

export async function uploadInfo(ctx: Services, target: repo.UploadTarget, ttl: number) {
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

export function checkFilenames(filenames: string[] | undefined): string[] {
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

/**
 * 409 naming the `required` targets with no object yet. Then every uploaded target is sealed:
 * copied to its sealed_path, which no upload credential names, so what is confirmed cannot be
 * rewritten through a signed URL or scoped credential still valid. The size limit is held on
 * the copy (413, both removed), on every path, multipart included (scoped credentials carry no
 * size limit).
 */
export async function sealUploads(ctx: Services, session: repo.UploadSessionRow, required: repo.UploadTarget[]) {
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
