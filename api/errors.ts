// The one error type of the service, and its mapping to HTTP in one central handler.
import type { ErrorRequestHandler } from 'express';
import { logger } from '../stack/logger.ts';
import { isTemporalUnavailable } from '../stack/temporalClient.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** An auto-schedule proposal no longer matches the plans or channels: nothing was applied. */
  SCHEDULE_STALE: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  USAGE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** One validation problem, in the interface document's form. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: unknown;
  constructor(code: ErrorCode, message: string, detail: unknown = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A 422 with the validation body; `issues` name the fields at fault. */
export class ValidationFailed extends AppError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super('VALIDATION_ERROR', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.issues = issues;
  }
}

export function invalid(
  loc: (string | number)[],
  msg: string,
  type = 'value_error',
  input?: unknown,
  ctx?: Record<string, unknown>,
): ValidationFailed {
  return new ValidationFailed([{ loc, msg, type, ...(input !== undefined ? { input } : {}), ...(ctx ? { ctx } : {}) }]);
}

export const notFound = (what: string, id?: string) =>
  new AppError('NOT_FOUND', id ? `${what} ${id} not found` : `${what} not found`, id ? { id } : {});
export const forbidden = (message: string, detail: unknown = {}) => new AppError('FORBIDDEN', message, detail);
export const conflict = (message: string, detail: unknown = {}) => new AppError('CONFLICT', message, detail);

interface OpenApiValidatorError {
  status: number;
  message: string;
  errors?: { path: string; message: string; errorCode?: string }[];
  headers?: Record<string, string>;
}

function isOpenApiValidatorError(err: unknown): err is OpenApiValidatorError {
  return (
    typeof err === 'object' && err !== null && 'status' in err && Array.isArray((err as { errors?: unknown }).errors)
  );
}

/**
 * A validator error's path as a loc. Schema errors give JSON pointers ('/body/parameters/Negative
 * electrode diffusivity [m2.s-1]', where keys may hold dots); parameter errors give '.query.name';
 * the validator names path params "params".
 */
function toLoc(path: string): (string | number)[] {
  const segments = path.startsWith('/')
    ? path
        .slice(1)
        .split('/')
        .map((seg) => seg.replaceAll('~1', '/').replaceAll('~0', '~'))
    : path.replace(/^\./, '').split('.');
  // An index is a number; a longer run of digits is a key (as a number it could be Infinity, null in JSON).
  return segments
    .filter(Boolean)
    .map((seg, i) => (i === 0 && seg === 'params' ? 'path' : /^\d{1,15}$/.test(seg) ? Number(seg) : seg));
}

function inputAt(req: Parameters<ErrorRequestHandler>[1], loc: (string | number)[]): unknown {
  const [where, ...rest] = loc;
  let cur: unknown =
    where === 'body'
      ? req.body
      : where === 'query'
        ? req.query
        : where === 'path'
          ? req.params
          : where === 'headers'
            ? req.headers
            : undefined;
  for (const k of rest) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

/** An issue's `input` is echoed when small: a megabyte refused at its field is not sent back (and serialized) again. */
const MAX_ECHOED_INPUT = 10_000;

/** Whether `value` as JSON would be longer than `budget` characters, walking no further than that. */
function largerThan(value: unknown, budget: number): boolean {
  let left = budget;
  const walk = (v: unknown): boolean => {
    if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        left -= k.length + 4;
        if (left < 0 || walk(item)) return true;
      }
      return (left -= 2) < 0;
    }
    left -= typeof v === 'string' ? v.length + 2 : 8;
    return left < 0;
  };
  return walk(value);
}

