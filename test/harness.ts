// Helpers for suites: the real API on a real port, workers on their own task queues, and
// organizations with keys. Everything talks to the servers started by globalSetup.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, inject } from 'vitest';
import { Runtime, DefaultLogger, type NativeConnection, type Worker } from '@temporalio/worker';
import { loadConfig, ROOT, type Config } from '../stack/config.ts';
import { openOrm, type Orm } from '../db/orm.ts';
import { createApp, warmValidatorsOf } from '../api/app.ts';
import { createApiServer } from '../api/httpServer.ts';
import { temporalClient } from '../stack/temporalClient.ts';
import { FsStorage } from '../storage/fsStorage.ts';
import { S3Storage } from '../storage/s3Storage.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import { bootstrap, type IssuedKey } from '../api/services/bootstrap.ts';
import { createWorker } from '../worker/worker.ts';
import { connectWorker } from '../worker/temporalConnection.ts';
import { descendants, startProcess, type ManagedProcess } from '../stack/processes.ts';
import { runStartDispatcher } from '../db/workflowStarts.ts';

let runtimeInstalled = false;
function quietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // already installed in this process
  }
}

export type StorageKind = 'fs' | 's3';

/** A Config for tests: the global servers, a unique task queue set, and the chosen storage. */
export function testConfig(storage: StorageKind = 'fs', overrides: Record<string, string> = {}): Config {
  const id = randomUUID().slice(0, 8);
  const s3 = inject('s3');
  const env: Record<string, string> = {
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    DATA_DIR: path.join(inject('runDir'), `data-${id}`),
    TASK_QUEUE: `cellar-test-${id}`,
    SIMULATION_TASK_QUEUE: `cellar-test-sim-${id}`,
    MEASUREMENT_TASK_QUEUE: `cellar-test-meas-${id}`,
    LOG_LEVEL: 'silent',
    ...(storage === 's3'
      ? {
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: `cellar-${id}`,
          S3_ACCESS_KEY_ID: s3.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        }
      : {}),
    ...overrides,
  };
  return loadConfig(env);
}

export async function makeStorage(config: Config): Promise<ObjectStorage> {
  if (config.storage.driver === 's3') {
    const s = new S3Storage(config.storage.s3);
    await s.ensureBucket();
    return s;
  }
  return new FsStorage({
    root: config.storage.dir,
    secret: 'test-signing-secret-0123456789abcdef',
    publicUrl: config.publicUrl,
  });
}

export interface TestApi {
  url: string;
  config: Config;
  orm: Orm;
  storage: ObjectStorage;
  temporal: ReturnType<typeof temporalClient>;
  close(): Promise<void>;
}

/** The real Express app on an ephemeral port, validating responses against openapi.yaml too. */
export async function startApi(
  opts: { storage?: StorageKind; config?: Config; validateResponses?: boolean; warmValidators?: boolean } = {},
): Promise<TestApi> {
  // Bind first: signed URLs must point at this server, whose port is known only once it listens.
  const server: Server = createApiServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = { ...(opts.config ?? testConfig(opts.storage ?? 'fs')), publicUrl: url };
  const orm = await openOrm(config.databaseUrl!, { poolMax: 5 });
  const temporal = temporalClient(config);
  const storage = await makeStorage(config);
  const app = createApp({ config, orm, temporal, storage, validateResponses: opts.validateResponses ?? true });
  // As the API process does; the other suites skip it (seconds of CPU per suite).
  if (opts.warmValidators) await warmValidatorsOf(app);
  server.on('request', app);
  return {
    url,
    config,
    orm,
    storage,
    temporal,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await (app.locals.stop as () => Promise<void>)();
      await orm.close();
      await temporal.connection.close();
    },
  };
}

/** A fresh organization with an owner and an API key. */
export async function newOrg(
  orm: Orm,
  name = `Org ${randomUUID().slice(0, 8)}`,
): Promise<IssuedKey & { email: string; org: string }> {
  const email = `${randomUUID().slice(0, 8)}@example.test`;
  const issued = await bootstrap(orm.em.fork(), name, email);
  return { ...issued, email, org: name };
}

