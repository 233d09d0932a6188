// JSON logs (pino). Every line carries the request's correlation id; secrets never appear.
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino } from 'pino';
import { LOG_LEVELS } from './config.ts';

export const requestContext = new AsyncLocalStorage<{ correlationId: string }>();

/**
 * LOG_LEVEL as pino takes it. This module is imported before loadConfig runs, and pino throws on
 * an unknown level: a bad or empty value falls back to info here so that loadConfig can stop the
 * process with a message naming the variable.
 */
function level(raw: string | undefined): string {
  return raw !== undefined && LOG_LEVELS.includes(raw) ? raw : 'info';
}

export const logger = pino({
  level: level(process.env.LOG_LEVEL),
  base: { service: process.env.CELLAR_PROCESS ?? 'cellar' },
  mixin() {
    const ctx = requestContext.getStore();
    return ctx ? { correlation_id: ctx.correlationId } : {};
  },
  // Defence in depth: nothing should log these, but if an object carrying them is logged
  // by mistake the values are censored.
  redact: {
    paths: [
      'api_key',
      '*.api_key',
      'secret',
      '*.secret',
      'secret_access_key',
      '*.secret_access_key',
      'secretAccessKey',
      '*.secretAccessKey',
      'password',
      '*.password',
      'headers["x-api-key"]',
      'headers.authorization',
      '*.headers["x-api-key"]',
      '*.headers.authorization',
      'session_token',
      '*.session_token',
    ],
    censor: '[redacted]',
  },
});