function echoed<T extends { input?: unknown }>(issue: T): T {
  if (issue.input === undefined || !largerThan(issue.input, MAX_ECHOED_INPUT)) return issue;
  const { input: _input, ...rest } = issue;
  return rest as T;
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  let status: number;
  let body: Record<string, unknown>;
  if (err instanceof ValidationFailed) {
    status = 422;
    body = { detail: err.issues.map(echoed) };
  } else if (err instanceof AppError) {
    status = err.status;
    body = { error_code: err.code, message: err.message, detail: err.detail ?? {} };
  } else if (isOpenApiValidatorError(err) && err.status === 400) {
    status = 422;
    body = {
      detail: err.errors!.map((e) => {
        const loc = toLoc(e.path);
        const input = inputAt(req, loc);
        return echoed({
          loc,
          msg: e.message,
          type: e.errorCode?.replace(/\.openapi\.validation$/, '') ?? 'value_error',
          ...(input !== undefined ? { input } : {}),
        });
      }),
    };
  } else if (isOpenApiValidatorError(err) && err.status === 404) {
    status = 404;
    body = { error_code: 'NOT_FOUND', message: `no route for ${req.method} ${req.path}`, detail: {} };
  } else if (isOpenApiValidatorError(err) && err.status === 405) {
    status = 405;
    // HTTP requires a 405 to say which methods the resource takes.
    const allow = err.headers?.Allow ?? '';
    if (allow) res.setHeader('Allow', allow);
    body = {
      error_code: 'METHOD_NOT_ALLOWED',
      message: `${req.method} is not allowed on ${req.path}${allow ? `; allowed: ${allow}` : ''}`,
      detail: { allowed: allow ? allow.split(', ') : [] },
    };
  } else if (isOpenApiValidatorError(err) && err.status === 415) {
    status = 415;
    body = { error_code: 'UNSUPPORTED_MEDIA_TYPE', message: err.message, detail: {} };
  } else if (err?.type === 'json.too_deep') {
    // Thrown by bodyLimits.jsonBody before the body is parsed.
    status = 422;
    body = {
      detail: [{ loc: ['body'], msg: String(err.message), type: 'json_too_deep', ctx: { max_depth: err.maxDepth } }],
    };
  } else if (err?.type === 'entity.too.large' || err?.status === 413) {
    status = 413;
    body = { error_code: 'PAYLOAD_TOO_LARGE', message: 'request body is too large', detail: { limit: err.limit } };
  } else if (err?.type === 'entity.parse.failed') {
    // Invalid input like any other (422), in the form the clients' validation errors take: the
    // character position where parsing failed, as FastAPI-style services answer `json_invalid`.
    status = 422;
    const position = /at position (\d+)/.exec(String(err.message))?.[1];
    body = {
      detail: [
        {
          loc: position === undefined ? ['body'] : ['body', Number(position)],
          msg: 'JSON decode error',
          type: 'json_invalid',
          ctx: { error: String(err.message) },
        },
      ],
    };
  } else if (err?.type === 'encoding.unsupported') {
    status = 415;
    body = { error_code: 'UNSUPPORTED_MEDIA_TYPE', message: err.message, detail: {} };
  } else if (isTemporalUnavailable(err)) {
    status = 503;
    logger.warn({ err: err.message, cause: err.cause?.message }, 'Temporal unavailable');
    body = {
      error_code: 'SERVICE_UNAVAILABLE',
      message: 'the workflow service (Temporal) is unavailable; nothing was changed, try again shortly',
      detail: {},
    };
  } else if (isDatabaseUnavailable(err)) {
    status = 503;
    logger.warn({ err: err.message }, 'database unavailable');
    body = {
      error_code: 'SERVICE_UNAVAILABLE',
      message: 'the database is unavailable; try again shortly',
      detail: {},
    };
  } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
    status = err.status;
    body = { error_code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', message: String(err.message), detail: {} };
  } else {
    status = 500;
    logger.error({ err }, 'unhandled error');
    body = {
      error_code: 'INTERNAL_ERROR',
      message: 'internal error; quote the x-correlation-id when reporting it',
      detail: {},
    };
  }
  if (status === 503) res.setHeader('Retry-After', '5');
  res.status(status).json(body);
};
