// Data access of a sweep's TypeScript side: handing points to chunks (reusing identical stored
// results in bulk on the way) and settling a batch when its workflow ends. The Python worker
// records each chunk's outcomes itself (pyworker/cellar_worker/simulation/records.py).
import type { EntityManager } from '@mikro-orm/postgresql';
import { JOB_CANCELED } from './jobs.ts';

/** Where a batch's result packs go: under its organization and project, so purges find them. */
export function batchResultsFolder(organizationId: string, projectId: string | null, batchId: string): string {
  return projectId
    ? `orgs/${organizationId}/projects/${projectId}/simulation-batches/${batchId}/`
    : `orgs/${organizationId}/simulation-batches/${batchId}/`;
}

export interface ClaimedPage {
  /** Points to solve, in seq order (reused ones are already completed and left out). */
  points: { id: string; seq: number }[];
  /** The seq of the last point read, reused or not (null: none were left). */
  lastSeq: number | null;
  reused: number;
  /** Points still to run after this page. */
  pendingAfter: number;
  outputPrefix: string;
}

// One statement: the page of points whose jobs have not ended, and for each (unless the batch
// forces a rerun) the oldest identical stored result of the same organization and project,
// which completes it at once. A job canceled meanwhile is not touched (its row is re-checked).
const CLAIM_SQL = `
with b as (
  select id, organization_id, project_id, force_rerun from simulation_batches where id = ?
), pts as (
  select s.id, s.seq, s.job_id, s.content_hash
    from simulations s join jobs j on j.id = s.job_id
   where s.batch_id = ? and s.seq > ? and j.status in ('pending', 'running')
   order by s.seq limit ?
), prior as (
  select pts.id, pts.job_id, p.id as prior_id, p.storage_folder, p.result_pack, p.metrics, p.simulator_version
    from pts cross join b
    -- Key-share locked: a delete of that result waits for this reuse to commit (and then keeps
    -- its files), and a delete committed first leaves the row out (the point is solved anew).
    join lateral (
      select p.id, p.storage_folder, p.result_pack, p.metrics, p.simulator_version
        from simulations p
       where p.organization_id = b.organization_id and p.project_id is not distinct from b.project_id
         and p.content_hash = pts.content_hash and p.storage_folder is not null and p.id <> pts.id
       order by p.created_at limit 1 for key share of p
    ) p on true
   where not b.force_rerun
), rj as (
  update jobs j
     set status = 'completed', error = null, error_code = null, updated_at = now(),
         started_at = coalesce(j.started_at, now()), finished_at = now(),
         result = jsonb_build_object('simulation_id', prior.id, 'storage_folder', prior.storage_folder, 'metrics',
           prior.metrics,
                                     'reused', true, 'reused_from_simulation_id', prior.prior_id)
    from prior where j.id = prior.job_id and j.status in ('pending', 'running')
  returning j.id
), rs as (
  update simulations s
     set storage_folder = prior.storage_folder, result_pack = prior.result_pack, metrics = prior.metrics,
         simulator_version = prior.simulator_version, reused_from_simulation_id = prior.prior_id, updated_at = now()
    from prior join rj on rj.id = prior.job_id
   where s.id = prior.id
  returning s.id
)
select pts.id, pts.seq, (rs.id is not null) as reused, b.organization_id, b.project_id
  from pts cross join b left join rs on rs.id = pts.id
 order by pts.seq`;

export async function claimSweepPoints(
  em: EntityManager,
  batchId: string,
  afterSeq: number,
  limit: number,
): Promise<ClaimedPage> {
  const rows = await em.execute<
    { id: string; seq: number; reused: boolean; organization_id: string; project_id: string | null }[]
  >(CLAIM_SQL, [batchId, batchId, afterSeq, limit]);
  const lastSeq = rows.length ? rows[rows.length - 1]!.seq : null;
  const [after] = await em.execute<{ n: string }[]>(
    `select count(*) as n from simulations s join jobs j on j.id = s.job_id
      where s.batch_id = ? and s.seq > ? and j.status in ('pending', 'running')`,
    [batchId, lastSeq ?? afterSeq],
  );
  const [owner] = rows.length
    ? rows
    : await em.execute<{ organization_id: string; project_id: string | null }[]>(
        `select organization_id, project_id from simulation_batches where id = ?`,
        [batchId],
      );
  return {
    points: rows.filter((r) => !r.reused).map((r) => ({ id: r.id, seq: r.seq })),
    lastSeq,
    reused: rows.filter((r) => r.reused).length,
    pendingAfter: Number(after?.n ?? 0),
    outputPrefix: owner ? batchResultsFolder(owner.organization_id, owner.project_id, batchId) : '',
  };
}

/**
 * Ends the jobs of a batch that are still open when its workflow ends: canceled with a
 * canceled batch; failed otherwise (a safety net: every chunk records each of its points).
 */
export async function settleOpenJobs(
  em: EntityManager,
  batchId: string,
  how: 'completed' | 'canceled',
): Promise<number> {
  const set =
    how === 'canceled'
      ? JOB_CANCELED
      : `status = 'failed', error_code = 'WORKER_ERROR', ` +
        `error = 'the batch ended before this simulation was solved', ` +
        `updated_at = now(), finished_at = now()`;
  const rows = await em.execute(
    `update jobs set ${set} where id in (select job_id from simulations where batch_id = ?)
      and status in ('pending', 'running') returning id`,
    [batchId],
  );
  return rows.length;
}

/** A batch's jobs by outcome (reused results count as completed). */
export async function batchOutcomes(
  em: EntityManager,
  batchId: string,
): Promise<{ completed: number; failed: number; canceled: number }> {
  const rows = await em.execute<{ status: string; n: string }[]>(
    `select j.status, count(*) as n from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?
      group by j.status`,
    [batchId],
  );
  const n = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { completed: n('completed'), failed: n('failed'), canceled: n('canceled') };
}

/** The batch's owner, for its results folder (undefined once the batch is deleted). */
export async function batchOwner(
  em: EntityManager,
  batchId: string,
): Promise<{ organization_id: string; project_id: string | null } | undefined> {
  const [row] = await em.execute<{ organization_id: string; project_id: string | null }[]>(
    `select organization_id, project_id from simulation_batches where id = ?`,
    [batchId],
  );
  return row;
}

/** Which of these pack keys some simulation still names. */
export async function referencedPacks(em: EntityManager, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await em.execute<{ key: string }[]>(
    `select distinct result_pack ->> 'key' as key from simulations
      where result_pack ->> 'key' in (select jsonb_array_elements_text(?::jsonb))`,
    [JSON.stringify(keys)],
  );
  return new Set(rows.map((r) => r.key));
}
