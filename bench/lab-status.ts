// Lab status and GET /cyclers at lab scale, in one run on this machine:
// - a project with 8 sites × 64 cyclers × 64 channels (32,768 channels), half of them running
//   a measurement (occupied or stale), some out of commission; 100,000 cyclers in the organization;
// - GET /projects/{id}/lab/status p50/p99 against the floor: the same query and tree built and
//   serialized in-process without HTTP (target: endpoint within 2× of the floor);
// - the tree's counts against an independent SQL count;
// - GET /cyclers with q + two filters + sort, p95 (target < 25 ms), and EXPLAIN of its queries
//   (no sequential scan of cyclers);
// - with 20,000 reservations in the lab: a conditional lab status of an unchanged lab (304, target
//   p95 < 5 ms), the auto-schedule proposal for 500 requested plans (target < 2 s), 50 concurrent
//   overlapping schedule requests on one channel (exactly one succeeds), and the board in Chromium
//   (first render of 32,768 channels < 2 s, from the grid view, a refresh with changes < 300 ms), when
//   installed; the grid view against the whole tree.
// Run: bash stack/node.sh bench/lab-status.ts [iterations]   (DATABASE_URL reuses a server; default embedded)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../stack/config.ts';
import { startEmbeddedPostgres } from '../stack/postgres.ts';
import { freePort } from '../stack/processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { bootstrap } from '../api/services/bootstrap.ts';
import { createApp } from '../api/app.ts';
import { createApiServer } from '../api/httpServer.ts';
import { temporalClient } from '../stack/temporalClient.ts';
import { FsStorage } from '../storage/fsStorage.ts';
import { buildLabStatus } from '../api/services/lab.ts';
import { CYCLER_LIST } from '../api/services/cyclers.ts';
import { textMatch } from '../api/services/search.ts';
import { readableProjectsSql } from '../api/services/access.ts';
import { parseList } from '../api/listQuery.ts';
import { whereSql } from '../db/listSql.ts';
import { CYCLER_COLUMNS } from '../db/repositories/inventory.ts';
import {
  boardInChromium,
  concurrentSchedules,
  conditionalStatus,
  proposal,
  seedReservations,
  type Ctx,
} from './labScheduling.ts';
import { startApiProcess } from './apiProcess.ts';

const ITER = Number(process.argv[2] ?? 40);
const SITES = 8;
const CYCLERS_PER_SITE = 64;
const CHANNELS_PER_CYCLER = 64;
const ORG_CYCLERS = 100_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-lab-bench-'));
fs.chmodSync(tmp, 0o755);
const pg = process.env.DATABASE_URL
  ? { url: process.env.DATABASE_URL, stop: async () => {} }
  : await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: await freePort(), database: 'bench' });
const orm = await openOrm(pg.url, { poolMax: 10 });
await migrate(orm);
const em = () => orm.em.fork();
const issued = await bootstrap(em(), `Lab bench ${Date.now()}`, `bench-${Date.now()}@lab.test`);
const org = issued.organization_id;
const user = issued.user_id;

const t0 = Date.now();

