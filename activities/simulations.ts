// Database and storage side effects of simulation workflows: which points a sweep's chunks
// get, how a batch is settled when it ends, and (for batches begun before sweeps ran in chunks)
// every job state change of the per-simulation workflow. Each one is idempotent, so Temporal
// may retry it freely.
import type { Orm } from '../db/orm.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import { indexBatchSimulations } from '../db/repositories/simulations.ts';
import { JOB_CANCELED } from '../db/jobs.ts';
import {
  batchOutcomes,
  batchOwner,
  batchResultsFolder,
  claimSweepPoints,
  referencedPacks,
  settleOpenJobs,
  type ClaimedPage,
} from '../db/sweeps.ts';
import type { ChunkOutcome } from '../workflows/sweepPlan.ts';

/** What the Python `solveChunk` activity takes: only ids and small values travel through Temporal. */
export interface ChunkRequest {
  batch_id: string;
  /** The chunk's number in its batch (names its result packs). */
  chunk: number;
  /** Where its result packs go. */
  output_prefix: string;
  simulation_ids: string[];
}

/** How a sweep ended: jobs it had to settle, packs it removed, and the batch's jobs by outcome. */
export interface SweepEnd {
  settled: number;
  orphanPacks: number;
  outcomes: { completed: number; failed: number; canceled: number };
}

/** The sweep activity the Python worker serves on the simulation task queue. */
export interface SweepWorkerActivities {
  solveChunk(request: ChunkRequest): Promise<ChunkOutcome>;
}

/** What the Python `runSimulation` activity takes (it rejects any other field). */
export interface SimulationRequest {
  simulation_id: string;
  model: unknown;
  protocol: unknown;
  inputs: Record<string, number>;
  extra_variables: string[];
  max_backward_jumps: number | null;
  output_prefix: string;
}

export interface SimulationResult {
  storage_folder: string;
  files: string[];
  metrics: Record<string, number>;
  simulator_version: string;
  cache_hit: boolean;
}

export interface ModelDescription {
  model: unknown;
  /** Variables of time alone: usable as result columns and fit targets. */
  variable_names: string[];
  /** Variables that vary in space as well. */
  spatial_variable_names: string[];
  parameter_names: string[];
  simulator_version: string;
}

/** The activities the Python worker serves on the simulation task queue. */
export interface SimulationWorkerActivities {
  runSimulation(request: SimulationRequest): Promise<SimulationResult>;
  describeModel(model: unknown): Promise<ModelDescription>;
  validateCustomModel(
    model: unknown,
  ): Promise<{ valid: boolean; error?: string; model?: unknown; simulator_version?: string }>;
  /** A model type the engine builds as pybamm's (compressed) Serialise document. */
  serializeModel(request: unknown): Promise<Record<string, unknown>>;
}

export type BeginOutcome =
  { kind: 'skip'; status: string } | { kind: 'reused'; from: string } | { kind: 'run'; request: SimulationRequest };

/** Where a simulation's result files go: under its organization and project, so purges find them. */
export function simulationFolder(organizationId: string, projectId: string | null, simulationId: string): string {
  return projectId
    ? `orgs/${organizationId}/projects/${projectId}/simulations/${simulationId}/`
    : `orgs/${organizationId}/simulations/${simulationId}/`;
}

const TERMINAL = `('completed', 'failed', 'canceled')`;

interface BeginRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  job_status: string;
  design_parameters: Record<string, number>;
  experiment_parameters: Record<string, number>;
  model_config: unknown;
  protocol: unknown;
  extra_variables: string[];
  max_backward_jumps: number | null;
  reused_from: string | null;
}

