// Queries for simulation batches, simulations, their jobs and the monthly usage counters.
// A batch is written with a handful of set-based statements whatever its size.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IJob } from '../entities/simulations.ts';
import { sql } from 'kysely';
import { whereSql, type ParsedList } from '../listSql.ts';
import { page } from './sqlRows.ts';
import { JOB_CANCELED } from '../jobs.ts';

export interface BatchInsert {
  id: string;
  organization_id: string;
  project_id: string | null;
  name: string;
  model_config: unknown;
  protocol: unknown;
  extra_variables: string[];
  max_backward_jumps: number | null;
  force_rerun: boolean;
  experiment_template_id: string | null;
  simulator_version: string;
  size: number;
  created_by: string;
}

export interface SimulationInsert {
  id: string;
  seq: number;
  job_id: string;
  name: string;
  parameterized_model_id: string | null;
  design_parameters: Record<string, number>;
  experiment_parameters: Record<string, number>;
  content_hash: string;
}

export const USAGE_PERIOD_SQL = `date_trunc('month', now() at time zone 'utc')::date`;

/** Adds `count` simulations to this month's usage and answers the new total and the limit. */
export async function addSimulationUsage(
  em: EntityManager,
  organizationId: string,
  count: number,
  defaultLimit: number,
): Promise<{ usage: number; limit: number }> {
  const [row] = await em.execute<{ simulations: number; limit: number }[]>(
    `with counter as (
       insert into usage_counters (organization_id, period_start, simulations) values (?, ${USAGE_PERIOD_SQL}, ?)
       on conflict (organization_id, period_start) do update
         set simulations = usage_counters.simulations + excluded.simulations
       returning simulations)
     select (select simulations from counter) as simulations,
            coalesce((select simulation_monthly_limit from organizations where id = ?), ?) as "limit"`,
    [organizationId, count, organizationId, defaultLimit],
  );
  return { usage: Number(row!.simulations), limit: Number(row!.limit) };
}

export async function usageThisMonth(em: EntityManager, organizationId: string, defaultLimit: number) {
  const [row] = await em.execute<
    {
      period_start: string;
      period_end: string;
      simulations: number | null;
      compute_seconds: number | null;
      pipeline_compute_seconds: Record<string, number> | null;
      simulated_seconds: number | null;
      limit: number;
    }[]
  >(
    `select to_char(${USAGE_PERIOD_SQL}, 'YYYY-MM-DD') as period_start,
            to_char(${USAGE_PERIOD_SQL} + interval '1 month', 'YYYY-MM-DD') as period_end,
            u.simulations, u.compute_seconds, u.pipeline_compute_seconds,
            -- Simulated battery time of the month's completed simulations (at most the monthly limit of them).
            (select sum((s.metrics ->> 'duration_s')::float8) from simulations s
              where s.organization_id = ? and s.created_at >= ${USAGE_PERIOD_SQL} and s.storage_folder is not null
                and jsonb_typeof(s.metrics -> 'duration_s') = 'number') as simulated_seconds,
            coalesce((select simulation_monthly_limit from organizations where id = ?), ?) as "limit"
       from (select 1) one
       left join usage_counters u on u.organization_id = ? and u.period_start = ${USAGE_PERIOD_SQL}`,
    [organizationId, organizationId, defaultLimit, organizationId],
  );
  return row!;
}

