// The whole service, supervised: embedded PostgreSQL and the Temporal dev server (unless
// DATABASE_URL / TEMPORAL_ADDRESS point elsewhere), migrations, the API, the TypeScript worker
// and the Python worker. Started by stack/start.ts (`npm start`) in a process group of its own;
// it stops in order on SIGTERM or SIGINT, or when stack/start.ts goes away: the API and the
// workers first, while the servers they finish their tasks against still run, then Temporal,
// then PostgreSQL. Each of them is restarted if it dies.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, reachableHost, ROOT, type Config } from './config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './postgres.ts';
import { startTemporalDevServer, type TemporalDevServer } from './temporal.ts';
import { portInUse, startProcess, waitForPort, type ManagedProcess } from './processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { bootstrap, countOrganizations } from '../api/services/bootstrap.ts';
import { signingSecret } from '../storage/index.ts';

const say = (msg: string) => process.stdout.write(`[cellar] ${msg}\n`);

/** Environment every child process gets: the resolved addresses plus the user's own settings. */
export function childEnv(config: Config, databaseUrl: string, temporalAddress: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: config.temporalNamespace,
    DATA_DIR: config.dataDir,
    PYBAMM_DISABLE_TELEMETRY: 'true',
  };
  if (config.storage.driver === 'fs') {
    env.STORAGE_DRIVER = 'fs';
    env.STORAGE_DIR = config.storage.dir;
  } else {
    env.STORAGE_DRIVER = 's3';
  }
  return env;
}

interface Supervised {
  name: string;
  start(): ManagedProcess;
  proc?: ManagedProcess;
  restarts: number[];
}

/**
 * How long to wait before restarting a part that exited, doubling from 0.5 s; undefined when it
 * is crash-looping (a fifth exit within a minute). `restarts` holds the part's recent restarts.
 */
