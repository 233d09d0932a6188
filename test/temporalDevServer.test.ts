// The dev server as `npm start` runs it: state in a SQLite file, which keeps workflows across a
// restart and is written through a write-ahead log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../stack/processes.ts';
import { startTemporalDevServer } from '../stack/temporal.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-temporal-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function withServer<T>(dbFile: string, use: (client: Client) => Promise<T>): Promise<T> {
  const server = await startTemporalDevServer({ port: await freePort(), dbFile });
  const connection = await Connection.connect({ address: server.address });
  try {
    return await use(new Client({ connection }));
  } finally {
    await connection.close();
    await server.stop();
  }
}

describe('Temporal dev server with a SQLite file', () => {
  it('keeps a running workflow across a restart, in a write-ahead-logged file', async () => {
    const dbFile = path.join(dir, 'temporal.sqlite');
    const workflowId = 'kept-across-restart';
    await withServer(dbFile, async (client) => {
      // No worker polls this queue: the workflow stays running, with only its start recorded.
      await client.workflow.start('notRegistered', { taskQueue: 'nobody-polls', workflowId });
    });
    // Bytes 18 and 19 of a SQLite file are its write and read versions: 2 in WAL mode, 1 with a rollback journal.
    const header = fs.readFileSync(dbFile).subarray(0, 20);
    expect(header.subarray(0, 15).toString()).toBe('SQLite format 3');
    expect([header[18], header[19]]).toEqual([2, 2]);

    const status = await withServer(dbFile, async (client) => (await client.workflow.getHandle(workflowId).describe()).status.name);
    expect(status).toBe('RUNNING');
  });
});