const exec = (sql: string, params: unknown[] = []): Promise<Record<string, any>[]> => em().execute(sql, params);
// Projects: the lab project and nine others sharing the organization's 100,000 cyclers.
await exec(
  `insert into projects (id, organization_id, name, created_by)
  select gen_random_uuid(), ?, 'bench project ' || g, ? from generate_series(0, 9) g`,
  [org, user],
);
await exec(
  `insert into user_project_roles (user_id, project_id, project_role_id)
  select ?, id, '00000000-0000-4000-8000-000000000001' from projects where organization_id = ?`,
  [user, org],
);
const project: string = (
  await exec(`select id from projects where organization_id = ? and name = 'bench project 0'`, [org])
)[0]!.id;
const sitesTotal = Math.ceil(ORG_CYCLERS / CYCLERS_PER_SITE); // other projects' cyclers stand at further sites
await exec(
  `insert into sites (id, organization_id, name, location, created_by)
  select gen_random_uuid(), ?, 'site ' || lpad(g::text, 5, '0'), 'building ' || (g % 5), ?
    from generate_series(0, ? - 1) g`,
  [org, user, sitesTotal],
);
// Cycler n: the first 512 belong to the lab project at sites 000-007, the rest to the other projects.
await exec(
  `with s as (select id, row_number() over (order by name) - 1 as i from sites where organization_id = ?),
                 p as (select id, row_number() over (order by name) - 1 as i from projects where organization_id = ?)
  insert into cyclers (id, organization_id, site_id, project_id, name, manufacturer, model, version, serial_number,
    firmware_version,
                       hostname, ip_address, port, last_calibrated_at, calibration_interval_days, created_by)
  select gen_random_uuid(), ?, s.id, p.id,
         (array['amber','brisk','cobalt','dusky','ember','fallow','gilded','hazel'])[1 + g % 8] || '-' ||
         (array['otter','heron','lynx','marten','osprey','badger','ibex','stoat','wren','vole'])[1 + (g / 8) % 10]
           || '-' || lpad(g::text, 6, '0'),
         (array['Arbin','Maccor','Neware','BioLogic','Digatron'])[1 + g % 5], 'M' || (g % 40), 'v' || (g % 7),
         'SN' || lpad(g::text, 8, '0'), 'fw' || (g % 13), 'host-' || g || '.lab', '10.0.' || (g / 256 % 256) || '.'
           || (g % 256), 5000 + g % 100,
         timestamptz '2026-01-01' + (g % 300) * interval '1 day', 90 + (g % 4) * 90, ?
    from generate_series(0, ? - 1) g
    join s on s.i = g / ?
    join p on p.i = case when g < ? then 0 else 1 + g % 9 end`,
  [org, org, org, user, ORG_CYCLERS, CYCLERS_PER_SITE, SITES * CYCLERS_PER_SITE],
);
await exec(
  `insert into channels (id, organization_id, project_id, cycler_id, name, max_amps, min_volts, max_volts,
    out_of_commission, created_by)
  select gen_random_uuid(), c.organization_id, c.project_id, c.id, 'CH'
    || lpad(g::text, 2, '0'), 10, 2.5, 4.2, (g = 63 and c.serial_number like '%0'), ?
    from cyclers c cross join generate_series(0, ? - 1) g where c.project_id = ?`,
  [user, CHANNELS_PER_CYCLER, project],
);
await exec(
  `insert into cell_specifications (id, organization_id, project_id, name, created_by)
    values (gen_random_uuid(), ?, ?, 'INR21700', ?)`,
  [org, project, user],
);
await exec(
  `insert into cell_instances (id, organization_id, project_id, cell_specification_id, name, created_by)
  select gen_random_uuid(), ?, ?, (select id from cell_specifications where project_id = ?), 'cell-' || g, ?
    from generate_series(0, 16383) g`,
  [org, project, project, user],
);
// Even channels run a measurement (every fourth of those without data for two days: stale);
// every channel also has a finished measurement from last year.
await exec(
  `with ch as (select id, row_number() over (order by id) - 1 as i from channels where project_id = ?
    and not out_of_commission),
                 ci as (select id, row_number() over (order by name) - 1 as i from cell_instances where project_id = ?)
  insert into cell_measurements (id, organization_id, project_id, cell_instance_id, name, measurement_type,
    channel_id, start_time, end_time,
                                 estimated_end_time, protocol, program_name, requested_by, data_updated_at, created_by)
  select gen_random_uuid(), ?, ?, ci.id, 'run ' || ch.i || '-' || k, 'time_series', ch.id,
         case when k = 0 then now() - interval '3 days' else timestamptz '2025-01-01' end,
         case when k = 0 then null else timestamptz '2025-01-02' end,
         case when k = 0 then now() + interval '2 days' end, '{"name": "CCCV 1C"}', 'cycle.mps', ?,
         case when k = 0 and ch.i % 8 = 0 then now() - interval '2 days' else now() - interval '1 hour' end, ?
    from ch join ci on ci.i = ch.i % 16384 cross join generate_series(0, 1) k
   where k = 1 or ch.i % 2 = 0`,
  [project, project, org, project, user, user],
);
await exec(
  `insert into measurement_watches (user_id, measurement_id, project_id)
  select ?, id, project_id from cell_measurements where project_id = ? and end_time is null and random() < 0.05`,
  [user, project],
);
const RESERVATIONS = 20_000;
const planning = await seedReservations({ exec, org, project, user }, RESERVATIONS);
await exec('vacuum analyze'); // the steady state autovacuum keeps (statistics, visibility map)
console.log(
  `host load average at the start (1, 5, 15 min): ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);
console.log(
  `data: ${SITES} sites × ${CYCLERS_PER_SITE} cyclers × ${CHANNELS_PER_CYCLER} channels in the lab project ` +
    `(${RESERVATIONS} reservations), ` +
    `${ORG_CYCLERS} cyclers in the organization (${((Date.now() - t0) / 1000).toFixed(1)} s to generate)`,
);

// The app in-process, on a real port.
const config = {
  ...loadConfig({
    DATABASE_URL: pg.url,
    DATA_DIR: tmp,
    LOG_LEVEL: 'silent',
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
  }),
};
const server = createApiServer(
  createApp({
    config,
    orm,
    temporal: temporalClient(config),
    storage: new FsStorage({
      root: path.join(tmp, 'storage'),
      secret: 'bench-signing-secret-0123456789abcdef',
      publicUrl: 'http://127.0.0.1',
    }),
  }),
);
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const headers = { 'X-API-Key': issued.api_key, Accept: 'application/json', 'Content-Type': 'application/json' };
const get = async (p: string) => {
  const res = await fetch(base + p, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${text.slice(0, 300)}`);
  return text;
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
async function once(fn: () => Promise<unknown>): Promise<number> {
  const s = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - s) / 1e6;
}
async function time(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await once(fn));
  return out;
}
/** Alternates the two measurements so that the machine's load weighs on both alike. */
async function timePair(
  n: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number[], number[]]> {
  for (let i = 0; i < 3; i++) {
    await a();
    await b();
  } // warm-up
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < n; i++) {
    ta.push(await once(a));
    tb.push(await once(b));
  }
  return [ta, tb];
}
const fmt = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms`;

// Lab status: floor (query + tree + JSON, no HTTP) vs the endpoint.
const [floor, endpoint] = await timePair(
  ITER,
  async () => JSON.stringify(await buildLabStatus(em(), project, user, config.staleAfterHours)),
  () => get(`/projects/${project}/lab/status`),
);
const body = await get(`/projects/${project}/lab/status`);
console.log(`lab status floor (SQL + tree + JSON)  ${fmt(floor)}`);
console.log(`GET /projects/{id}/lab/status          ${fmt(endpoint)}   (${(body.length / 1e6).toFixed(1)} MB)`);
console.log(
  `endpoint / floor: ` +
    `p50 ${(pct(endpoint, 50) / pct(floor, 50)).toFixed(2)}×  p99 ` +
    `${(pct(endpoint, 99) / pct(floor, 99)).toFixed(2)}×  ` +
    `(target ≤ 2×)`,
);

// Correctness against an independent count.
const tree = JSON.parse(body);
const [expected] = await exec(
  `select count(*) filter (where ch.out_of_commission) as out_of_commission,
          count(*) filter (where not ch.out_of_commission and r.fresh) as occupied,
          count(*) filter (where not ch.out_of_commission and r.fresh = false) as stale,
          count(*) filter (where not ch.out_of_commission and r.fresh is null) as free
     from channels ch
     left join (select channel_id, bool_or(coalesce(data_updated_at,
       updated_at) >= now() - make_interval(hours => ?)) as fresh
                  from cell_measurements where end_time is null or end_time > now()
                    group by channel_id) r on r.channel_id = ch.id
    where ch.project_id = ?`,
  [config.staleAfterHours, project],
);
const got = { occupied: tree.occupied, stale: tree.stale, free: tree.free, out_of_commission: tree.out_of_commission };
const want = Object.fromEntries(Object.entries(expected!).map(([k, v]) => [k, Number(v)]));
const channelsInTree = tree.sites.flatMap((s: { cyclers: { channels: unknown[] }[] }) =>
  s.cyclers.flatMap((c) => c.channels),
).length;
const ok =
  JSON.stringify(got) ===
    JSON.stringify({
      occupied: want.occupied,
      stale: want.stale,
      free: want.free,
      out_of_commission: want.out_of_commission,
    }) && channelsInTree === SITES * CYCLERS_PER_SITE * CHANNELS_PER_CYCLER;
console.log(
  `counts ${JSON.stringify(got)} vs independent ${JSON.stringify(want)}; ${channelsInTree} channels in the tree: ` +
    `${ok ? 'MATCH' : 'MISMATCH'}`,
);

// Scheduling at lab scale.
// The lab status in parts (the board's first view): the summary and a first page of 32 cyclers (2,048 channels),
// against the whole tree.
const [summary, firstPage] = await timePair(
  ITER,
  () => get(`/projects/${project}/lab/status?view=summary`),
  () => get(`/projects/${project}/lab/status?cycler_offset=0&cycler_limit=32`),
);
console.log(
  `GET lab/status?view=summary              ${fmt(summary)}   ` +
    `(${((await get(`/projects/${project}/lab/status?view=summary`)).length / 1e6).toFixed(2)} MB)`,
);
console.log(
  `GET lab/status, ` +
    `first page of 32 cyclers  ${fmt(firstPage)}   ` +
    `(${((await get(`/projects/${project}/lab/status?cycler_offset=0&cycler_limit=32`)).length / 1e6).toFixed(2)} MB)`,
);
const partsOverWhole = (pct(summary, 50) + pct(firstPage, 50)) / pct(endpoint, 50);
console.log(`summary + first page / whole tree: p50 ${partsOverWhole.toFixed(2)}×`);
// The board's grid view (every channel, as columns) against the whole tree, alternated in this run.
const GRID_PAIRS = Math.min(ITER, 10);
const [gridView, wholeAgain] = await timePair(
  GRID_PAIRS,
  () => get(`/projects/${project}/lab/status?view=grid`),
  () => get(`/projects/${project}/lab/status`),
);
const gridMb = (await get(`/projects/${project}/lab/status?view=grid`)).length / 1e6;
console.log(`GET lab/status?view=grid (whole lab)     ${fmt(gridView)}   (${gridMb.toFixed(2)} MB)`);
console.log(`GET lab/status, whole tree, alternated   ${fmt(wholeAgain)}`);
console.log(
  `grid view / whole tree (${GRID_PAIRS} pairs): p50 ${(pct(gridView, 50) / pct(wholeAgain, 50)).toFixed(2)}×, ` +
    `p95 ${(pct(gridView, 95) / pct(wholeAgain, 95)).toFixed(2)}×`,
);

const sched: Ctx = { exec, em, timePair, base, headers, project, org, user, apiKey: issued.api_key, time, pct, fmt };
const all304 = await conditionalStatus(sched, Math.max(ITER, 200));
await proposal(sched, planning, 500);
const oneWins = await concurrentSchedules(sched, planning, 50);
// The board against the API in a process of its own, as a browser meets it (bench/apiProcess.ts).
const boardApi = await startApiProcess({
  DATABASE_URL: pg.url,
  DATA_DIR: tmp,
  LOG_LEVEL: 'warn',
  TEMPORAL_ADDRESS: config.temporalAddress!,
  SIGNING_SECRET: 'bench-signing-secret-0123456789abcdef',
});
try {
  await boardInChromium({ ...sched, base: boardApi.url });
} finally {
  await boardApi.proc.stop();
}

// Baseline on this machine in this run: the cheapest authenticated call.
const health = await time(Math.max(ITER, 200), () => get('/auth/health'));
console.log(`baseline GET /auth/health  ${fmt(health)}`);
console.log(
  `host load average (1, 5, 15 min): ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} on ${os.cpus().length} cores`,
);

// GET /cyclers with q + two filters + sort.
const otherProject = (
  await exec(`select id from projects where organization_id = ? and name = 'bench project 3'`, [org])
)[0]!.id;
const query = {
  q: 'otter',
  manufacturer: 'ilike.%arb%',
  project_id: otherProject,
  order_by: 'calibration_due_at',
  order: 'asc',
  limit: '50',
};
const qs = new URLSearchParams(query).toString();
const list = await time(Math.max(ITER, 200), () => get(`/cyclers?${qs}`));
const page = JSON.parse(await get(`/cyclers?${qs}`));
console.log(
  `GET /cyclers?${decodeURIComponent(qs)}  ${fmt(list)}  (target p95 < 25 ms; ${page.count} items of ${page.total})`,
);
// A more selective q (part of one name) with the same filters and sort.
const narrow = new URLSearchParams({ ...query, q: 'otter-0003' }).toString();
const narrowTimes = await time(Math.max(ITER, 200), () => get(`/cyclers?${narrow}`));
console.log(
  `GET /cyclers?${decodeURIComponent(narrow)}  ${fmt(narrowTimes)}  ` +
    `(${JSON.parse(await get(`/cyclers?${narrow}`)).total} matches)`,
);
// All-organization page without q, sorted by name (the index order).
const plain = await time(Math.max(ITER, 200), () => get('/cyclers?order_by=name&limit=100&offset=5000'));
console.log(`GET /cyclers?order_by=name&limit=100&offset=5000  ${fmt(plain)}`);

// EXPLAIN the statements the endpoint runs.
const caller = { userId: user, email: '', organizationId: org, organizationName: '', isOwner: true, apiKeyPrefix: '' };
const parsed = parseList(query, CYCLER_LIST);
const m = textMatch(query.q, 'c.name', 'c.tsv');
const scope = [readableProjectsSql(caller, 'c.project_id'), { sql: m.where, params: m.whereParams }];
const where = whereSql([...scope.map((s) => s.sql), ...parsed.where]);
const params = [...scope.flatMap((s) => s.params), ...parsed.params];
let seqScan = false;
for (const [label, sql, ps] of [
  [
    'page',
    `select ${CYCLER_COLUMNS} from cyclers c ${where} ${parsed.orderSql} limit ? offset ?`,
    [...params, parsed.limit, parsed.offset],
  ],
  ['total', `select count(*) from cyclers c ${where}`, params],
] as const) {
  const plan = (await exec(`explain (analyze, costs off, timing off) ${sql}`, ps as unknown[])).map((r) =>
    String(r['QUERY PLAN']),
  );
  if (plan.some((l) => /Seq Scan on cyclers/.test(l))) seqScan = true;
  console.log(`EXPLAIN ${label}:\n  ${plan.join('\n  ')}`);
}
console.log(`sequential scan of cyclers: ${seqScan ? 'YES' : 'no'}`);

server.closeAllConnections();
server.close();
await orm.close();
await pg.stop();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(ok && !seqScan && all304 && oneWins ? 0 : 1);
