// Provisions the real parts every suite uses, once per run, on free local ports:
// PostgreSQL (a fresh database), the Temporal dev server and an S3-compatible server
// (versitygw). Tears them down afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../stack/postgres.ts';
import { startTemporalDevServer } from '../stack/temporal.ts';
import { startVersitygw } from '../stack/versitygw.ts';
import { freePort } from '../stack/processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { bundleWorkflows } from '../worker/worker.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    s3: { endpoint: string; accessKeyId: string; secretAccessKey: string };
    workflowBundlePath: string;
    runDir: string;
  }
}

export default async function setup(project: TestProject) {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-test-'));
  fs.chmodSync(runDir, 0o755); // PostgreSQL runs as its own OS user when we are root
  const log = fs.createWriteStream(path.join(runDir, 'servers.log'));
  const [pgPort, temporalPort, s3Port] = [await freePort(), await freePort(), await freePort()];
  const [pg, temporal, s3, bundle] = await Promise.all([
    startEmbeddedPostgres({
      dataDir: path.join(runDir, 'postgres'),
      port: pgPort,
      database: 'cellar_test',
      onLog: (l) => log.write(`[pg] ${l}\n`),
    }),
    startTemporalDevServer({ port: temporalPort, onLine: (l) => log.write(`[temporal] ${l}\n`) }),
    startVersitygw({
      port: s3Port,
      dataDir: path.join(runDir, 's3'),
      accessKeyId: 'cellar-test',
      secretAccessKey: 'cellar-test-secret-0123456789',
      onLine: (l) => log.write(`[s3] ${l}\n`),
    }),
    bundleWorkflows(),
  ]);
  const orm = await openOrm(pg.url, { poolMax: 2 });
  await migrate(orm);
  await orm.close();
  const workflowBundlePath = path.join(runDir, 'workflow-bundle.js');
  fs.writeFileSync(workflowBundlePath, bundle.code);

  project.provide('databaseUrl', pg.url);
  project.provide('temporalAddress', temporal.address);
  project.provide('s3', { endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('runDir', runDir);

  return async () => {
    await Promise.allSettled([temporal.stop(), s3.stop()]);
    await pg.stop();
    if (!process.env.CELLAR_KEEP_TEST_DATA) fs.rmSync(runDir, { recursive: true, force: true });
  };
}
