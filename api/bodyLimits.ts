// Bounds on what one request body may cost: JSON nesting depth (checked on the raw bytes, before
// anything walks the parsed value recursively), a smaller body limit for the protocol operations,
// and a cap on the bytes a compressed body inflates to.
import { Transform, type TransformCallback } from 'node:stream';
import express, { type RequestHandler } from 'express';
import { AppError, invalid } from './errors.ts';

/** Deeper JSON than any operation takes; deeper nesting overflowed recursive walkers (a 500). */
export const MAX_JSON_DEPTH = 64;
/** Protocol text is small; the parsers of /protocols/* are tested at this size. */
export const PROTOCOL_BODY_LIMIT = 1024 * 1024;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of objects and arrays in JSON text, in one pass over its bytes (strings
 * skipped). Stops counting once `stopAt` is passed. UTF-8 multi-byte sequences hold no ASCII
 * bytes, so scanning bytes is exact.
 */
export function jsonDepth(text: Uint8Array | string, stopAt = MAX_JSON_DEPTH): number {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}

export function tooDeep(loc: (string | number)[]) {
  return invalid(loc, `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, 'json_too_deep', undefined, {
    max_depth: MAX_JSON_DEPTH,
  });
}

/**
 * express.json for the whole API: inflates gzip, deflate and br with the limit applied to the
 * inflated bytes as they stream (413 as soon as it is passed), and refuses a body nested too
 * deeply before it is parsed (errors.ts answers the error thrown here: body-parser passes a
 * verify error on with the status and type it carries).
 */
export function jsonBody(limit: number): RequestHandler {
  return express.json({
    limit,
    inflate: true,
    // Not strict: a body of valid JSON that is not an object (`null`, `5`) reaches the validator
    // and gets its 422 at `body`, not a 400 calling it malformed.
    strict: false,
    type: ['application/json', 'application/*+json'],
    verify: (_req, _res, buf) => {
      if (jsonDepth(buf) > MAX_JSON_DEPTH) {
        throw Object.assign(new Error(tooDeep(['body']).issues[0]!.msg), {
          status: 422,
          type: 'json.too_deep',
          maxDepth: MAX_JSON_DEPTH,
        });
      }
    },
  });
}

export function payloadTooLarge(limit: number, what = 'request body') {
  return new AppError('PAYLOAD_TOO_LARGE', `the ${what} is larger than ${limit} bytes`, { limit });
}

/** Passes bytes through until `limit` of them have gone by, then fails with 413. */
export function byteCap(limit: number, what?: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) done(payloadTooLarge(limit, what));
      else done(null, chunk);
    },
  });
}
