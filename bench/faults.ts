// Fault bench (issue #31): the whole stack on free ports (embedded PostgreSQL, the Temporal dev
// server on its SQLite file, the API, the TypeScript and Python workers, local storage), a
// mixed load (measurement uploads and their processing, a small sweep, pipelines, project
// creates, reads), and SIGKILLs of each part at seeded random moments, each part restarted as
// the supervisor restarts it. Afterwards: every accepted request's work done exactly once
// (lost / duplicated), every job and measurement terminal within a bound (stuck), no object
// without a record or record without its object (orphans), and the longest recovery (from a
// kill until the part is ready again: the API listening, a worker polling, a server accepting
// connections), with the share of the load's requests that found the API down.
// Run: bash stack/node.sh bench/faults.ts [seed] [kills] [load seconds]
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig, ROOT } from '../stack/config.ts';
import { freePort } from '../stack/processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { bootstrap } from '../api/services/bootstrap.ts';
import { signingSecret } from '../storage/index.ts';
import { PYTHON } from './benchStack.ts';
import { startParts, type PartName } from './faultParts.ts';
import { verify } from './faultChecks.ts';

const SEED = Number(process.argv[2] ?? 31);
const KILLS = Number(process.argv[3] ?? 20);
const LOAD_S = Number(process.argv[4] ?? 150);
const SETTLE_BOUND_S = 180;
const PARTS: PartName[] = ['api', 'worker', 'pyworker', 'temporal', 'postgres'];

// mulberry32: a small seeded generator, so a run's kill schedule can be replayed.
let state = SEED >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-faults-bench-'));
fs.chmodSync(dir, 0o755); // PostgreSQL runs as its own OS user when we are root
const logFile = fs.createWriteStream(path.join(dir, 'stack.log'));
const log = (line: string) => logFile.write(`${new Date().toISOString()} ${line}\n`);
const ports = { postgres: await freePort(), temporal: await freePort(), api: await freePort() };
const config = loadConfig({
  DATA_DIR: dir,
  STORAGE_DIR: path.join(dir, 'storage'),
  PORT: String(ports.api),
  LOG_LEVEL: 'info',
});
signingSecret(config); // as the supervisor does, before the API and the workers read it
const t0 = Date.now();
let key = '';
let orgId = '';
const stack = await startParts({
  dir,
  ports,
  log,
  // As the supervisor does before it starts the API and the workers.
  async prepare(databaseUrl) {
    const orm = await openOrm(databaseUrl, { poolMax: 1 });
    await migrate(orm);
    ({ api_key: key, organization_id: orgId } = await bootstrap(orm.em.fork(), 'Faults lab', 'faults@lab.test'));
    await orm.close();
  },
  // As stack/supervisor.ts's childEnv (not imported: that module starts a supervisor).
  env: (db, temporal) => ({
    ...process.env,
    DATABASE_URL: db,
    TEMPORAL_ADDRESS: temporal,
    DATA_DIR: dir,
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: path.join(dir, 'storage'),
    PORT: String(ports.api),
    LOG_LEVEL: 'info',
    PYBAMM_DISABLE_TELEMETRY: 'true',
    FIT_WARM_UP_MODELS: '', // no fit runs here: no model built ahead
  }),
});
console.log(`stack up in ${((Date.now() - t0) / 1000).toFixed(1)} s (data in ${dir})`);

