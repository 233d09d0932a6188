// Load bench (issue #31): 200 concurrent clients for 60 s of mixed reads and writes against
// the whole stack on free ports (the API, both workers, Temporal and the embedded PostgreSQL as
// separate processes, as `npm start` runs them). Each client, with its own API key's
// organization shared by ten clients, loops over a seeded mix: lists and gets of projects and
// cell specifications, creates of projects and cell specifications, renames of its own
// project, and GET /auth/health as the same-run baseline (authentication, no query beyond the
// key). Prints errors (target 0) and p50 / p99 per kind, and the load average.
// Run: bash stack/node.sh bench/load.ts [clients] [seconds] [seed]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../stack/config.ts';
import { freePort } from '../stack/processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { bootstrap } from '../api/services/bootstrap.ts';
import { signingSecret } from '../storage/index.ts';
import { startParts } from './faultParts.ts';

const CLIENTS = Number(process.argv[2] ?? 200);
const SECONDS = Number(process.argv[3] ?? 60);
let state = Number(process.argv[4] ?? 31) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-load-bench-'));
fs.chmodSync(dir, 0o755); // PostgreSQL runs as its own OS user when we are root
const logFile = fs.createWriteStream(path.join(dir, 'stack.log'));
const ports = { postgres: await freePort(), temporal: await freePort(), api: await freePort() };
const config = loadConfig({ DATA_DIR: dir, STORAGE_DIR: path.join(dir, 'storage'), PORT: String(ports.api) });
signingSecret(config);
const keys: string[] = [];
const stack = await startParts({
  dir,
  ports,
  log: (line) => logFile.write(`${line}\n`),
  async prepare(databaseUrl) {
    const orm = await openOrm(databaseUrl, { poolMax: 1 });
    await migrate(orm);
    for (let i = 0; i < Math.ceil(CLIENTS / 10); i++) {
      keys.push((await bootstrap(orm.em.fork(), `Load lab ${i}`, `load${i}@lab.test`)).api_key);
    }
    await orm.close();
  },
  env: (db, temporal) => ({
    ...process.env,
    DATABASE_URL: db,
    TEMPORAL_ADDRESS: temporal,
    DATA_DIR: dir,
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: path.join(dir, 'storage'),
    PORT: String(ports.api),
    LOG_LEVEL: 'info', // the workers say 'worker started' at info, which tells they are ready
    PYBAMM_DISABLE_TELEMETRY: 'true',
    FIT_WARM_UP_MODELS: '', // no fit runs here: no model built ahead
  }),
});
const base = `http://127.0.0.1:${ports.api}`;
console.log(`stack up (data in ${dir}); ${CLIENTS} clients for ${SECONDS} s`);

interface Kind {
  name: string;
  weight: number;
  request(c: ClientState): { method: string; path: string; body?: unknown; ok: number };
}
interface ClientState {
  n: number;
  key: string;
  project: string;
  count: number;
}
const uniq = (c: ClientState) => `c${c.n}-${++c.count}`;
const KINDS: Kind[] = [
  {
    name: 'GET /auth/health (baseline)',
    weight: 10,
    request: () => ({ method: 'GET', path: '/auth/health', ok: 200 }),
  },
  { name: 'GET /projects', weight: 20, request: () => ({ method: 'GET', path: '/projects', ok: 200 }) },
  {
    name: 'GET /projects/{id}',
    weight: 20,
    request: (c) => ({ method: 'GET', path: `/projects/${c.project}`, ok: 200 }),
  },
  {
    name: 'GET /cell_specifications',
    weight: 20,
    request: () => ({ method: 'GET', path: '/cell_specifications?limit=50', ok: 200 }),
  },
  {
    name: 'POST /projects',
    weight: 10,
    request: (c) => ({ method: 'POST', path: '/projects', body: { name: `p ${uniq(c)}` }, ok: 201 }),
  },
  {
    name: 'PATCH /projects/{id}',
    weight: 10,
    request: (c) => ({ method: 'PATCH', path: `/projects/${c.project}`, body: { name: `own ${uniq(c)}` }, ok: 200 }),
  },
  {
    name: 'POST /cell_specifications',
    weight: 10,
    request: (c) => ({
      method: 'POST',
      path: '/cell_specifications',
      body: { project_id: c.project, name: `s ${uniq(c)}`, form_factor: 'pouch' },
      ok: 201,
    }),
  },
];
const totalWeight = KINDS.reduce((s, k) => s + k.weight, 0);
const pickKind = () => {
  let r = random() * totalWeight;
  return KINDS.find((k) => (r -= k.weight) < 0) ?? KINDS[0]!;
};

const latencies = new Map<string, number[]>(KINDS.map((k) => [k.name, []]));
const errors = new Map<string, string[]>(KINDS.map((k) => [k.name, []]));

async function send(key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(base + p, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, text: await res.text() };
}

let on = true;
async function runClient(n: number) {
  const key = keys[n % keys.length]!;
  const created = await send(key, 'POST', '/projects', { name: `own c${n}` });
  if (created.status !== 201) throw new Error(`client ${n}: its project: ${created.status} ${created.text}`);
  const c: ClientState = { n, key, project: JSON.parse(created.text).id, count: 0 };
  while (on) {
    const kind = pickKind();
    const r = kind.request(c);
    const t = performance.now();
    try {
      const res = await send(key, r.method, r.path, r.body);
      latencies.get(kind.name)!.push(performance.now() - t);
      if (res.status !== r.ok) errors.get(kind.name)!.push(`${res.status} ${res.text.slice(0, 160)}`);
    } catch (err) {
      errors.get(kind.name)!.push(err instanceof Error ? err.message : String(err));
    }
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
try {
  const before = os.loadavg();
  const t0 = Date.now();
  const clients = Array.from({ length: CLIENTS }, (_, n) => runClient(n));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  on = false;
  await Promise.all(clients);
  const seconds = (Date.now() - t0) / 1000;
  const after = os.loadavg();
  let total = 0;
  let failed = 0;
  console.log(`${CLIENTS} clients, ${seconds.toFixed(1)} s, ${keys.length} organizations`);
  console.log('kind                               requests  errors     p50 ms     p99 ms');
  for (const k of KINDS) {
    const l = latencies.get(k.name)!.sort((a, b) => a - b);
    const e = errors.get(k.name)!;
    total += l.length;
    failed += e.length;
    const fmt = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(1)).padStart(10);
    console.log(
      `${k.name.padEnd(33)} ${String(l.length).padStart(9)} ${String(e.length).padStart(7)}` +
        `${fmt(percentile(l, 0.5))} ${fmt(percentile(l, 0.99))}`,
    );
  }
  console.log(`total ${total} requests (${(total / seconds).toFixed(0)}/s), ${failed} errors (target 0)`);
  for (const [kind, e] of errors) for (const line of e.slice(0, 3)) console.log(`  ${kind}: ${line}`);
  const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`load average before ${fmtLoad(before)}, after ${fmtLoad(after)} (${os.cpus().length} cores)`);
} finally {
  on = false;
  await stack.stop();
  logFile.end();
  fs.rmSync(dir, { recursive: true, force: true });
}
