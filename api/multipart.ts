// Multipart bodies of the operations that take files, read as a stream with limits on parts,
// fields, field size and file size, counted after decompression, so that no upload can hold
// more than the configured body limit in memory. An operation may check who is asking once the
// fields before the first file are read, before any file byte is accepted.
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request, RequestHandler } from 'express';
import { byteCap, jsonDepth, MAX_JSON_DEPTH, payloadTooLarge, tooDeep } from './bodyLimits.ts';
import { AppError, invalid } from './errors.ts';
import { inflaterFor } from './http.ts';

/** What reaches the services, as multer's memory storage gave it. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/** Called once, before the first file part is read, with the fields sent before it. */
export type FileGate = (req: Request, fields: Record<string, string>) => Promise<void>;

export const MULTIPART_LIMITS = { parts: 24, fields: 20, files: 4, fieldNameSize: 200, fieldSize: 1024 * 1024 };

/**
 * `operations`: 'POST /path' → its gate (or null); a `{name}` segment matches one path segment.
 * Other requests pass through untouched.
 */
export function multipartBodies(bodyLimit: number, operations: Record<string, FileGate | null>): RequestHandler {
  const matchers = Object.entries(operations).map(([op, gate]) => ({
    pattern: new RegExp(`^${op.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`),
    gate,
  }));
  return (req, _res, next) => {
    const operation = `${req.method} ${req.path}`;
    const match = matchers.find((m) => m.pattern.test(operation));
    if (!match || !req.is('multipart/form-data')) return next();
    readMultipart(req, bodyLimit, match.gate).then(({ fields, files }) => {
      // The validator checks `file` (format: binary) as a body property, as multer's files were marked.
      for (const f of files) define(fields, f.fieldname, '');
      req.body = fields;
      req.files = files as never;
      next();
    }, next);
  };
}

/** An own property even for names such as "__proto__", which must never reach the prototype. */
function define(obj: Record<string, string>, key: string, value: string) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function readMultipart(
  req: Request,
  bodyLimit: number,
  gate: FileGate | null,
): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  return new Promise((resolve, reject) => {
    const inflater = inflaterFor(req.header('content-encoding'));
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { ...MULTIPART_LIMITS, fileSize: bodyLimit },
      });
    } catch (err) {
      reject(invalid(['body'], `is not a multipart/form-data body: ${(err as Error).message}`, 'multipart'));
      return;
    }
    const cap = byteCap(bodyLimit);
    const source: Readable = inflater ? req.pipe(inflater) : req;
    source.pipe(cap).pipe(parser);

    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    let settled = false;
    let gated: Promise<void> | undefined;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe(cap);
      cap.unpipe(parser);
      if (inflater) {
        req.unpipe(inflater);
        inflater.destroy();
      }
      // The rest of the body is read and dropped, never kept.
      req.resume();
      reject(err);
    };

    inflater?.on('error', (err) =>
      fail(invalid(['body'], `the compressed body could not be inflated (${err.message})`, 'multipart')),
    );
    cap.on('error', fail);
    req.on('error', fail);
    parser.on('error', (err) =>
      fail(invalid(['body'], `is not a valid multipart/form-data body: ${err.message}`, 'multipart')),
    );
    for (const limit of ['parts', 'files', 'fields'] as const) {
      parser.on(`${limit}Limit`, () =>
        fail(
          new AppError('PAYLOAD_TOO_LARGE', `a multipart body may hold at most ${MULTIPART_LIMITS[limit]} ${limit}`, {
            limit: MULTIPART_LIMITS[limit],
            of: limit,
          }),
        ),
      );
    }
    parser.on('field', (given, value, info) => {
      // busboy gives no name for name="": it is named '' (a loc item of undefined would be null in JSON).
      const name = given ?? '';
      if (info.nameTruncated)
        return fail(
          invalid(['body'], `a field name is longer than ${MULTIPART_LIMITS.fieldNameSize} bytes`, 'string_too_long'),
        );
      if (info.valueTruncated)
        return fail(
          invalid(['body', name], `is longer than ${MULTIPART_LIMITS.fieldSize} bytes`, 'string_too_long', undefined, {
            max_length: MULTIPART_LIMITS.fieldSize,
          }),
        );
      if (Object.hasOwn(fields, name)) return fail(invalid(['body', name], 'is given more than once', 'value_error'));
      if (jsonDepth(value) > MAX_JSON_DEPTH) return fail(tooDeep(['body', name]));
      define(fields, name, value);
    });
    parser.on('file', (given, stream, info) => {
      const name = given ?? '';
      gated ??= gate ? gate(req, { ...fields }) : Promise.resolve();
      stream.on('limit', () => fail(payloadTooLarge(bodyLimit, `file "${name}"`)));
      // Not one byte of the file is read before the gate has let the caller in.
      gated.then(() => {
        if (settled) return void stream.resume();
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          chunks.push(chunk);
        });
        stream.on('end', () => {
          if (!settled && !stream.truncated)
            files.push({
              fieldname: name,
              originalname: info.filename ?? '',
              mimetype: info.mimeType,
              size,
              buffer: Buffer.concat(chunks, size),
            });
        });
      }, fail);
    });
    parser.on('close', () => {
      if (settled) return;
      // The gate runs even when the caller sent no file (its answer then comes first).
      (gated ?? Promise.resolve()).then(() => {
        if (settled) return;
        settled = true;
        resolve({ fields, files });
      }, fail);
    });
  });
}