let outcome: { failed: boolean } | undefined;
let loadOn = true;
try {
  const base = `http://127.0.0.1:${ports.api}`;
  type Reply = { status: number; body: any };
  /** One request; a connection error or timeout is status 0. */
  async function call(method: string, p: string, body?: unknown): Promise<Reply> {
    try {
      const res = await fetch(base + p, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    } catch {
      return { status: 0, body: undefined };
    }
  }
  /** Retries while the service is down (no answer, 5xx), as a client with backoff would. */
  async function retried(method: string, p: string, body?: unknown, attempts = 360): Promise<Reply> {
    let r: Reply = { status: 0, body: undefined };
    for (let i = 0; i < attempts; i++) {
      r = await call(method, p, body);
      if (r.status !== 0 && r.status < 500) return r;
      await sleep(500);
    }
    return r;
  }
  const must = async (r: Promise<Reply>, what: string) => {
    const reply = await r;
    if (reply.status >= 300) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };

  // Fixtures, made before the faults.
  const project = await must(retried('POST', '/projects', { name: 'Faults' }), 'project');
  const spec = await must(
    retried('POST', '/cell_specifications', {
      project_id: project.id,
      name: 'Spec',
      form_factor: 'cylindrical',
      ratings: { capacity: { value: 5, unit: 'A.h' }, voltage_min: { value: 2.5, unit: 'V' } },
    }),
    'cell specification',
  );
  const cell = await must(retried('POST', `/cell_specifications/${spec.id}/cell_instances`, { name: 'Cell' }), 'cell');
  const csvFile = path.join(dir, 'series.csv');
  await promisify(execFile)(PYTHON, ['-m', 'cellar_worker.measurements.generate', csvFile, '4000', '4'], {
    cwd: path.join(ROOT, 'pyworker'),
  });
  const series = fs.readFileSync(csvFile);

  // What the load had accepted (answered 2xx), and what it saw.
  const accepted = { measurements: [] as string[], batches: [] as { id: string; points: number }[] };
  const acceptedPipelines: { id: string; elements: number }[] = [];
  const acceptedProjects: string[] = [];
  const seen = {
    requests: 0,
    noAnswer: 0,
    status5xx: 0,
    kinds5xx: new Map<string, number>(),
    status4xx: 0,
    unexpected4xx: [] as string[],
  };

  async function uploader(n: number) {
    for (let i = 0; loadOn; i++) {
      const init = await call('POST', `/cell_instances/${cell.id}/cell_measurements/initiate-upload`, {
        measurement: { name: `m-${n}-${i}` },
      });
      if (init.status !== 200) {
        await sleep(300);
        continue;
      }
      let put = 0;
      for (let a = 0; a < 60 && !(put >= 200 && put < 300); a++) {
        put = await fetch(init.body.uploads[0].signed_url, { method: 'PUT', body: series })
          .then((r) => r.status)
          .catch(() => 0);
        if (put < 200 || put >= 300) await sleep(500);
      }
      const confirmed = await retried('POST', `/cell_measurements/${init.body.measurement_id}/confirm-upload`, {
        cell_instance_id: cell.id,
        measurement: {},
      });
      if (confirmed.status === 201 || confirmed.status === 200) accepted.measurements.push(init.body.measurement_id);
      else
        seen.unexpected4xx.push(`confirm ${confirmed.status} ${String(JSON.stringify(confirmed.body)).slice(0, 200)}`);
    }
  }

  async function sweep() {
    const points = 30;
    const submit = () =>
      retried('POST', '/simulations/protocol/batch', {
        parameterized_model: { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } },
        project_id: project.id,
        protocol_experiment: { protocol: 'Discharge at 1C until 2.5V\nRest for 10 minutes\nCharge at 1C until 4.2V' },
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.004, max: 0.012, count: points }],
        },
      });
    // Submitted until the API answers it: an API restart can take minutes on a busy host.
    let r = await submit();
    while (r.status === 0 && loadOn) r = await submit();
    if (r.status === 200) accepted.batches.push({ id: r.body[0].simulation_id, points });
  }

  async function pipelines() {
    for (let i = 0; loadOn; i++) {
      const r = await retried('POST', '/pipelines', {
        project_id: project.id,
        name: `p-${i}`,
        elements: {
          geometry: {
            element_type: 'entry',
            values: { 'Positive electrode thickness [m]': 75e-6, 'Electrode height [m]': 0.065 },
          },
          fraction: {
            element_type: 'calculation',
            type: 'electrode_volume_fraction',
            electrode: 'positive',
            mass_loading: 20,
            active_material_mass_fraction: 0.95,
            active_material_density: 4700,
          },
        },
      });
      if (r.status === 201) acceptedPipelines.push({ id: r.body.id, elements: 2 });
      await sleep(4000);
    }
  }

  async function readsAndCreates(n: number) {
    for (let i = 0; loadOn; i++) {
      const pick = accepted.measurements[Math.floor(random() * accepted.measurements.length)];
      const r =
        i % 10 === 0
          ? await call('POST', '/projects', { name: `load ${n}-${i}` })
          : pick && i % 2
            ? await call('GET', `/cell_measurements/${pick}/validation`)
            : await call('GET', '/projects');
      seen.requests++;
      if (r.status === 0) seen.noAnswer++;
      else if (r.status >= 500) {
        seen.status5xx++;
        const kind = `${r.status} ${(r.body as { error_code?: string } | undefined)?.error_code ?? ''}`.trim();
        seen.kinds5xx.set(kind, (seen.kinds5xx.get(kind) ?? 0) + 1);
      } else if (r.status >= 400) seen.status4xx++;
      if (r.status === 201) acceptedProjects.push(`load ${n}-${i}`);
      if (r.status === 0 || r.status >= 500) await sleep(200);
    }
  }

  // Kills at seeded moments over the load's first 85%, each of a part that is up.
  const schedule = Array.from({ length: KILLS }, (_, i) => ({
    at: ((i + random()) / KILLS) * LOAD_S * 850,
    part: PARTS[i % PARTS.length]!,
  })).sort((a, b) => a.at - b.at);
  for (let i = schedule.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [schedule[i]!.part, schedule[j]!.part] = [schedule[j]!.part, schedule[i]!.part];
  }
  const recoveries: { part: PartName; s: number }[] = [];
  async function killer() {
    const start = Date.now();
    const pending: Promise<void>[] = [];
    for (const { at, part } of schedule) {
      await sleep(Math.max(0, start + at - Date.now()));
      await stack.parts[part].ready(); // a part still restarting is killed once it is back
      const killedAt = Date.now();
      stack.parts[part].kill();
      log(`[bench] killed ${part}`);
      pending.push(
        (async () => {
          await sleep(100);
          await stack.parts[part].ready();
          while ((await call('GET', '/projects')).status !== 200) await sleep(100);
          recoveries.push({ part, s: (Date.now() - killedAt) / 1000 });
        })(),
      );
    }
    await Promise.all(pending);
  }

  const loadStart = Date.now();
  const stopLoad = sleep(LOAD_S * 1000).then(() => (loadOn = false));
  await Promise.all([
    stopLoad,
    killer(),
    sweep(),
    pipelines(),
    ...[0, 1, 2].map(uploader),
    ...[0, 1].map(readsAndCreates),
  ]);
  console.log(
    `load: ${((Date.now() - loadStart) / 1000).toFixed(0)} s, ${KILLS} kills (seed ${SEED}); ` +
      `accepted: ${accepted.measurements.length} uploads, ${accepted.batches.length} sweep ` +
      `(${accepted.batches[0]?.points ?? 0} points), ${acceptedPipelines.length} pipelines, ` +
      `${acceptedProjects.length} project creates`,
  );
  const kinds5xx = [...seen.kinds5xx].map(([kind, n]) => `${kind}: ${n}`).join(', ');
  console.log(
    `reads and creates: ${seen.requests} requests, ${seen.noAnswer} without an answer (part down), ` +
      `${seen.status5xx} 5xx${kinds5xx ? ` (${kinds5xx})` : ''}, ${seen.status4xx} 4xx`,
  );
  for (const line of seen.unexpected4xx.slice(0, 5)) console.log(`  refused: ${line}`);

  outcome = await verify({
    databaseUrl: stack.databaseUrl,
    storageDir: path.join(dir, 'storage'),
    orgId,
    accepted: { ...accepted, pipelines: acceptedPipelines, projects: acceptedProjects },
    boundS: SETTLE_BOUND_S,
  });
  const byPart = PARTS.map((p) => {
    const rs = recoveries.filter((r) => r.part === p).map((r) => r.s);
    return `${p} ${rs.length}× max ${Math.max(...rs, 0).toFixed(1)} s`;
  });
  console.log(`recovery (kill → the part restarted and ready): ${byPart.join(', ')}`);
  console.log(`longest recovery: ${Math.max(...recoveries.map((r) => r.s)).toFixed(1)} s`);
  console.log(
    `parts that exited without being killed: ` + PARTS.map((p) => `${p} ${stack.parts[p].unexpectedExits}`).join(', '),
  );
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  );
} finally {
  loadOn = false;
  await stack.stop();
}
logFile.end();
if (!outcome || outcome.failed) {
  console.log(`FAILED; the stack's log is kept in ${path.join(dir, 'stack.log')}`);
  process.exitCode = 1;
} else if (process.env.FAULTS_KEEP) console.log(`the stack's log is kept in ${path.join(dir, 'stack.log')}`);
else fs.rmSync(dir, { recursive: true, force: true });
