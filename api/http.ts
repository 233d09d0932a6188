// HTTP conventions shared by every route: correlation ids, the exact JSON content type,
// request logs without secrets, the inflaters of compressed bodies.
import { randomUUID } from 'node:crypto';
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { RequestHandler, Response } from 'express';
import { AppError, invalid } from './errors.ts';
import { stringifyJson } from './jsonFloats.ts';
import { logger, requestContext } from '../stack/logger.ts';
import { isPlainObject, UUID } from './values.ts';

const CORRELATION_HEADER = 'x-correlation-id';
const SAFE_CORRELATION = /^[\w.:-]{1,128}$/;

/** Echoes the caller's correlation id (when sane) or makes one, and scopes logs to it. */
export const correlation: RequestHandler = (req, res, next) => {
  const given = req.header(CORRELATION_HEADER);
  const correlationId = given && SAFE_CORRELATION.test(given) ? given : randomUUID();
  res.setHeader(CORRELATION_HEADER, correlationId);
  requestContext.run({ correlationId }, () => next());
};

/**
 * Clients compare Content-Type to exactly "application/json", so JSON is sent as a Buffer
 * (Express would append "; charset=utf-8" to a string body).
 */
export const exactJson: RequestHandler = (_req, res, next) => {
  res.json = function json(this: Response, body: unknown) {
    this.setHeader('Content-Type', 'application/json');
    return this.send(Buffer.from(stringifyJson(body ?? {})));
  };
  next();
};

export const requestLog: RequestHandler = (req, res, next) => {
  const start = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const line = { method: req.method, path: req.path, status: res.statusCode, duration_ms: Math.round(ms * 10) / 10 };
    if (res.statusCode >= 500) logger.error(line, 'request');
    else logger.debug(line, 'request');
  });
  next();
};

const INFLATERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The stream that inflates a body sent with this Content-Encoding; null when it is not compressed, 415 when we
 * cannot.
 */
export function inflaterFor(contentEncoding: string | undefined): Transform | null {
  const encoding = contentEncoding?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return null;
  const inflater = INFLATERS[encoding];
  if (!inflater)
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Encoding ${encoding} is not supported; send gzip, deflate or br`,
      { content_encoding: encoding },
    );
  return inflater();
}

/**
 * A request with no body at all (no Content-Length, not chunked: `curl -X PATCH` without `-d`)
 * is read as the empty JSON object it is with `Content-Length: 0`, so that both get the same
 * answer (an empty PATCH changes nothing; a POST names its missing fields), never a route that
 * finds no body to read.
 */
export const absentBodyAsEmpty: RequestHandler = (req, _res, next) => {
  if (
    req.body === undefined &&
    req.headers['content-length'] === undefined &&
    req.headers['transfer-encoding'] === undefined
  )
    req.body = {};
  next();
};

const UUIDS = new RegExp(UUID.source.slice(1, -1), 'gi');
const ID_KEY = /(^|_)ids?$/;

/**
 * Ids are the lower-case UUIDs PostgreSQL answers; an upper-case spelling is the same id. The
 * URL (path and query) and the id fields of a JSON body (`id`, `*_id`, `*_ids`) are made
 * lower-case here, so every comparison of ids in the services holds whatever the client sent.
 */
export const canonicalIds: RequestHandler = (req, _res, next) => {
  const lower = req.url.replace(UUIDS, (id) => id.toLowerCase());
  if (lower !== req.url) req.url = lower;
  if (req.body && typeof req.body === 'object') lowerIdFields(req.body as Record<string, unknown>);
  next();
};

function lowerIdFields(obj: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(obj)) {
    if (ID_KEY.test(key)) {
      if (typeof value === 'string' && UUID.test(value)) obj[key] = value.toLowerCase();
      else if (Array.isArray(value))
        obj[key] = value.map((v) => (typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : v));
    } else if (isPlainObject(value)) {
      lowerIdFields(value);
    }
  }
}

/**
 * Text PostgreSQL cannot store as sent is refused at its field, in a JSON body or the query:
 * U+0000 (it failed as a 500 at the database) and a lone UTF-16 surrogate (it was stored as
 * U+FFFD, silently changed).
 */
export const refuseUnstorableText: RequestHandler = (req, _res, next) => {
  const found = unstorableAt(req.body, ['body']) ?? unstorableAt(req.query, ['query']);
  next(found ? invalid(found.loc, found.msg, 'string_unicode', found.input) : undefined);
};

function problemOf(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (!text.isWellFormed()) return 'must be valid Unicode: it holds a lone UTF-16 surrogate (\\ud800-\\udfff)';
  return undefined;
}

/** `loc` is one path, extended and restored while walking: a body of many numbers allocates nothing for them. */
function unstorableAt(
  value: unknown,
  loc: (string | number)[],
): { loc: (string | number)[]; msg: string; input: string } | undefined {
  if (typeof value === 'string') {
    const msg = problemOf(value);
    return msg ? { loc: [...loc], msg, input: value.toWellFormed().replaceAll('\u0000', '') } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string' && (item === null || typeof item !== 'object')) continue;
      loc.push(i);
      const found = unstorableAt(item, loc);
      loc.pop();
      if (found) return found;
    }
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      const msg = problemOf(key);
      if (msg) return { loc: [...loc, key], msg, input: key.toWellFormed().replaceAll('\u0000', '') };
      loc.push(key);
      const found = unstorableAt(value[key], loc);
      loc.pop();
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Sends a stored object's stream as the answer. A client that goes away mid-download destroys
 * the source too (with `pipe` it stayed open: a file descriptor or an S3 socket per abort).
 */
export function sendStream(res: Response, source: Readable): void {
  pipeline(source, res, (err) => {
    if (err && !res.destroyed) res.destroy(err);
  });
}