// Each job change is one statement (its own transaction): a batch makes thousands of them,
// and round trips to PostgreSQL were most of their cost. The job row is locked first, so a
// cancellation committed meanwhile is seen and the job is skipped.
const BEGIN_SQL = `
with sim as (
  select s.id, s.organization_id, s.project_id, s.job_id, j.status as job_status, s.content_hash, s.design_parameters,
         s.experiment_parameters, b.model_config, b.protocol, b.extra_variables, b.max_backward_jumps, b.force_rerun
    from simulations s join jobs j on j.id = s.job_id join simulation_batches b on b.id = s.batch_id
   where s.id = ? for update of j
), prior as (
  select p.id, p.storage_folder, p.metrics, p.simulator_version
    from simulations p, sim
   where sim.job_status in ('pending', 'running') and not sim.force_rerun
     and p.organization_id = sim.organization_id and p.project_id is not distinct from sim.project_id
     and p.content_hash = sim.content_hash and p.storage_folder is not null and p.id <> sim.id
   order by p.created_at limit 1 for key share of p -- a delete of that result waits for this reuse (db/sweeps.ts)
), reused as (
  update simulations s
     set storage_folder = prior.storage_folder, metrics = prior.metrics, simulator_version = prior.simulator_version,
         reused_from_simulation_id = prior.id, updated_at = now()
    from prior, sim where s.id = sim.id
  returning s.id
), job as (
  update jobs j
     set status = case when prior.id is null then 'running' else 'completed' end,
         result = case when prior.id is null then j.result else jsonb_build_object(
           'simulation_id', sim.id, 'storage_folder', prior.storage_folder, 'metrics', prior.metrics,
           'reused', true, 'reused_from_simulation_id', prior.id) end,
         started_at = coalesce(j.started_at, now()), updated_at = now(),
         finished_at = case when prior.id is null then j.finished_at else now() end
    from sim left join prior on true
   where j.id = sim.job_id and sim.job_status in ('pending', 'running')
  returning j.id
)
select sim.id, sim.organization_id, sim.project_id, sim.job_status, sim.design_parameters, sim.experiment_parameters,
       sim.model_config, sim.protocol, sim.extra_variables, sim.max_backward_jumps, (select id
         from prior) as reused_from
  from sim`;

const COMPLETE_SQL = `
with sim as (
  select s.id, s.organization_id, s.job_id from simulations s where s.id = ?
), stored as (
  update simulations s set storage_folder = ?, metrics = ?, simulator_version = ?, updated_at = now()
    from sim where s.id = sim.id
), job as (
  update jobs j set status = 'completed', result = ?, error = null, error_code = null, updated_at = now(),
    finished_at = now()
    from sim where j.id = sim.job_id
)
insert into usage_counters (organization_id, period_start, compute_seconds)
select organization_id, date_trunc('month', now() at time zone 'utc')::date, ?::double precision from sim
on conflict (organization_id, period_start) do update
  set compute_seconds = usage_counters.compute_seconds + excluded.compute_seconds`;