export async function insertBatch(
  em: EntityManager,
  b: BatchInsert,
  sims: SimulationInsert[],
  organizationId: string,
  projectId: string | null,
  userId: string,
): Promise<void> {
  await em.execute(
    `insert into simulation_batches (id, organization_id, project_id, name, model_config, protocol, extra_variables,
      max_backward_jumps,
       force_rerun, experiment_template_id, simulator_version, size, created_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      b.id,
      b.organization_id,
      b.project_id,
      b.name,
      JSON.stringify(b.model_config),
      JSON.stringify(b.protocol),
      JSON.stringify(b.extra_variables),
      b.max_backward_jumps,
      b.force_rerun,
      b.experiment_template_id,
      b.simulator_version,
      b.size,
      b.created_by,
    ],
  );
  // One statement for both tables, with the rows as a bound parameter: em.execute would
  // inline a multi-megabyte JSON literal into the SQL text, which costs seconds at 10,000 rows.
  await sql`with t as (
      select * from jsonb_to_recordset(${JSON.stringify(sims)}::jsonb) as t(id uuid, seq int, job_id uuid, name text,
        parameterized_model_id uuid, design_parameters jsonb, experiment_parameters jsonb, content_hash text)),
    j as (
      insert into jobs (id, organization_id, project_id, job_type, workflow_id, created_by)
      select t.job_id, ${organizationId}::uuid, ${projectId}::uuid, 'simulation', 'batch-'
        || ${b.id}::text, ${userId}::uuid from t)
    insert into simulations (id, organization_id, project_id, batch_id, seq, job_id, name, parameterized_model_id,
      design_parameters,
      experiment_parameters, content_hash, created_by)
    select t.id, ${organizationId}::uuid, ${projectId}::uuid, ${b.id}::uuid, t.seq, t.job_id, t.name,
      t.parameterized_model_id,
      t.design_parameters, t.experiment_parameters, t.content_hash, ${userId}::uuid from t`.execute(em.getKysely());
}

/**
 * Search documents of a whole batch in one statement. The batch workflow writes them as its
 * first step, off the submission's answer path (they cost about as much as the rows); a
 * repeated call changes nothing.
 */
export async function indexBatchSimulations(em: EntityManager, batchId: string): Promise<void> {
  await em.execute(
    `insert into search_documents (entity_type, entity_id, organization_id, project_id, parent_id, name, body)
     select 'simulation', s.id, s.organization_id, s.project_id, s.parameterized_model_id, s.name,
       s.design_parameters::text
       from simulations s where s.batch_id = ?
     on conflict (entity_type, entity_id) do nothing`,
    [batchId],
  );
}

export async function linkBatchToStudy(em: EntityManager, batchId: string, studyId: string): Promise<void> {
  await em.execute(
    `insert into study_simulations (study_id, simulation_id) select ?, id from simulations where batch_id = ?
      on conflict do nothing`,
    [studyId, batchId],
  );
}

export interface JobCounts {
  pending: number;
  running: number;
  completed: number;
  failed: number;
  canceled: number;
}

/** A batch as stored, with its simulations' jobs counted by status. */
export interface BatchRow extends BatchInsert {
  created_at: Date;
  jobs: JobCounts;
}

// The counts come through the simulations' batch_id index (json keeps the keys in this order).
const BATCH_COLUMNS = `b.id, b.organization_id, b.project_id, b.name, b.size, b.model_config, b.protocol,
  b.extra_variables,
  b.max_backward_jumps, b.force_rerun, b.experiment_template_id, b.simulator_version, b.created_by, b.created_at,
  (select json_build_object(
     'pending', count(*) filter (where j.status = 'pending'), 'running', count(*) filter (where j.status = 'running'),
     'completed', count(*) filter (where j.status = 'completed'), 'failed', count(*) filter (where j.status = 'failed'),
     'canceled', count(*) filter (where j.status = 'canceled'))
     from simulations s join jobs j on j.id = s.job_id where s.batch_id = b.id) as jobs`;

export async function findBatch(em: EntityManager, id: string): Promise<BatchRow | null> {
  const rows = await em.execute<BatchRow[]>(`select ${BATCH_COLUMNS} from simulation_batches b where b.id = ?`, [id]);
  return rows[0] ?? null;
}

export function listBatches(em: EntityManager, scope: { sql: string; params: unknown[] }, list: ParsedList) {
  return page<BatchRow>(em, { select: BATCH_COLUMNS, from: 'simulation_batches b', scope: [scope], list });
}

/** The workflow id one job of the batch names (a legacy batch's jobs name their own workflows). */
export async function firstJobWorkflowId(em: EntityManager, batchId: string): Promise<string | null> {
  const [row] = await em.execute<{ workflow_id: string | null }[]>(
    `select j.workflow_id from simulations s join jobs j on j.id = s.job_id where s.batch_id = ? order by s.seq
      limit 1`,
    [batchId],
  );
  return row?.workflow_id ?? null;
}

/** Cancels every job of a batch that has not ended, running ones too: their chunks stop them. */
export async function cancelOpenJobsOfBatch(em: EntityManager, batchId: string): Promise<void> {
  await em.execute(
    `update jobs set ${JOB_CANCELED} where id in (select job_id from simulations where batch_id = ?)
      and status in ('pending', 'running')`,
    [batchId],
  );
}

export interface SimulationRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  batch_id: string;
  job_id: string;
  name: string;
  status: string;
  parameterized_model_id: string | null;
  experiment_template_id: string | null;
  design_parameters: Record<string, number>;
  experiment_parameters: Record<string, number>;
  metrics: Record<string, number> | null;
  storage_folder: string | null;
  simulator_version: string | null;
  reused_from_simulation_id: string | null;
  content_hash: string;
  extra_variables: string[];
  max_backward_jumps: number | null;
  force_rerun: boolean;
  protocol: unknown;
  model: unknown;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

const SIM_SELECT = `select s.id, s.organization_id, s.project_id, s.batch_id, s.job_id, s.name, j.status,
  s.parameterized_model_id,
  b.experiment_template_id, s.design_parameters, s.experiment_parameters, s.metrics, s.storage_folder,
    s.simulator_version,
  s.reused_from_simulation_id, s.content_hash, b.extra_variables, b.max_backward_jumps, b.force_rerun, b.protocol,
    b.model_config as model,
  s.created_by, s.created_at, s.updated_at
  from simulations s join jobs j on j.id = s.job_id join simulation_batches b on b.id = s.batch_id`;

/** Where a sweep stored a simulation's results: the base name of a pack, and its rows in each file. */
export interface ResultPack {
  key: string;
  time_series: [firstRow: number, rows: number];
  steps: [firstRow: number, rows: number];
}

export async function resultPack(em: EntityManager, simulationId: string): Promise<ResultPack | null> {
  const [row] = await em.execute<{ result_pack: ResultPack | null }[]>(
    `select result_pack from simulations where id = ?`,
    [simulationId],
  );
  return row?.result_pack ?? null;
}

export async function findSimulation(em: EntityManager, id: string): Promise<SimulationRow | null> {
  const rows = await em.execute<SimulationRow[]>(`${SIM_SELECT} where s.id = ?`, [id]);
  return rows[0] ?? null;
}

export async function listSimulations(
  em: EntityManager,
  clauses: { sql: string; params: unknown[] }[],
  list: ParsedList,
): Promise<{ items: SimulationRow[]; total: number }> {
  const where = whereSql([...clauses.map((c) => c.sql), ...list.where]);
  const params = [...clauses.flatMap((c) => c.params), ...list.params];
  const [items, totals] = await Promise.all([
    em.execute<SimulationRow[]>(`${SIM_SELECT} ${where} ${list.orderSql} limit ? offset ?`, [
      ...params,
      list.limit,
      list.offset,
    ]),
    em.execute<{ total: string }[]>(
      `select count(*) as total from simulations s join jobs j on j.id = s.job_id
        join simulation_batches b on b.id = s.batch_id ${where}`,
      params,
    ),
  ]);
  return { items, total: Number(totals[0]?.total ?? 0) };
}

/** A job as stored (JOB_SELECT: every column), with the simulation it runs, if any. */
export type JobRow = Omit<Row<IJob>, 'status'> & { status: string; simulation_id: string | null };

const JOB_SELECT = `select j.id, j.organization_id, j.project_id, j.job_type, j.status, j.priority, j.workflow_id,
  j.error, j.error_code, j.result,
  (select s.id from simulations s
    where s.job_id = j.id) as simulation_id, j.created_by, j.created_at, j.updated_at, j.started_at, j.finished_at
  from jobs j`;

export async function findJob(em: EntityManager, id: string): Promise<JobRow | null> {
  const rows = await em.execute<JobRow[]>(`${JOB_SELECT} where j.id = ?`, [id]);
  return rows[0] ?? null;
}

export async function listJobs(
  em: EntityManager,
  scope: { sql: string; params: unknown[] },
  list: ParsedList,
): Promise<JobRow[]> {
  return em.execute<JobRow[]>(
    `${JOB_SELECT} ${whereSql([scope.sql, ...list.where])} ${list.orderSql} limit ? offset ?`,
    [...scope.params, ...list.params, list.limit, list.offset],
  );
}

/** The SET of every update that ends a job canceled (simulations and pipeline elements alike). */
/** What a job canceled by a person says. */

/** Cancels a job that has not started; false when it is already running or over. */
export async function cancelPendingJob(em: EntityManager, id: string): Promise<boolean> {
  const rows = await em.execute(`update jobs set ${JOB_CANCELED} where id = ? and status = 'pending' returning id`, [
    id,
  ]);
  return rows.length > 0;
}

/** Cancels a job that has not ended, running or not; false when it already had. */
export async function cancelOpenJob(em: EntityManager, id: string): Promise<boolean> {
  const rows = await em.execute(
    `update jobs set ${JOB_CANCELED} where id = ? and status in ('pending', 'running') returning id`,
    [id],
  );
  return rows.length > 0;
}

export async function markJobCanceled(em: EntityManager, id: string): Promise<void> {
  await em.execute(
    `update jobs set ${JOB_CANCELED} where id = ? and status not in ('completed', 'failed', 'canceled')`,
    [id],
  );
}

/** The batch an Idempotency-Key of this user named, and the request it came with. */
export async function findSubmissionKey(
  em: EntityManager,
  organizationId: string,
  userId: string,
  key: string,
): Promise<{ batch_id: string; request_hash: string } | undefined> {
  const [row] = await em.execute<{ batch_id: string; request_hash: string }[]>(
    `select batch_id, request_hash from submission_keys where organization_id = ? and user_id = ? and key = ?`,
    [organizationId, userId, key],
  );
  return row;
}

/** Fails with a unique violation when a concurrent request with the same key committed first. */
export async function insertSubmissionKey(
  em: EntityManager,
  k: { organizationId: string; userId: string; key: string; requestHash: string; batchId: string },
): Promise<void> {
  await em.execute(
    `insert into submission_keys (organization_id, user_id, key, request_hash, batch_id) values (?, ?, ?, ?, ?)`,
    [k.organizationId, k.userId, k.key, k.requestHash, k.batchId],
  );
}

/** A submission's answer: its simulations and jobs, in order. */
export async function batchAnswer(
  em: EntityManager,
  batchId: string,
): Promise<{ simulation_id: string; job_id: string }[]> {
  return em.execute(`select id as simulation_id, job_id from simulations where batch_id = ? order by seq`, [batchId]);
}
