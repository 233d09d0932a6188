// The Temporal dev server (Temporal CLI, built by stack/provision.sh) with its Web UI.
// Used only when TEMPORAL_ADDRESS is not set.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './config.ts';
import { startProcess, waitForPort, type ManagedProcess } from './processes.ts';
import * as searchAttributes from '../workflows/searchAttributes.ts';
import { SEARCH_ATTRIBUTE_NAMES } from '../workflows/searchAttributes.ts';

export const TEMPORAL_CLI = path.join(ROOT, '.tools', 'bin', 'temporal');

export interface TemporalDevServer {
  address: string;
  uiUrl: string | undefined;
  /** Resolves with the exit code or signal when the server process ends (not known for the SDK's download). */
  exited?: Promise<number | string | null>;
  stop(): Promise<void>;
}

// One task-queue partition instead of four: a single-process server gains nothing from
// spreading a queue, and with four it spent about a sixth more CPU per child workflow
// (a batch of child workflows each running one empty activity, measured once).
// The dev server also re-reads its search attributes from the database on every read, so a
// test sees one it has just added; ours are all registered at start, and with SQL visibility
// the list it re-reads never changes. That re-read was about 9 queries per simulation (about
// a twentieth of the server's CPU in a sweep).
const DYNAMIC_CONFIG = [
  'matching.numTaskqueueReadPartitions=1',
  'matching.numTaskqueueWritePartitions=1',
  'system.forceSearchAttributesCacheRefreshOnRead=false',
];

// The dev server opens its SQLite file with SQLite's defaults: a rollback journal created,
// synced and deleted on every commit. A write-ahead log syncs once per commit and is just as
// durable (synchronous=full); a 200-point sweep ran at 14-18 simulations/s instead of 8-10.
// Those syncs are still most of what the file costs: the server writes through one connection
// and waits for each commit's fsync, 1.8 s of every 6 in a sweep (perf trace), and with
// synchronous=normal, or the file on tmpfs, sweeps ran 10-30% faster. synchronous stays
// full all the same: normal may lose the last commits to a power loss, and with them a batch's
// start that the API has already taken off workflow_starts.
const SQLITE_FILE_PRAGMAS = ['journal_mode=wal', 'synchronous=full'];

// Go collects garbage once the heap has doubled (GOGC=100); in a sweep that was about a
// fourteenth of the dev server's CPU. At 400 the server used about 8% less CPU per
// simulation (28.7 against 26.3 ms, alternating runs of 200-point sweeps) for about 150 MB
// more memory (peak RSS 250 against 430 MB with its state in memory). A GOGC set in the
// environment wins.
const serverEnv = (): NodeJS.ProcessEnv => ({ GOGC: '400', ...process.env });

/** The flags both ways of starting the dev server pass: dynamic config, pragmas for a SQLite file, the metrics port. */
function tuningArgs(opts: { dbFile?: string; metricsPort?: number }): string[] {
  return [
    ...DYNAMIC_CONFIG.flatMap((value) => ['--dynamic-config-value', value]),
    ...(opts.dbFile ? SQLITE_FILE_PRAGMAS.flatMap((pragma) => ['--sqlite-pragma', pragma]) : []),
    ...(opts.metricsPort ? ['--metrics-port', String(opts.metricsPort)] : []),
  ];
}

export async function startTemporalDevServer(opts: {
  port: number;
  uiPort?: number;
  /** SQLite file for persistence; in-memory when unset (tests). */
  dbFile?: string;
  /** Serve the server's Prometheus metrics on this port (tests and benchmarks read them). */
  metricsPort?: number;
  onLine?: (line: string) => void;
}): Promise<TemporalDevServer> {
  if (!fs.existsSync(TEMPORAL_CLI)) return startDownloadedDevServer(opts);
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'warn'];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1');
  else args.push('--headless');
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  for (const name of SEARCH_ATTRIBUTE_NAMES) args.push('--search-attribute', `${name}=Keyword`);
  args.push(...tuningArgs(opts));
  const proc: ManagedProcess = startProcess(TEMPORAL_CLI, args, { env: serverEnv(), onLine: opts.onLine });
  const exited = new Promise<number | string | null>((resolve) =>
    proc.child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  await waitForPort(opts.port, 'Temporal dev server', 60_000, proc.child);
  return {
    exited,
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined,
    stop: () => proc.stop(),
  };
}

/**
 * Fallback for machines with internet but no Go: the Temporal SDK downloads its own dev
 * server binary (a cached download). Provisioning prefers the CLI built with `go install`.
 */
async function startDownloadedDevServer(opts: {
  port: number;
  uiPort?: number;
  dbFile?: string;
  metricsPort?: number;
  onLine?: (line: string) => void;
}): Promise<TemporalDevServer> {
  opts.onLine?.(`no Temporal CLI at ${TEMPORAL_CLI}; letting the Temporal SDK download its dev server`);
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const keys = SEARCH_ATTRIBUTE_NAMES.map((name) => searchAttributes[name]);
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: '127.0.0.1',
      port: opts.port,
      ui: Boolean(opts.uiPort),
      ...(opts.uiPort ? { uiPort: opts.uiPort } : {}),
      ...(opts.dbFile ? { dbFilename: opts.dbFile } : {}),
      searchAttributes: keys,
      extraArgs: tuningArgs(opts),
    },
  });
  return {
    address: env.address,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined,
    stop: () => env.teardown(),
  };
}

/** Persistence requests the dev server has made so far, by operation (from its metrics). */
export async function persistenceRequests(metricsPort: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('persistence_requests{')) continue;
    const operation = /operation="([^"]+)"/.exec(line)?.[1] ?? 'unknown';
    counts[operation] = (counts[operation] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}