/** Another user in an existing organization, as a plain member (no project roles yet). */
export async function newMember(
  orm: Orm,
  organizationId: string,
): Promise<{ user_id: string; api_key: string; email: string }> {
  const em = orm.em.fork();
  const [org] = await em.execute<{ name: string }[]>(`select name from organizations where id = ?`, [organizationId]);
  const email = `${randomUUID().slice(0, 8)}@example.test`;
  const issued = await bootstrap(em, org!.name, email);
  await em.execute(`update memberships set role = 'member' where organization_id = ? and user_id = ?`, [
    organizationId,
    issued.user_id,
  ]);
  return { user_id: issued.user_id, api_key: issued.api_key, email };
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A small client with the headers real clients send (JSON content type even on GET). */
export function client(baseUrl: string, key?: string, extraHeaders: Record<string, string> = {}) {
  const call = async <T = any>(
    method: string,
    p: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> => {
    const res = await fetch(baseUrl + p, {
      method,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(key ? { 'X-API-Key': key } : {}),
        ...extraHeaders,
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : typeof body === 'string' || body instanceof Uint8Array
            ? (body as string | Uint8Array<ArrayBuffer>)
            : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the caller looks at .text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return {
    get: <T = any>(p: string, h?: Record<string, string>) => call<T>('GET', p, undefined, h),
    delete: <T = any>(p: string, h?: Record<string, string>) => call<T>('DELETE', p, undefined, h),
    post: <T = any>(p: string, b?: unknown, h?: Record<string, string>) => call<T>('POST', p, b ?? {}, h),
    patch: <T = any>(p: string, b?: unknown, h?: Record<string, string>) => call<T>('PATCH', p, b ?? {}, h),
    put: <T = any>(p: string, b?: unknown, h?: Record<string, string>) => call<T>('PUT', p, b, h),
    call,
  };
}

/** The TypeScript worker on this config's task queue, using the bundle made by globalSetup. */
export async function startWorker(
  api: Pick<TestApi, 'config' | 'storage' | 'orm' | 'temporal'>,
): Promise<{ worker: Worker; connection: NativeConnection; run: Promise<void>; stop(): Promise<void> }> {
  quietRuntime();
  const { config } = api;
  const connection = await connectWorker(config.temporalAddress!);
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    deps: { storage: api.storage, orm: api.orm, config, temporal: api.temporal },
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const run = worker.run();
  return {
    worker,
    connection,
    run,
    async stop() {
      worker.shutdown();
      await run;
      await connection.close();
    },
  };
}

/** The Python worker (PyBaMM simulations, measurement processing) on this config's queues. */
export function startPythonWorker(config: Config): ManagedProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_ADDRESS: config.temporalAddress,
    TEMPORAL_NAMESPACE: config.temporalNamespace,
    DATABASE_URL: config.databaseUrl,
    SIMULATION_TASK_QUEUE: config.simulationTaskQueue,
    MEASUREMENT_TASK_QUEUE: config.measurementTaskQueue,
    PYBAMM_DISABLE_TELEMETRY: 'true',
    // Suites run side by side on few cores: no worker builds SPMe at start unless a suite asks
    // (the warm-up has its own pytest suite).
    FIT_WARM_UP_MODELS: process.env.FIT_WARM_UP_MODELS ?? '',
  };
  if (config.storage.driver === 'fs') {
    Object.assign(env, { STORAGE_DRIVER: 'fs', STORAGE_DIR: config.storage.dir });
  } else {
    const s3 = config.storage.s3;
    Object.assign(env, {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
  }
  const logFile = fs.createWriteStream(path.join(inject('runDir'), `pyworker-${config.taskQueue}.log`));
  return startProcess(path.join(ROOT, '.tools', 'venv', 'bin', 'python'), ['-m', 'cellar_worker.main'], {
    cwd: path.join(ROOT, 'pyworker'),
    env,
    onLine: (line) => logFile.write(`${line}\n`),
  });
}

/** SIGKILL to the Python worker and its solver processes at once, as when its machine dies. */
export function killPythonWorker(python: ManagedProcess): void {
  const pid = python.child.pid!;
  for (const child of descendants(pid)) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  python.child.kill('SIGKILL');
}

/** Polls `fn` until it returns a truthy value or the time runs out. */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
  }
  throw new Error(`timed out waiting for ${opts.what ?? 'condition'}${last ? `: ${String(last)}` : ''}`);
}

/** The batch a simulation belongs to. */
export async function batchOf(orm: Orm, simulationId: string): Promise<string> {
  const [row] = await orm.em
    .fork()
    .execute<{ batch_id: string }[]>(`select batch_id from simulations where id = ?`, [simulationId]);
  return row!.batch_id;
}

/** Polls a job until it has ended; answers it as GET /jobs/{id} does. */
export async function jobFinished(c: ReturnType<typeof client>, jobId: string, timeoutMs = 90_000) {
  return eventually(
    async () => {
      const job = (await c.get(`/jobs/${jobId}`)).body;
      return job.is_terminal ? job : undefined;
    },
    { timeoutMs, intervalMs: 300, what: `job ${jobId} to end` },
  );
}

export interface StackOptions {
  config?: Config;
  python?: boolean;
  /**
   * The workflow start dispatcher, as the worker process runs it (default on): on a loaded host a
   * request may give up on its own start, and the dispatcher makes it. Scoped to this stack's
   * queues, since suites share one database. Off for suites that drive dispatching themselves.
   */
  dispatcher?: boolean;
}

/** One suite's services: the API, its TypeScript worker and, when asked, the Python worker. */
export async function startStack(opts: StackOptions = {}) {
  const api = await startApi(opts.config ? { config: opts.config } : {});
  const worker = await startWorker(api);
  const { config } = api;
  const dispatcher =
    opts.dispatcher === false
      ? undefined
      : runStartDispatcher(api, {
          taskQueues: [config.taskQueue, config.simulationTaskQueue, config.measurementTaskQueue],
        });
  const python = opts.python ? startPythonWorker(api.config) : undefined;
  return {
    api,
    /** Stops in reverse order of start. */
    async stop(): Promise<void> {
      await python?.stop();
      await dispatcher?.stop();
      await worker.stop();
      await api.close();
    },
  };
}
export type TestStack = Awaited<ReturnType<typeof startStack>>;

/**
 * A suite's stack: started before its tests, stopped after them. The answer stands for the
 * stack's API and may be used once the suite's tests or hooks run.
 */
export function apiForSuite(opts: StackOptions = {}): TestApi {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startStack(opts);
  });
  afterAll(async () => {
    await stack?.stop();
  });
  return new Proxy({} as TestApi, {
    get(_, key) {
      if (!stack) throw new Error('the suite stack is used before its tests started');
      return stack.api[key as keyof TestApi];
    },
  });
}
