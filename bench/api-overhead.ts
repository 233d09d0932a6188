// Measures, in one run on this machine: throughput and p50/p99 latency of authenticated
// GET /auth/health and POST /projects under 64 connections, against a bare Express handler
// on the same Node; and how long a second `npm start` on existing data takes to be ready.
// Run: bash stack/node.sh bench/api-overhead.ts [seconds per load]
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { startEmbeddedPostgres } from '../stack/postgres.ts';
import { freePort, waitForPort } from '../stack/processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { bootstrap } from '../api/services/bootstrap.ts';
import { startApiProcess } from './apiProcess.ts';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = 64;
const node = (file: string, env: NodeJS.ProcessEnv): ChildProcess =>
  spawn(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(ROOT, file)], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });

async function load(name: string, opts: autocannon.Options) {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const row = {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
  console.log(
    `${name.padEnd(34)} ${String(row.rps).padStart(7)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ` +
      `${String(row.p99).padStart(4)} ms   non-2xx/errors ${row.errors}`,
  );
  return row;
}

async function timeToReady(dataDir: string): Promise<number> {
  const ports = {
    PORT: await freePort(),
    POSTGRES_PORT: await freePort(),
    TEMPORAL_PORT: await freePort(),
    TEMPORAL_UI_PORT: await freePort(),
  };
  const started = Date.now();
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'stack/start.ts')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('[cellar] ready')) resolve(Date.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out.slice(-500)}`)));
  });
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
  return ready;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-bench-'));
fs.chmodSync(tmp, 0o755);
const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: await freePort(), database: 'bench' });
const orm = await openOrm(pg.url, { poolMax: 2 });
await migrate(orm);
const { api_key: key } = await bootstrap(orm.em.fork(), 'Bench lab', 'bench@lab.test');
await orm.close();

const barePort = await freePort();
const bare = node('bench/bareExpress.ts', { PORT: String(barePort) });
const { url: apiUrl, proc: api } = await startApiProcess({
  DATABASE_URL: pg.url,
  TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
  DATA_DIR: tmp,
  LOG_LEVEL: 'warn',
});
try {
  await waitForPort(barePort, 'bare Express', 30_000, bare);
  console.log(
    `Node ${process.version}, ${os.cpus().length} cores, ${CONNECTIONS} connections, ${SECONDS} s per load\n`,
  );
  const headers = { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: 'application/json' };
  // Warm both servers up before measuring.
  await autocannon({ url: `http://127.0.0.1:${barePort}/bare`, connections: 8, amount: 2000 });
  await autocannon({ url: `${apiUrl}/auth/health`, connections: 8, amount: 2000, headers });
  const b = await load('bare Express GET', { url: `http://127.0.0.1:${barePort}/bare` });
  const g = await load('authenticated GET /auth/health', { url: `${apiUrl}/auth/health`, headers });
  let n = 0;
  const p = await load('authenticated POST /projects', {
    url: `${apiUrl}/projects`,
    method: 'POST',
    headers,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: JSON.stringify({ name: `bench project ${process.pid}-${n++}` }),
        }),
      },
    ],
  });
  console.log(
    `\nauthenticated GET throughput / bare: ${(g.rps / b.rps).toFixed(2)} (target >= 0.30); ` +
      `GET p99 ${g.p99} ms (target < 20 ms)`,
  );
  console.log(`POST /projects throughput / bare: ${(p.rps / b.rps).toFixed(2)}; p99 ${p.p99} ms`);
} finally {
  bare.kill();
  await api.stop();
  await pg.stop();
}

const startDir = path.join(tmp, 'start');
const first = await timeToReady(startDir);
const second = await timeToReady(startDir);
console.log(
  `\nnpm start ready: first run ${(first / 1000).toFixed(1)} s (creates the data), ` +
    `second run on existing data ${(second / 1000).toFixed(1)} s (target < 15 s)`,
);
fs.rmSync(tmp, { recursive: true, force: true });
