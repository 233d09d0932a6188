// What the fault bench checks once its load has stopped and every part is back: the work of
// each accepted request done exactly once (lost / duplicated), nothing left running past a
// bound (stuck), and storage and records agreeing (orphans both ways). Prints the figures.
import fs from 'node:fs';
import path from 'node:path';
import { openOrm, type Orm } from '../db/orm.ts';

export interface Accepted {
  measurements: string[];
  /** A simulation of each accepted sweep, and its number of points. */
  batches: { id: string; points: number }[];
  pipelines: { id: string; elements: number }[];
  projects: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every object key under the local storage root. */
function storedKeys(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)));
}

async function connect(url: string): Promise<Orm> {
  for (let i = 0; ; i++) {
    try {
      return await openOrm(url, { poolMax: 2 });
    } catch (err) {
      if (i > 60) throw err;
      await sleep(500);
    }
  }
}

export async function verify(opts: {
  databaseUrl: string;
  storageDir: string;
  orgId: string;
  accepted: Accepted;
  boundS: number;
}): Promise<{ failed: boolean }> {
  const { orgId, accepted } = opts;
  const orm = await connect(opts.databaseUrl);
  const q = <T>(sql: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(sql, params);
  const count = async (sql: string, params: unknown[] = []) => Number((await q<{ n: string }>(sql, params))[0]!.n);

  // Stuck: anything not terminal once the bound has passed.
  const unsettled = async () => ({
    jobs: await count(`select count(*) n from jobs where organization_id = ? and status in ('pending', 'running')`, [
      orgId,
    ]),
    measurements: await count(
      `select count(*) n from cell_measurements
        where organization_id = ? and processing_status in ('pending', 'running')`,
      [orgId],
    ),
    pipelines: await count(
      `select count(*) n from pipelines where organization_id = ? and status in ('pending', 'running')`,
      [orgId],
    ),
  });
  const started = Date.now();
  let open = await unsettled();
  while (Object.values(open).some(Boolean) && Date.now() - started < opts.boundS * 1000) {
    await sleep(1000);
    open = await unsettled();
  }
  const settleS = (Date.now() - started) / 1000;
  const stuck = open.jobs + open.measurements + open.pipelines;
  console.log(
    `settled ${settleS.toFixed(1)} s after the load (bound ${opts.boundS} s); still not terminal: ` +
      `${open.jobs} jobs, ${open.measurements} measurements, ${open.pipelines} pipelines`,
  );

  const lost: string[] = [];
  const duplicated: string[] = [];
  const stored = new Set(storedKeys(opts.storageDir));

  // Uploads: each processed to 'ready' once; its canonical series written once.
  const ms = accepted.measurements.length
    ? await q<{ id: string; status: string; error: string | null; key: string | null; prefix: string }>(
        `select id, processing_status status, processing_error error, time_series_key key,
           'orgs/' || organization_id || '/projects/' || project_id || '/measurements/' || id || '/' prefix
         from cell_measurements where id = any(?::uuid[])`,
        [`{${accepted.measurements.join(',')}}`],
      )
    : [];
  for (const id of accepted.measurements) {
    const m = ms.find((r) => r.id === id);
    if (!m || m.status !== 'ready') lost.push(`measurement ${id}: ${m ? `${m.status} ${m.error ?? ''}` : 'no record'}`);
  }
  for (const m of ms) {
    const series = [...stored].filter(
      (k) => k.startsWith(`${m.prefix}series/`) && k.endsWith('.parquet') && !k.endsWith('.overview.parquet'),
    );
    if (series.filter((k) => !k.includes('steps') && !k.includes('cycles')).length > 1) {
      duplicated.push(`measurement ${m.id}: ${series.length} series objects`);
    }
  }

  // Sweeps: every point completed once, counted once in usage.
  for (const { id, points } of accepted.batches) {
    const sims = await q<{ status: string; key: string | null }>(
      `select j.status, s.result_pack ->> 'key' as key from simulations s join jobs j on j.id = s.job_id
        where s.batch_id = (select batch_id from simulations where id = ?)`,
      [id],
    );
    const done = sims.filter((s) => s.status === 'completed' && s.key).length;
    if (done < points) lost.push(`sweep of ${id}: ${done} of ${points} points completed`);
    if (sims.length > points) duplicated.push(`sweep of ${id}: ${sims.length} simulations for ${points} points`);
  }
  const [usage] = await q<{ simulations: number }>(`select simulations from usage_counters where organization_id = ?`, [
    orgId,
  ]);
  const completedSims = await count(
    `select count(*) n from simulations s join jobs j on j.id = s.job_id
      where s.organization_id = ? and j.status = 'completed'`,
    [orgId],
  );
  if ((usage?.simulations ?? 0) > completedSims) {
    duplicated.push(`usage counts ${usage!.simulations} simulations for ${completedSims} completed`);
  }

  // Pipelines: completed, one job per element.
  for (const { id, elements } of accepted.pipelines) {
    const [p] = await q<{ status: string }>(`select status from pipelines where id = ?`, [id]);
    if (p?.status !== 'completed') lost.push(`pipeline ${id}: ${p?.status ?? 'no record'}`);
    const jobs = await count(`select count(*) n from jobs where workflow_id like ?`, [`pipeline-${id}-%`]);
    if (jobs > elements) duplicated.push(`pipeline ${id}: ${jobs} jobs for ${elements} elements`);
  }

  // Creates: each accepted name once.
  const names = await q<{ name: string; n: string }>(
    `select name, count(*) n from projects where organization_id = ? group by name`,
    [orgId],
  );
  for (const name of accepted.projects) {
    const n = Number(names.find((r) => r.name === name)?.n ?? 0);
    if (n === 0) lost.push(`project "${name}"`);
    if (n > 1) duplicated.push(`project "${name}" ×${n}`);
  }

  // Orphans: objects whose record is gone (or never came), records whose object is missing.
  const measurementIds = new Set(
    (await q<{ id: string }>(`select id from cell_measurements where organization_id = ?`, [orgId])).map((r) => r.id),
  );
  const sessions = new Set(
    (
      await q<{ id: string }>(
        `select measurement_id id from measurement_upload_sessions where organization_id = ? and confirmed_at is null`,
        [orgId],
      )
    ).map((r) => r.id),
  );
  const packs = new Set(
    (
      await q<{ key: string }>(
        `select distinct s.result_pack ->> 'key' as key from simulations s where s.organization_id = ?
          and s.result_pack is not null`,
        [orgId],
      )
    ).map((r) => r.key),
  );
  const orphans: string[] = [];
  let awaitingExpiry = 0;
  for (const key of stored) {
    const m = /^orgs\/[^/]+\/projects\/[^/]+\/measurements\/([^/]+)\//.exec(key);
    if (m) {
      if (measurementIds.has(m[1]!)) continue;
      if (sessions.has(m[1]!))
        awaitingExpiry++; // never confirmed: the upload expiry removes it
      else orphans.push(key);
      continue;
    }
    const pack = /^(.*\/simulation-batches\/.*)-(time_series|steps)\.parquet$/.exec(key);
    if (pack && packs.has(pack[1]!)) continue;
    orphans.push(key);
  }
  const missing: string[] = [];
  for (const m of ms) if (m.status === 'ready' && m.key && !stored.has(m.key)) missing.push(m.key);
  for (const k of packs) {
    for (const f of [`${k}-time_series.parquet`, `${k}-steps.parquet`]) if (!stored.has(f)) missing.push(f);
  }

  console.log(`lost: ${lost.length}, duplicated: ${duplicated.length}, stuck: ${stuck} (target 0/0/0)`);
  console.log(
    `orphans: ${orphans.length} objects without a record, ${missing.length} records without their object ` +
      `(${stored.size} objects; ${awaitingExpiry} of never-confirmed uploads, left to the upload expiry)`,
  );
  for (const line of [...lost, ...duplicated].slice(0, 10)) console.log(`  ${line}`);
  for (const key of [...orphans, ...missing].slice(0, 10)) console.log(`  orphan: ${key}`);
  await orm.close();
  return { failed: lost.length + duplicated.length + stuck + orphans.length + missing.length > 0 };
}
