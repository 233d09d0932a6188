// The dev server as `npm start` runs it: state in a SQLite file, which keeps workflows across a
// restart and is written through a write-ahead log; search attributes read from its cache.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../stack/processes.ts';
import { persistenceRequests, startTemporalDevServer } from '../stack/temporal.ts';
import { CellarBatch } from '../workflows/searchAttributes.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-temporal-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function withServer<T>(
  opts: { dbFile?: string; metricsPort?: number },
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const server = await startTemporalDevServer({ port: await freePort(), ...opts });
  const connection = await Connection.connect({ address: server.address });
  try {
    return await use(new Client({ connection }));
  } finally {
    await connection.close();
    await server.stop();
  }
}

describe('Temporal dev server as Cellar starts it', () => {
  it('keeps a running workflow across a restart, in a write-ahead-logged file', async () => {
    const dbFile = path.join(dir, 'temporal.sqlite');
    const workflowId = 'kept-across-restart';
    await withServer({ dbFile }, async (client) => {
      // No worker polls this queue: the workflow stays running, with only its start recorded.
      await client.workflow.start('notRegistered', { taskQueue: 'nobody-polls', workflowId });
    });
    // Bytes 18 and 19 of a SQLite file are its write and read versions: 2 in WAL mode, 1 with a rollback journal.
    const header = fs.readFileSync(dbFile).subarray(0, 20);
    expect(header.subarray(0, 15).toString()).toBe('SQLite format 3');
    expect([header[18], header[19]]).toEqual([2, 2]);

    const status = await withServer(
      { dbFile },
      async (client) => (await client.workflow.getHandle(workflowId).describe()).status.name,
    );
    expect(status).toBe('RUNNING');
  });

  it('starts workflows with our search attributes without re-reading them from its database each time', async () => {
    const metricsPort = await freePort();
    await withServer({ metricsPort }, async (client) => {
      for (let i = 0; i < 20; i++) {
        await client.workflow.start('notRegistered', {
          taskQueue: 'nobody-polls',
          workflowId: `labelled-${i}`,
          typedSearchAttributes: [{ key: CellarBatch, value: 'batch-a' }],
        });
      }
      // The server publishes its counts about once a second; these include its own start-up.
      const counts = await vi.waitFor(
        async () => {
          const now = await persistenceRequests(metricsPort);
          if ((now.CreateWorkflowExecution ?? 0) < 20) throw new Error('the starts are not counted yet');
          return now;
        },
        { timeout: 10_000, interval: 250 },
      );
      // With the dev server's default (a re-read on every read) this was about 3 per start.
      expect(counts.GetCurrentClusterMetadata ?? 0).toBeLessThan(10);
      // The attribute still works: the Web UI's filter finds all of them.
      await expect
        .poll(
          async () => {
            let found = 0;
            for await (const _w of client.workflow.list({ query: `CellarBatch = 'batch-a'` })) found++;
            return found;
          },
          { timeout: 10_000 },
        )
        .toBe(20);
    });
  });
});
