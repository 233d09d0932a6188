// The pool behind MikroORM loses an idle connection (the server restarts, a backend is
// terminated): the process goes on, and the next query opens a new connection.
import { describe, expect, inject, it } from 'vitest';
import { openOrm } from '../db/orm.ts';
import { eventually } from './harness.ts';

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
});