function restartDelay(restarts: number[]): number | undefined {
  const now = Date.now();
  const recent = restarts.filter((t) => t > now - 60_000);
  restarts.splice(0, restarts.length, ...recent);
  if (restarts.length >= 5) return undefined;
  restarts.push(now);
  return 500 * 2 ** (restarts.length - 1);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`[cellar] ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  // stack/start.ts runs the supervisor in a process group of its own, connected by IPC.
  const startedByFront = Boolean(process.send);
  let stopping = false;
  let pg: EmbeddedPostgresHandle | undefined;
  let temporal: TemporalDevServer | undefined;
  // Noise of an orderly stop in the dev server's log, left out: workers that stop cancel
  // their pending requests, which the server logs as errors ("context canceled"), and while
  // the server itself stops, its own system workers warn that they cannot reach it.
  let temporalStopping = false;
  const stopNoise = (line: string) =>
    stopping && (line.includes('context canceled') || (temporalStopping && line.includes('level=WARN')));
  const children: Supervised[] = [];

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say(
      `stopping: the API and the workers finish what they are doing (up to ${config.workerShutdownGraceSeconds} s), ` +
        `then the servers stop`,
    );
    await Promise.all(children.map((c) => c.proc?.stop()));
    temporalStopping = true;
    await temporal?.stop();
    await pg?.stop();
    // A server whose start was cut short is not among the parts above; it is still in this
    // process group (which stack/start.ts made for the supervisor alone).
    if (startedByFront) process.kill(-process.pid, 'SIGTERM');
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // stack/start.ts is connected by an IPC channel, which closes if it is killed outright.
  if (startedByFront) process.on('disconnect', () => void shutdown(0));
  // A closed terminal must not end the shutdown half way through with a write error.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

  try {
    // Made (or checked) here, once, before the API and the worker read it.
    if (config.storage.driver === 'fs') signingSecret(config);
    const apiHost = reachableHost(config.host);
    if (await portInUse(config.port, apiHost)) {
      throw new Error(`port ${config.port} is already in use (another npm start?); set PORT to use another`);
    }
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      if (await portInUse(config.postgresPort)) {
        throw new Error(
          `port ${config.postgresPort} for the embedded PostgreSQL is in use; set POSTGRES_PORT or DATABASE_URL`,
        );
      }
      say(
        `starting PostgreSQL on 127.0.0.1:${config.postgresPort} (data in ` +
          `${path.relative(ROOT, config.dataDir) || '.'}/postgres)`,
      );
      const pgLog = fs.createWriteStream(path.join(config.dataDir, 'postgres.log'), { flags: 'a' });
      const startPostgres = () =>
        startEmbeddedPostgres({
          dataDir: path.join(config.dataDir, 'postgres'),
          port: config.postgresPort,
          database: 'cellar',
          onLog: (line) => pgLog.write(`${line}\n`),
        });
      pg = await startPostgres();
      databaseUrl = pg.url;
      superviseServer('PostgreSQL', startPostgres, pg, (restarted) => (pg = restarted));
    }
    let temporalAddress = config.temporalAddress;
    if (!temporalAddress) {
      if (await portInUse(config.temporalPort)) {
        throw new Error(
          `port ${config.temporalPort} for the Temporal dev server is in use; set TEMPORAL_PORT or TEMPORAL_ADDRESS`,
        );
      }
      say(`starting the Temporal dev server on 127.0.0.1:${config.temporalPort}, Web UI on ${config.temporalUiPort}`);
      const startTemporal = () =>
        startTemporalDevServer({
          port: config.temporalPort,
          uiPort: config.temporalUiPort,
          dbFile: path.join(config.dataDir, 'temporal.sqlite'),
          onLine: (line) => {
            if (!stopNoise(line)) process.stdout.write(`[temporal] ${line}\n`);
          },
        });
      temporal = await startTemporal();
      temporalAddress = temporal.address;
      superviseServer('the Temporal dev server', startTemporal, temporal, (restarted) => (temporal = restarted));
    }

    const orm = await openOrm(databaseUrl, { poolMax: 2 });
    const applied = await migrate(orm);
    if (applied.length) say(`applied migrations: ${applied.join(', ')}`);
    const firstStart = (await countOrganizations(orm.em.fork())) === 0;
    await orm.close();

    const env = childEnv(config, databaseUrl, temporalAddress);
    // Stopping workers finish their tasks for up to WORKER_SHUTDOWN_GRACE_S; a little longer
    // than that, and they are killed.
    const graceMs = (config.workerShutdownGraceSeconds + 5) * 1000;
    const supervised = (name: string, command: string, args: string[], cwd?: string): Supervised => ({
      name,
      restarts: [],
      start: () =>
        startProcess(command, args, {
          cwd,
          env: { ...env, CELLAR_PROCESS: name },
          onLine: (line) => process.stdout.write(`${line}\n`),
          graceMs,
        }),
    });
    const node = (name: string, entry: string) =>
      supervised(name, process.execPath, ['--disable-warning=ExperimentalWarning', path.join(ROOT, entry)]);
    children.push(node('api', 'api/main.ts'), node('worker', 'worker/main.ts'));
    const python = path.join(ROOT, '.tools', 'venv', 'bin', 'python');
    if (fs.existsSync(python) && fs.existsSync(path.join(ROOT, 'pyworker', 'cellar_worker', 'main.py'))) {
      children.push(supervised('pyworker', python, ['-m', 'cellar_worker.main'], path.join(ROOT, 'pyworker')));
    } else {
      say('no Python worker environment (.tools/venv): simulations and data processing will wait until one runs');
    }

    for (const c of children) supervise(c);
    await waitForPort(config.port, 'the API', 60_000, undefined, apiHost);
    if (stopping) return; // Ctrl-C came first: no key that nobody would see
    // The first key is made only now, and shown right below: a start-up that fails earlier
    // leaves no key that nobody saw (the next start makes it).
    let firstKey: string | undefined;
    if (firstStart) {
      const keyOrm = await openOrm(databaseUrl, { poolMax: 1 });
      try {
        if ((await countOrganizations(keyOrm.em.fork())) === 0) {
          firstKey = (await bootstrap(keyOrm.em.fork(), 'Default organization', 'admin@localhost')).api_key;
        }
      } finally {
        await keyOrm.close();
      }
    }
    // One write, so the block reaches a terminal or a pipe whole (a reader never sees "ready" alone).
    const api = config.publicUrl;
    const lines = [
      'ready',
      `  API:              ${api}`,
      `  API reference:    ${api}/docs`,
      `  Lab board:        ${api}/lab`,
    ];
    lines.push(temporal?.uiUrl ? `  Temporal Web UI:  ${temporal.uiUrl}` : `  Temporal:         ${temporalAddress}`);
    if (firstKey) {
      lines.push('  A first organization and API key were created. The key is shown only this once:');
      lines.push(`    ${firstKey}`);
      lines.push(`  Try: curl -H "X-API-Key: ${firstKey}" ${api}/auth/health`);
    } else {
      lines.push('  Make a key with: npm run admin -- create-api-key --email admin@localhost');
    }
    lines.push('Ctrl-C stops everything.');
    process.stdout.write(lines.map((l) => `[cellar] ${l}\n`).join(''));
  } catch (err) {
    process.stderr.write(`[cellar] start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await shutdown(1);
  }

  /** Restarts a child that dies unexpectedly; gives up (and stops everything) on a crash loop. */
  function supervise(c: Supervised) {
    if (stopping) return; // a stop began while the servers were starting
    c.proc = c.start();
    c.proc.child.once('exit', (code, signal) => {
      if (stopping) return;
      const delay = restartDelay(c.restarts);
      if (delay === undefined) {
        say(`${c.name} keeps exiting (last: ${signal ?? code}); stopping`);
        void shutdown(1);
        return;
      }
      say(`${c.name} exited (${signal ?? code}); restarting in ${delay} ms`);
      setTimeout(() => !stopping && supervise(c), delay);
    });
  }

  /**
   * The servers are restarted the same way, on their ports and data: the Temporal dev server
   * (the API and the workers reconnect, and workflow starts recorded while it was down are
   * started by the worker's dispatcher) and the embedded PostgreSQL (workflows retry their
   * database steps until it is back). A restart that fails is retried like an exit.
   */
  function superviseServer<S extends { exited?: Promise<number | string | null> }>(
    name: string,
    start: () => Promise<S>,
    server: S,
    restarted: (server: S) => void,
    restarts: number[] = [],
  ) {
    const again = (what: string) => {
      if (stopping) return;
      const delay = restartDelay(restarts);
      if (delay === undefined) {
        say(`${name} keeps exiting (last: ${what}); stopping`);
        void shutdown(1);
        return;
      }
      say(`${name} ${what}; restarting in ${delay} ms`);
      setTimeout(() => {
        if (stopping) return;
        start().then(
          (next) => {
            restarted(next);
            say(`${name} is back`);
            superviseServer(name, start, next, restarted, restarts);
          },
          (err: unknown) => again(`did not restart (${err instanceof Error ? err.message : String(err)})`),
        );
      }, delay);
    };
    void server.exited?.then((how) => again(`exited (${how})`));
  }
}

await main();
