// The pool behind MikroORM loses a connection (the server restarts, a backend is terminated),
// idle or in use: the process goes on, and the next query opens a new connection. With no
// database to reach, the API answers 503 with Retry-After, not 500.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openOrm } from '../db/orm.ts';
import { freePort } from '../stack/processes.ts';
import { eventually, startApi, testConfig } from './harness.ts';

describe('database connection loss', () => {
  it('survives the server dropping an idle pooled connection', async () => {
    const orm = await openOrm(inject('databaseUrl'), { poolMax: 1 });
    const admin = await openOrm(inject('databaseUrl'), { poolMax: 1 });
    try {
      const [first] = await orm.em.fork().execute<{ pid: number }[]>(`select pg_backend_pid() as pid`);
      const pid = first!.pid;
      // The connection is idle in the pool now; the server ends it, as a restart does.
      await admin.em.fork().execute(`select pg_terminate_backend(?)`, [pid]);
      // Until the pool has heard of the loss, a query may still pick the dead connection.
      const [next] = await eventually(
        async () => orm.em.fork().execute<{ pid: number }[]>(`select pg_backend_pid() as pid`),
        { timeoutMs: 10_000, intervalMs: 100, what: 'a query on a new connection' },
      );
      expect(next!.pid).not.toBe(pid);
    } finally {
      await orm.close();
      await admin.close();
    }
  });

  it('survives losing a connection in use between two statements of a transaction, and frees its slot', async () => {
    // One connection: the query after the loss finds the pool's only slot free again.
    const orm = await openOrm(inject('databaseUrl'), { poolMax: 1 });
    try {
      const failed = await orm.em
        .fork()
        .transactional(async (em) => {
          const [row] = await em.execute<{ pid: number }[]>(`select pg_backend_pid() as pid`);
          // From a connection of its own: inside the transaction MikroORM would route it to this one.
          const killer = new pg.Client({ connectionString: inject('databaseUrl') });
          await killer.connect();
          await killer.query('select pg_terminate_backend($1)', [row!.pid]);
          await killer.end();
          // The loss reaches the checked-out client as an 'error' event before the next statement.
          await new Promise((r) => setTimeout(r, 500));
          await em.execute(`select 1`);
        })
        .then(
          () => null,
          (err: Error) => err,
        );
      expect(failed, 'the statement after the loss fails').toBeInstanceOf(Error);
      const [again] = await eventually(async () => orm.em.fork().execute<{ one: number }[]>(`select 1 as one`), {
        timeoutMs: 10_000,
        intervalMs: 100,
        what: 'a query on a new connection',
      });
      expect(again!.one).toBe(1);
    } finally {
      await orm.close();
    }
  });

  it('answers 503 with Retry-After, naming the database, while PostgreSQL cannot be reached', async () => {
    const url = new URL(inject('databaseUrl'));
    url.port = String(await freePort()); // nothing listens there
    const api = await startApi({ config: testConfig('fs', { DATABASE_URL: url.toString() }) });
    try {
      const res = await fetch(`${api.url}/projects`, {
        headers: { 'X-API-Key': `cellar_0123456789ab_${'k'.repeat(32)}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      const body = (await res.json()) as { error_code: string; message: string };
      expect(body.error_code).toBe('SERVICE_UNAVAILABLE');
      expect(body.message).toContain('database');
    } finally {
      await api.close();
    }
  });
});
