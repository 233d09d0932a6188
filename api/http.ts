// HTTP conventions shared by every route: correlation ids, the exact JSON content type,
// request logs without secrets.
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { logger, requestContext } from './logger.ts';

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
    return this.send(Buffer.from(JSON.stringify(body ?? {})));
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
