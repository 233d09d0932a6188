// Simulations and their results: lists, statuses, result files, and the organization's usage.
import { Readable } from 'node:stream';
import type { RequestContext } from '../../context.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import type { RequestBody } from '../../schemas.ts';
import { namedRecordList, parseList, type ListSpec } from '../../listQuery.ts';
import * as repo from '../../../db/repositories/simulations.ts';
import { ObjectNotFound } from '../../../storage/storage.ts';
import { assertSameOrganization, requireProjectPermission } from '../access.ts';
import { simulationFileFromPack } from '../resultPacks.ts';
import { UUID } from '../../values.ts';
import { readableSql } from './batches.ts';
import { WORK_STATUSES } from '../../../workflows/statuses.ts';

export async function loadSimulation(ctx: RequestContext, id: string): Promise<repo.SimulationRow> {
  const sim = await repo.findSimulation(ctx.em, id);
  if (!sim) throw notFound('simulation', id);
  assertSameOrganization(ctx.caller, sim.organization_id, 'simulation');
  if (sim.project_id) await requireProjectPermission(ctx, sim.project_id, 'simulation:read');
  return sim;
}

const SIM_LIST = {
  ...namedRecordList(
    {
      project_id: { kind: 'id', sql: 's.project_id' },
      batch_id: { kind: 'id', sql: 's.batch_id' },
      parameterized_model_id: { kind: 'id', sql: 's.parameterized_model_id' },
      experiment_template_id: { kind: 'id', sql: 'b.experiment_template_id' },
      status: { kind: 'enum', sql: 'j.status', values: WORK_STATUSES },
    },
    { alias: 's', tieBreak: 's.seq, s.id' },
  ),
  // The Python client pages up to 1000 and expects 100 by default.
  maxLimit: 1000,
} satisfies ListSpec;

// The Python client's state filter: failed includes canceled runs.
const STATE_STATUSES: Record<string, string> = {
  queued: 'in.(pending)',
  running: 'in.(running)',
  completed: 'in.(completed)',
  failed: 'in.(failed,canceled)',
};

/**
 * A page whose items are also under `simulations`, where the Python client reads them. With
 * summary=true each run's metrics are left out (the client's summary listing).
 */
export async function listSimulations(ctx: RequestContext, input: Record<string, unknown>) {
  const { state, summary, ...query } = input;
  if (typeof state === 'string') query.status = STATE_STATUSES[state];
  const list = parseList({ ...query, limit: query.limit ?? '100' }, SIM_LIST);
  const clauses = [readableSql(ctx, 's')];
  if (query.study_id !== undefined) {
    const studyId = String(query.study_id);
    if (!UUID.test(studyId))
      throw invalid(['query', 'study_id'], `"${studyId}" is not a UUID`, 'uuid_parsing', studyId);
    clauses.push({
      sql: 's.id in (select simulation_id from study_simulations where study_id = ?)',
      params: [studyId],
    });
  }
  const { items, total } = await repo.listSimulations(ctx.em, clauses, list);
  const shown = summary === 'true' ? items.map(({ metrics: _m, ...rest }) => rest) : items;
  return { items: shown, simulations: shown, count: items.length, total };
}

/**
 * POST /simulations/statuses: the job status of many simulations in one light request; ids
 * that are unknown or not readable are left out (the caller compares).
 */
export async function simulationStatuses(ctx: RequestContext, body: RequestBody<'simulationStatuses'>) {
  const ids = [...new Set(body.simulation_ids)].slice(0, body.limit ?? body.simulation_ids.length);
  const readable = readableSql(ctx, 's');
  const rows = await ctx.em.execute<
    { simulation_id: string; status: string; error: string | null; error_code: string | null; updated_at: Date }[]
  >(
    `select s.id as simulation_id, j.status, j.error, j.error_code, j.updated_at
       from simulations s join jobs j on j.id = s.job_id
      where s.id in (${ids.map(() => '?').join(', ')}) and ${readable.sql} order by s.seq, s.id`,
    [...ids, ...readable.params],
  );
  return rows.map((r) => ({ ...r, updated_at: r.updated_at.toISOString() }));
}

export const RESULT_FILES = { time_series: 'time_series.parquet', steps: 'steps.parquet' } as const;

/** A result file as a stream; 404 until the results are stored. */
export async function resultFile(
  ctx: RequestContext,
  id: string,
  kind: keyof typeof RESULT_FILES,
): Promise<{ stream: Readable; filename: string }> {
  const sim = await loadSimulation(ctx, id);
  if (!sim.storage_folder) {
    const why =
      sim.status === 'failed' || sim.status === 'canceled'
        ? `none were stored: its job ended ${sim.status}`
        : `they are not stored yet (status ${sim.status})`;
    throw new AppError('NOT_FOUND', `no results for simulation ${id}: ${why}`, { id, status: sim.status });
  }
  try {
    // A sweep's result: a byte range of its pack. Simulations stored before: their own folder.
    const pack = await repo.resultPack(ctx.em, id);
    const stream = pack
      ? Readable.from([await simulationFileFromPack(ctx.storage, pack, kind)])
      : await ctx.storage.get(sim.storage_folder + RESULT_FILES[kind]);
    return { stream, filename: `${id}-${RESULT_FILES[kind]}` };
  } catch (err) {
    if (err instanceof ObjectNotFound) throw notFound(`${kind} file of simulation`, id);
    throw err;
  }
}

export async function usage(ctx: RequestContext) {
  const row = await repo.usageThisMonth(ctx.em, ctx.caller.organizationId, ctx.config.simulationMonthlyLimit);
  // In hours, as the Python client reads them; the limit counts simulations, so it is given as a count.
  const hours = (seconds: unknown) => Math.round((Number(seconds ?? 0) / 3600) * 1e6) / 1e6;
  const byType: Record<string, number> = { simulation: hours(row.compute_seconds) };
  for (const [type, seconds] of Object.entries(row.pipeline_compute_seconds ?? {})) byType[type] = hours(seconds);
  return {
    organization_id: ctx.caller.organizationId,
    period_start: row.period_start,
    period_end: row.period_end,
    simulation: {
      usage: hours(row.simulated_seconds),
      limit: null,
      count: Number(row.simulations ?? 0),
      count_limit: Number(row.limit),
    },
    compute: {
      usage: Math.round(Object.values(byType).reduce((a, b) => a + b, 0) * 1e6) / 1e6,
      usage_by_type: byType,
      limit: null,
      unit: 'hours',
    },
  };
}
