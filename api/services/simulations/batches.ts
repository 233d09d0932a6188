// Simulation batches as submitted: listed, read with their jobs counted, canceled in one request.
import { WorkflowNotFoundError } from '@temporalio/client';
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { parseList, type ListSpec } from '../../listQuery.ts';
import * as repo from '../../../db/repositories/simulations.ts';
import { simulationWorkflowIds } from '../../../workflows/simulationIds.ts';
import { assertSameOrganization, readableProjectsSql, requireProjectPermission } from '../access.ts';

/** Simulations (and jobs) without a project belong to the whole organization. */
export function readableSql(ctx: RequestContext, alias: string) {
  const scope = readableProjectsSql(ctx.caller, `${alias}.project_id`);
  return {
    sql: `((${alias}.project_id is null and ${alias}.organization_id = ?) or ${scope.sql})`,
    params: [ctx.caller.organizationId, ...scope.params],
  };
}

async function loadBatch(ctx: RequestContext, id: string, permission: string): Promise<repo.BatchRow> {
  const batch = await repo.findBatch(ctx.em, id);
  if (!batch) throw notFound('simulation batch', id);
  assertSameOrganization(ctx.caller, batch.organization_id, 'simulation batch');
  if (batch.project_id) await requireProjectPermission(ctx, batch.project_id, permission);
  return batch;
}

/** A batch is over when none of its jobs is pending or running. */
const batchIsOver = (b: repo.BatchRow) => b.jobs.pending + b.jobs.running === 0;

/**
 * A batch as stored, with its jobs counted by status. Lists leave out the heavy model and
 * protocol (each simulation echoes them too).
 */
function presentBatch(b: repo.BatchRow, opts: { heavy: boolean } = { heavy: true }) {
  const { model_config: model, protocol, ...stored } = b;
  return { ...stored, ...(opts.heavy ? { model, protocol } : {}), is_terminal: batchIsOver(b) };
}

const BATCH_LIST: ListSpec = {
  columns: {
    name: { kind: 'text', sql: 'b.name' },
    project_id: { kind: 'id', sql: 'b.project_id' },
    created_at: { kind: 'date', sql: 'b.created_at' },
  },
  sortable: ['name', 'created_at'],
  defaultOrderBy: 'created_at',
  defaultOrder: 'desc',
  tieBreak: 'b.id',
};

/** The submissions the caller may read, newest first, each with its jobs counted. */
export async function listBatches(ctx: RequestContext, query: Record<string, unknown>) {
  const { items, count, total } = await repo.listBatches(ctx.em, readableSql(ctx, 'b'), parseList(query, BATCH_LIST));
  return { items: items.map((b) => presentBatch(b, { heavy: false })), count, total };
}

export async function getBatch(ctx: RequestContext, id: string) {
  return presentBatch(await loadBatch(ctx, id, 'simulation:read'));
}

/**
 * Cancels what is left of a batch: its workflow ends every job not yet ended within a second
 * or two and stops its chunks at their next step. Finished jobs keep their results. A batch
 * with nothing left answers as it is.
 */
export async function cancelBatch(ctx: RequestContext, id: string) {
  const batch = await loadBatch(ctx, id, 'simulation:update');
  if (!batchIsOver(batch)) {
    const legacy = simulationWorkflowIds.isLegacySimulation(await repo.firstJobWorkflowId(ctx.em, id));
    // One transaction around both: if Temporal cannot take the cancel, nothing changes (503).
    await ctx.em.transactional(async (em) => {
      // A sweep's workflow ends its open jobs itself, in one statement, as the first step of its
      // cancel (a 10,000-point batch is answered at once). A legacy batch's children end their
      // own jobs, so the ones not started yet are ended here.
      if (legacy) await repo.cancelOpenJobsOfBatch(em, id);
      try {
        await ctx.temporal.workflow.getHandle(simulationWorkflowIds.batch(id)).cancel();
      } catch (err) {
        // Not started yet (it will find nothing left to run) or already over.
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        if (!legacy) await repo.cancelOpenJobsOfBatch(em, id);
      }
    });
  }
  return presentBatch((await repo.findBatch(ctx.em, id))!);
}