export function createSimulationActivities(deps: { orm: Orm; storage: ObjectStorage }) {
  const fork = () => deps.orm.em.fork();
  return {
    /** The next points of a sweep to hand to chunks; identical stored results complete others at once. */
    async claimSweepPoints(batchId: string, afterSeq: number, limit: number): Promise<ClaimedPage> {
      return claimSweepPoints(fork(), batchId, afterSeq, limit);
    },

    /** Ends a canceled sweep's open jobs, in one statement (the first step of its cancel). */
    async settleSweepJobs(batchId: string): Promise<number> {
      return settleOpenJobs(fork(), batchId, 'canceled');
    },

    /**
     * Ends what a finished or canceled sweep left open, then removes result packs that no
     * simulation names: those of a chunk attempt that died between writing a pack and
     * recording it, or whose points were all canceled meanwhile.
     */
    async finishSweep(batchId: string, how: 'completed' | 'canceled'): Promise<SweepEnd> {
      const em = fork();
      const settled = await settleOpenJobs(em, batchId, how);
      const outcomes = await batchOutcomes(em, batchId);
      const owner = await batchOwner(em, batchId);
      if (!owner) return { settled, orphanPacks: 0, outcomes };
      const keys = await deps.storage.list(batchResultsFolder(owner.organization_id, owner.project_id, batchId));
      // A pack is two files, <base>-time_series.parquet and <base>-steps.parquet; anything else
      // in the folder (a write cut short) is named by nobody.
      const base = (key: string) => key.replace(/-(time_series|steps)\.parquet$/, '');
      const named = await referencedPacks(em, [...new Set(keys.map(base))]);
      const orphans = keys.filter((k) => base(k) === k || !named.has(base(k)));
      for (const key of orphans) await deps.storage.delete(key);
      return { settled, orphanPacks: orphans.length, outcomes };
    },

    /**
     * Simulations of a batch after position `afterSeq`, in order, whose jobs have not ended: a
     * job canceled before its turn gets no workflow (one that would only end Completed, and
     * count as such in the Web UI).
     */
    async batchSimulationPage(
      batchId: string,
      afterSeq: number,
      limit: number,
    ): Promise<{ id: string; seq: number }[]> {
      return fork().execute<{ id: string; seq: number }[]>(
        `select s.id, s.seq from simulations s join jobs j on j.id = s.job_id
          where s.batch_id = ? and s.seq > ? and j.status in ('pending', 'running') order by s.seq limit ?`,
        [batchId, afterSeq, limit],
      );
    },

    async indexBatchSimulations(batchId: string): Promise<void> {
      await indexBatchSimulations(fork(), batchId);
    },

    /**
     * Starts a simulation's job: skipped when it was canceled (or already ended), completed at
     * once from an identical stored result unless the batch forces a rerun, otherwise marked
     * running and answered with the request for the Python worker.
     */
    async beginSimulation(simulationId: string): Promise<BeginOutcome> {
      const [sim] = await fork().execute<BeginRow[]>(BEGIN_SQL, [simulationId]);
      if (!sim) return { kind: 'skip', status: 'deleted' };
      if (sim.job_status !== 'pending' && sim.job_status !== 'running') return { kind: 'skip', status: sim.job_status };
      if (sim.reused_from) return { kind: 'reused', from: sim.reused_from };
      return {
        kind: 'run',
        request: {
          simulation_id: sim.id,
          model: sim.model_config,
          protocol: sim.protocol,
          inputs: { ...sim.experiment_parameters, ...sim.design_parameters },
          extra_variables: sim.extra_variables,
          max_backward_jumps: sim.max_backward_jumps,
          output_prefix: simulationFolder(sim.organization_id, sim.project_id, sim.id),
        },
      };
    },

    /** Stores the result and ends the job in one transaction: storage_folder is never behind the job. */
    async completeSimulation(simulationId: string, result: SimulationResult): Promise<void> {
      const jobResult = {
        simulation_id: simulationId,
        storage_folder: result.storage_folder,
        metrics: result.metrics,
        files: result.files,
        cache_hit: result.cache_hit,
        reused: false,
      };
      const seconds = Number(result.metrics.solve_time_s ?? 0);
      await fork().execute(COMPLETE_SQL, [
        simulationId,
        result.storage_folder,
        JSON.stringify(result.metrics),
        result.simulator_version,
        JSON.stringify(jobResult),
        Number.isFinite(seconds) ? seconds : 0,
      ]);
    },

    async failSimulation(simulationId: string, errorCode: string, message: string): Promise<void> {
      await fork().execute(
        `update jobs set status = 'failed', error_code = ?, error = ?, updated_at = now(), finished_at = now()
          where id = (select job_id from simulations where id = ?) and status not in ${TERMINAL}`,
        [errorCode, message, simulationId],
      );
    },

    /**
     * Ends the job canceled, and deletes what its solve may have written before the cancel
     * reached it (its worker finished, or died, just then): a canceled job keeps no files. Only
     * this simulation's own folder, and only while no result is recorded for it.
     */
    async cancelSimulation(simulationId: string): Promise<void> {
      const em = fork();
      await em.execute(
        `update jobs set ${JOB_CANCELED} where id = (select job_id from simulations where id = ?)
          and status not in ${TERMINAL}`,
        [simulationId],
      );
      const [sim] = await em.execute<{ organization_id: string; project_id: string | null }[]>(
        `select s.organization_id, s.project_id from simulations s join jobs j on j.id = s.job_id
          where s.id = ? and j.status = 'canceled' and s.storage_folder is null`,
        [simulationId],
      );
      if (sim) await deps.storage.deletePrefix(simulationFolder(sim.organization_id, sim.project_id, simulationId));
    },
  };
}
export type SimulationActivities = ReturnType<typeof createSimulationActivities>;
