// Two of bench/lab-status.ts's targets measured alone on a lab of 32,768 channels, without its
// 100,000-cycler organization (seconds to seed instead of minutes), each alternated with its
// baseline in the same run:
// - a conditional lab status of an unchanged lab answered early (conditionalLabStatus) against
//   the same request through the whole normal chain (the project id in upper case, which the
//   early handler leaves to canonicalIds and the route), and against GET /auth/health;
// - the auto-schedule proposal's reads as variants: the previous reads (every column as driver
//   rows, two statements side by side) against placementLab (only the columns placement needs,
//   two statements side by side); one JSON text per list in one statement was tried with this
//   script and was no faster than the previous reads (p50 369 against 349 ms, load 9-12).
// Run: bash stack/node.sh bench/lab-reads.ts
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
import { placementLab, projectBlocks } from '../db/repositories/plannedMeasurements.ts';
import { seedReservations } from './labScheduling.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-lab-reads-'));
fs.chmodSync(tmp, 0o755);
const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: await freePort(), database: 'bench' });
const orm = await openOrm(pg.url, { poolMax: 10 });
await migrate(orm);
const em = () => orm.em.fork();
const exec = (sql: string, params: unknown[] = []): Promise<Record<string, any>[]> => em().execute(sql, params);
const issued = await bootstrap(em(), `Lab reads ${Date.now()}`, `reads-${Date.now()}@lab.test`);
const [org, user] = [issued.organization_id, issued.user_id];
const [{ id: project }] = (await exec(
  `insert into projects (id, organization_id, name, created_by) values (gen_random_uuid(), ?, 'lab', ?) returning id`,
  [org, user],
)) as [{ id: string }];
await exec(
  `insert into sites (id, organization_id, name, created_by)
   select gen_random_uuid(), ?, 'site ' || g, ? from generate_series(0, 7) g`,
  [org, user],
);
await exec(
  `with s as (select id, row_number() over (order by name) - 1 as i from sites where organization_id = ?)
   insert into cyclers (id, organization_id, site_id, project_id, name, last_calibrated_at, calibration_interval_days,
     created_by)
   select gen_random_uuid(), ?, s.id, ?, 'cycler-' || lpad(g::text, 4, '0'), now() - (g % 300) * interval '1 day',
          90 + (g % 4) * 90, ?
     from generate_series(0, 511) g join s on s.i = g / 64`,
  [org, org, project, user],
);
await exec(
  `insert into channels (id, organization_id, project_id, cycler_id, name, max_amps, min_volts, max_volts, created_by)
   select gen_random_uuid(), c.organization_id, c.project_id, c.id, 'CH' || lpad(g::text, 2, '0'), 10, 2.5, 4.2, ?
     from cyclers c cross join generate_series(0, 63) g where c.project_id = ?`,
  [user, project],
);
await exec(
  `insert into cell_specifications (id, organization_id, project_id, name, created_by)
   values (gen_random_uuid(), ?, ?, 'INR21700', ?)`,
  [org, project, user],
);
await exec(
  `insert into cell_instances (id, organization_id, project_id, cell_specification_id, name, created_by)
   select gen_random_uuid(), ?, ?, (select id from cell_specifications where project_id = ?), 'cell', ?`,
  [org, project, project, user],
);
// Every other channel runs a measurement, as in lab-status.ts.
await exec(
  `with ch as (select id, row_number() over (order by id) - 1 as i from channels where project_id = ?)
   insert into cell_measurements (id, organization_id, project_id, cell_instance_id, name, measurement_type,
     channel_id, start_time, estimated_end_time, created_by)
   select gen_random_uuid(), ?, ?, (select id from cell_instances where project_id = ?), 'run ' || ch.i,
          'time_series', ch.id, now() - interval '3 days', now() + interval '2 days', ?
     from ch where ch.i % 2 = 0`,
  [project, org, project, project, user],
);
await seedReservations({ exec, org, project, user }, 20_000);
await exec('vacuum analyze');

