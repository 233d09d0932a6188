// The five parts of the fault bench's stack, each a separate process that can be killed with
// SIGKILL and is restarted the way stack/supervisor.ts restarts it: the API, the TypeScript
// worker and the Python worker as child processes; the Temporal dev server on its SQLite file;
// the embedded PostgreSQL on its data dir (the same server the stack runs). Each part knows when
// it is ready again, so the bench can time its recovery.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { startEmbeddedPostgres } from '../stack/postgres.ts';
import { startTemporalDevServer } from '../stack/temporal.ts';
import { descendants, processTable, startProcess, waitForPort } from '../stack/processes.ts';
import { PYTHON } from './benchStack.ts';

export type PartName = 'api' | 'worker' | 'pyworker' | 'temporal' | 'postgres';

interface Running {
  /** Pids SIGKILL is sent to (a server's own children too, as when its machine or container dies). */
  pids(): number[];
  exited: Promise<unknown>;
  stop(): Promise<void>;
}

export interface Part {
  name: PartName;
  up: boolean;
  /** Exits the bench did not cause (a part that died because another one did, say). */
  unexpectedExits: number;
  /** Resolves when the part is next ready (at once if it is). */
  ready(): Promise<void>;
  kill(): void;
}

/** Restarts a part 0.5 s after any exit, as the supervisor's first restart does, until stopped. */
function supervised(name: PartName, launch: () => Promise<Running>, log: (line: string) => void) {
  let running: Running | undefined;
  let stopping = false;
  let killing = false;
  let waiters: (() => void)[] = [];
  const part: Part & { stop(): Promise<void>; started: Promise<void> } = {
    name,
    up: false,
    unexpectedExits: 0,
    ready: () => (part.up ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
    kill() {
      if (!running) return;
      killing = true;
      part.up = false;
      for (const pid of running.pids()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
    async stop() {
      stopping = true;
      await running?.stop();
    },
    started: Promise.resolve(),
  };
  const loop = async () => {
    let first = true;
    while (!stopping) {
      try {
        running = await launch();
      } catch (err) {
        log(`[bench] ${name} did not start: ${err instanceof Error ? err.message : String(err)}`);
        if (first) throw err;
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      first = false;
      part.up = true;
      for (const w of waiters) w();
      waiters = [];
      if (firstReady) {
        firstReady();
        firstReady = undefined;
      }
      await running.exited;
      part.up = false;
      if (stopping) return;
      if (!killing) {
        part.unexpectedExits++;
        log(`[bench] ${name} exited by itself`);
      }
      killing = false;
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  let firstReady: (() => void) | undefined;
  part.started = new Promise<void>((resolve, reject) => {
    firstReady = resolve;
    loop().catch(reject);
  });
  return part;
}

/** The process of a child and everything below it. */
const tree = (pid: number | undefined) => (pid === undefined ? [] : [pid, ...descendants(pid)]);

/** Resolves once `line` shows up in a process's output. */
function lineSeen() {
  let seen: () => void = () => {};
  const promise = new Promise<void>((r) => (seen = r));
  return { promise, seen };
}

export async function startParts(opts: {
  dir: string;
  ports: { postgres: number; temporal: number; api: number };
  env: (databaseUrl: string, temporalAddress: string) => NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Run once PostgreSQL is up, before anything else starts (migrations). */
  prepare(databaseUrl: string): Promise<void>;
}) {
  const { dir, ports, log } = opts;
  const pgDir = path.join(dir, 'pg');
  const postgres = supervised(
    'postgres',
    async () => {
      const pg = await startEmbeddedPostgres({ dataDir: pgDir, port: ports.postgres, database: 'faults' });
      const postmaster = () => Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return { pids: () => tree(postmaster()), exited: pg.exited, stop: () => pg.stop() };
    },
    log,
  );
  await postgres.started;
  const databaseUrl = `postgres://cellar:cellar@127.0.0.1:${ports.postgres}/faults`;
  await opts.prepare(databaseUrl);
  const temporal = supervised(
    'temporal',
    async () => {
      const before = new Set(descendants(process.pid));
      const server = await startTemporalDevServer({
        port: ports.temporal,
        dbFile: path.join(dir, 'temporal.sqlite'),
        onLine: (l) => log(`[temporal] ${l}`),
      });
      const table = processTable();
      const pid = descendants(process.pid, table).find((p) => !before.has(p) && table.get(p)?.comm === 'temporal');
      return { pids: () => tree(pid), exited: server.exited!, stop: () => server.stop() };
    },
    log,
  );
  await temporal.started;
  const env = opts.env(databaseUrl, `127.0.0.1:${ports.temporal}`);
  const child = (name: PartName, command: string, args: string[], readyLine?: string, cwd?: string) =>
    supervised(
      name,
      async () => {
        const ready = lineSeen();
        const proc = startProcess(command, args, {
          cwd,
          env: { ...env, CELLAR_PROCESS: name },
          onLine: (l) => {
            log(`[${name}] ${l}`);
            if (readyLine && l.includes(readyLine)) ready.seen();
          },
          graceMs: 5000,
        });
        const exited = new Promise((r) => proc.child.once('exit', r));
        if (readyLine) await Promise.race([ready.promise, exited]);
        else await waitForPort(ports.api, name, 600_000, proc.child); // validators built first: slow on a busy host
        if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new Error(`${name} exited`);
        return { pids: () => tree(proc.child.pid), exited, stop: () => proc.stop() };
      },
      log,
    );
  const node = (entry: string) => ['--disable-warning=ExperimentalWarning', path.join(ROOT, entry)];
  const api = child('api', process.execPath, node('api/main.ts'));
  const worker = child('worker', process.execPath, node('worker/main.ts'), 'worker started');
  const pyworker = child(
    'pyworker',
    PYTHON,
    ['-m', 'cellar_worker.main'],
    'worker started',
    path.join(ROOT, 'pyworker'),
  );
  const parts = { api, worker, pyworker, temporal, postgres };
  const stop = async () => {
    await Promise.all([api.stop(), worker.stop(), pyworker.stop()]);
    await temporal.stop();
    await postgres.stop();
  };
  try {
    await Promise.all([api.started, worker.started, pyworker.started]);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    databaseUrl,
    parts: parts as Record<PartName, Part>,
    /** In the supervisor's order: the API and the workers, then Temporal, then PostgreSQL. */
    stop,
  };
}
