// DELETE /simulations/{id}: the simulation, its job and its search document go at once; work
// still running for it is stopped, and its stored results are purged by a workflow recorded
// with the delete, unless another simulation still reads them (a reuse of the same result).
import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import * as repo from '../../../db/repositories/simulationDeletes.ts';
import { findSimulation } from '../../../db/repositories/simulations.ts';
import { recordStarts, startRecorded, type WorkflowStart } from '../../../db/workflowStarts.ts';
import { simulationFolder } from '../../../activities/simulations.ts';
import { simulationWorkflowIds } from '../../../workflows/simulationIds.ts';
import { assertSameOrganization, requirePermissionInSomeProject, requireProjectPermission } from '../access.ts';
import { unindexEntity } from '../searchIndex.ts';
import { purgeKeysStart, purgeStart } from '../storedObjects.ts';

const OPEN = new Set(['pending', 'running']);

export async function deleteSimulation(ctx: RequestContext, id: string) {
  const found = await findSimulation(ctx.em, id);
  if (!found) throw notFound('simulation', id);
  assertSameOrganization(ctx.caller, found.organization_id, 'simulation');
  // A simulation without a project belongs to the organization, as it was submitted.
  if (found.project_id) await requireProjectPermission(ctx, found.project_id, 'simulation:delete');
  else await requirePermissionInSomeProject(ctx, 'simulation:delete');

  const starts = await ctx.em.transactional(async (em) => {
    const sim = await repo.lockSimulation(em, id);
    if (!sim) return []; // deleted meanwhile by another request
    const stopIds: string[] = [];
    if (OPEN.has(sim.job_status)) {
      if (simulationWorkflowIds.isLegacySimulation(sim.workflow_id)) {
        stopIds.push(sim.workflow_id!); // its own workflow, writing its own folder: ended by the purge
      } else if (sim.open_siblings === 0) {
        // The last open point of its batch: the batch's workflow has nothing else to do. Canceled
        // in this transaction, so a delete that Temporal cannot take changes nothing (503).
        await cancelBatchWorkflow(ctx, sim.batch_id);
      }
      // A point still in a chunk among others: the chunk finds its row gone at its next step,
      // stops solving it and records nothing for it; a pack left named by nobody is removed
      // when the batch ends.
    }
    await unindexEntity(em, 'simulation', id);
    await repo.deleteSimulationRow(em, sim);
    return recordStarts(em, await resultPurges(ctx, em, sim, stopIds));
  });
  await startRecorded(ctx, starts);
  return { id, deleted: true };
}

async function cancelBatchWorkflow(ctx: RequestContext, batchId: string): Promise<void> {
  try {
    await ctx.temporal.workflow.getHandle(simulationWorkflowIds.batch(batchId)).cancel();
  } catch (err) {
    // Not started yet (it will find nothing left to run) or already over.
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/** The purges of what only this (already deleted) simulation named. */
async function resultPurges(
  ctx: RequestContext,
  em: EntityManager,
  sim: repo.SimulationToDelete,
  stopIds: string[],
): Promise<WorkflowStart[]> {
  if (sim.result_pack) {
    const { key } = sim.result_pack;
    if (await repo.packStillNamed(em, key)) return [];
    // The pack lies in the folder of the batch that solved it (a reused result: another batch's).
    const folder = key.slice(0, key.lastIndexOf('/') + 1);
    if (!folder.startsWith(`orgs/${sim.organization_id}/`)) return [];
    const files = ['time_series', 'steps'].map((kind) => `${key}-${kind}.parquet`);
    return [purgeKeysStart(ctx.config, folder, key.slice(folder.length), files)];
  }
  // Nothing stored and nothing writing: nothing to purge.
  if (!sim.storage_folder && !stopIds.length) return [];
  // A result reused from another simulation lives in that one's folder: purged with the last reader.
  if (sim.storage_folder && (await repo.folderStillNamed(em, sim.storage_folder))) return [];
  const folder = sim.storage_folder ?? simulationFolder(sim.organization_id, sim.project_id, sim.id);
  if (!folder.startsWith(`orgs/${sim.organization_id}/`) || !folder.endsWith('/')) return [];
  return [purgeStart(ctx.config, folder, stopIds)];
}