const config = loadConfig({
  DATABASE_URL: pg.url,
  DATA_DIR: tmp,
  LOG_LEVEL: 'silent',
  TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
});
const storage = new FsStorage({
  root: path.join(tmp, 's'),
  secret: 'bench-signing-secret-0123456789abcdef',
  publicUrl: 'http://127.0.0.1',
});
const app = createApp({ config, orm, temporal: temporalClient(config), storage });
const server = createApiServer(app);
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const headers = { 'X-API-Key': issued.api_key, Accept: 'application/json' };

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms`;
async function once(fn: () => Promise<unknown>): Promise<number> {
  const s = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - s) / 1e6;
}
/** Round-robin over the variants, so that the host's load weighs on each alike. */
async function alternate(n: number, fns: (() => Promise<unknown>)[]): Promise<number[][]> {
  for (let i = 0; i < 3; i++) for (const f of fns) await f();
  const out = fns.map(() => [] as number[]);
  for (let i = 0; i < n; i++) for (const [k, f] of fns.entries()) out[k]!.push(await once(f));
  return out;
}
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');
console.log(`host load average (1, 5, 15 min) before: ${load()}`);

const status = `/projects/${project}/lab/status`;
const etagOf = async (p: string) => (await fetch(base + p, { headers })).headers.get('etag')!;
const tag = await etagOf(status);
const conditional = (p: string) => async () => {
  const res = await fetch(base + p, { headers: { ...headers, 'If-None-Match': tag } });
  await res.arrayBuffer();
  if (res.status !== 304) throw new Error(`${p}: ${res.status}`);
};
const [early, normal, health] = await alternate(300, [
  conditional(status),
  conditional(status.toUpperCase().replace('/PROJECTS/', '/projects/').replace('/LAB/STATUS', '/lab/status')),
  async () => (await fetch(`${base}/auth/health`, { headers })).arrayBuffer(),
]);
console.log(`304, answered early        ${fmt(early!)}`);
console.log(`304, through the chain     ${fmt(normal!)}`);
console.log(`GET /auth/health           ${fmt(health!)}`);
console.log(
  `early / chain: p50 ${(pct(early!, 50) / pct(normal!, 50)).toFixed(2)}×  p95 ` +
    `${(pct(early!, 95) / pct(normal!, 95)).toFixed(2)}×;  early / health: p50 ` +
    `${(pct(early!, 50) / pct(health!, 50)).toFixed(2)}×  p95 ${(pct(early!, 95) / pct(health!, 95)).toFixed(2)}×`,
);

const PREVIOUS_CHANNELS = `select ch.id, ch.name, ch.organization_id, ch.project_id, ch.cycler_id,
  cy.name as cycler_name, ch.out_of_commission, ch.service_event_id, ch.max_amps, ch.min_volts, ch.max_volts,
  (extract(epoch from cy.calibration_due_at) * 1000)::float8 as calibration_due_at
  from channels ch join cyclers cy on cy.id = ch.cycler_id join sites s on s.id = cy.site_id
  where ch.project_id = ? order by s.name, cy.name, ch.name, ch.id`;
const LEAN_CHANNELS = `select ch.id, ch.name, cy.name as cycler_name, ch.out_of_commission, ch.service_event_id,
  ch.max_amps, ch.min_volts, ch.max_volts, (extract(epoch from cy.calibration_due_at) * 1000)::float8 as
  calibration_due_at
  from channels ch join cyclers cy on cy.id = ch.cycler_id join sites s on s.id = cy.site_id
  where ch.project_id = ? order by s.name, cy.name, ch.name, ch.id`;
const [previous, lean] = await alternate(7, [
  () => Promise.all([exec(PREVIOUS_CHANNELS, [project]), projectBlocks(em(), project)]),
  () => placementLab(em(), project),
]);
const [channelsOnly, blocksOnly, leanChannels] = await alternate(7, [
  () => exec(PREVIOUS_CHANNELS, [project]),
  () => projectBlocks(em(), project),
  () => exec(LEAN_CHANNELS, [project]),
]);
console.log(`proposal reads, previous (rows, 2 statements)   ${fmt(previous!)}`);
console.log(`proposal reads, placementLab (lean rows, 2)    ${fmt(lean!)}`);
console.log(`  placementLab / previous: p50 ${(pct(lean!, 50) / pct(previous!, 50)).toFixed(2)}×`);
console.log(`  of the previous: channels ${fmt(channelsOnly!)}; blocks ${fmt(blocksOnly!)}`);
console.log(`  lean channel rows                             ${fmt(leanChannels!)}`);
console.log(`host load average (1, 5, 15 min) after: ${load()}`);

// Idle pool connections ended by the database's shutdown below are not an error of the bench.
process.on('uncaughtException', (err) => {
  if ((err as { code?: string }).code !== '57P01') throw err;
});
server.closeAllConnections();
server.close();
await (app.locals.stop as () => Promise<void>)();
await orm.close();
await pg.stop();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(0);
