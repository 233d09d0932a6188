// The stack a benchmark measures through: embedded PostgreSQL and Temporal dev server in a
// temporary folder, the API on a real port, the TypeScript worker, an organization with a key,
// and the Python worker on demand. Everything stops with stop().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { connectWorker } from '../worker/temporalConnection.ts';
import { loadConfig, ROOT, type Config } from '../stack/config.ts';
import { startEmbeddedPostgres } from '../stack/postgres.ts';
import { persistenceRequests, startTemporalDevServer } from '../stack/temporal.ts';
import { descendants, freePort, processTable, startProcess, type ManagedProcess } from '../stack/processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { bootstrap } from '../api/services/bootstrap.ts';
import { createApp, warmValidatorsOf } from '../api/app.ts';
import { createApiServer } from '../api/httpServer.ts';
import { temporalClient } from '../stack/temporalClient.ts';
import { FsStorage } from '../storage/fsStorage.ts';
import { createWorker } from '../worker/worker.ts';

export const PYTHON = path.join(ROOT, '.tools', 'venv', 'bin', 'python');

/**
 * `temporalStore`: 'memory' (as the tests run the dev server) or 'file' (its SQLite file, as
 * `npm start` keeps it).
 */
export async function startBenchStack(
  name: string,
  env: Record<string, string> = {},
  temporalStore: 'memory' | 'file' = 'memory',
) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `cellar-${name}-bench-`));
  fs.chmodSync(tmp, 0o755); // PostgreSQL runs as its own OS user when we are root
  const log = fs.createWriteStream(path.join(tmp, 'servers.log'));
  const metricsPort = await freePort();
  const [pg, temporal] = await Promise.all([
    startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: await freePort(), database: 'bench' }),
    freePort().then((port) =>
      startTemporalDevServer({
        port,
        metricsPort,
        ...(temporalStore === 'file' ? { dbFile: path.join(tmp, 'temporal.sqlite') } : {}),
        onLine: (l) => log.write(`${l}\n`),
      }),
    ),
  ]);
  const config: Config = loadConfig({
    DATABASE_URL: pg.url,
    TEMPORAL_ADDRESS: temporal.address,
    DATA_DIR: tmp,
    STORAGE_DIR: path.join(tmp, 'storage'),
    LOG_LEVEL: 'silent',
    TASK_QUEUE: 'bench',
    SIMULATION_TASK_QUEUE: 'bench-sim',
    MEASUREMENT_TASK_QUEUE: 'bench-meas',
    ...env,
  });
  const orm = await openOrm(pg.url, { poolMax: 10 });
  await migrate(orm);
  const client = temporalClient(config);
  const storageDir = (config.storage as { dir: string }).dir;
  const storage = new FsStorage({
    root: storageDir,
    secret: 'bench-signing-secret-0123456789abcdef',
    publicUrl: config.publicUrl,
  });
  const app = createApp({ config, orm, temporal: client, storage });
  // As api/main.ts does: the validators are built before the server listens.
  const validatorWarmup = await warmValidatorsOf(app);
  const server = createApiServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const connection = await connectWorker(temporal.address);
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    deps: { config, orm, storage, temporal: client },
  });
  const workerRun = worker.run();
  const { api_key: key } = await bootstrap(orm.em.fork(), 'Bench lab', 'bench@lab.test');
  const pythons = new Set<ManagedProcess>();
  // A benchmark that fails still stops the servers it started: they would outlive it otherwise.
  let failed = false;
  const onUncaught = (err: Error) => {
    if (failed) return; // connections to the servers being stopped fail too
    failed = true;
    console.error(err);
    console.error(`the servers' log is kept in ${path.join(tmp, 'servers.log')}`);
    void Promise.allSettled([...[...pythons].map((p) => p.stop()), temporal.stop(), pg.stop()]).finally(() =>
      process.exit(1),
    );
  };
  process.on('uncaughtException', onUncaught);

  return {
    tmp,
    log,
    pg,
    temporal,
    config,
    orm,
    client,
    storage,
    server,
    url,
    worker,
    key,
    validatorWarmup,
    /** The Python worker on the bench's queues; extra env such as SIMULATION_CONCURRENCY. */
    startPython(extra: Record<string, string> = {}): ManagedProcess {
      const proc = startProcess(PYTHON, ['-m', 'cellar_worker.main'], {
        cwd: path.join(ROOT, 'pyworker'),
        env: {
          ...process.env,
          DATABASE_URL: pg.url,
          TEMPORAL_ADDRESS: temporal.address,
          SIMULATION_TASK_QUEUE: config.simulationTaskQueue,
          MEASUREMENT_TASK_QUEUE: config.measurementTaskQueue,
          STORAGE_DRIVER: 'fs',
          STORAGE_DIR: storageDir,
          PYBAMM_DISABLE_TELEMETRY: 'true',
          LOG_LEVEL: 'warn',
          ...extra,
        },
        onLine: (l) => log.write(`[py] ${l}\n`),
      });
      pythons.add(proc);
      return proc;
    },
    /** The Temporal server's persistence requests so far, by operation; it publishes them about once a second. */
    async temporalPersistenceRequests(): Promise<Record<string, number>> {
      await new Promise((r) => setTimeout(r, 1500));
      return persistenceRequests(metricsPort);
    },
    async stop(): Promise<void> {
      process.off('uncaughtException', onUncaught); // a later stack of the same benchmark handles its own
      await Promise.all([...pythons].map((p) => p.stop()));
      worker.shutdown();
      await workerRun;
      await connection.close();
      server.closeAllConnections();
      server.close();
      await (app.locals.stop as () => Promise<void>)();
      await orm.close();
      await client.connection.close();
      await temporal.stop();
      await pg.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/**
 * CPU seconds used so far by this process ('node': API, TypeScript worker and the benchmark)
 * and by its descendants grouped by program ('temporal', 'postgres', 'python', ...), each
 * including the children it has reaped.
 */
export function cpuSeconds(): Record<string, number> {
  const table = processTable();
  const usage = process.cpuUsage();
  const totals: Record<string, number> = { node: (usage.user + usage.system) / 1e6 };
  for (const pid of descendants(process.pid, table)) {
    const { comm, cpuSeconds: cpu } = table.get(pid)!;
    const name = comm.startsWith('python') ? 'python' : comm;
    totals[name] = (totals[name] ?? 0) + cpu;
  }
  return totals;
}
