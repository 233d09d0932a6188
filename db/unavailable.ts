// Whether an error says the database cannot be reached right now (down, restarting, the
// connection cut), rather than that a statement failed: the API answers those 503 with
// Retry-After, as it does when Temporal is down, and clients retry. Only errors of the database
// driver count: a storage call's ECONNRESET is not the database's.
import { DriverException } from '@mikro-orm/core';
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now (starting up, in recovery).
  '57P01',
  '57P02',
  '57P03',
  // connection_exception and its kinds.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
// What pg says without a code when the server goes away mid-connection.
const MESSAGES = /^(Connection terminated|Client has encountered a connection error|connect ECONNREFUSED)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof DriverException)) return false;
  let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if (typeof e.code === 'string' && CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}
