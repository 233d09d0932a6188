// Cancelling pipelines in bulk in one transaction, with the Temporal terminations handed to one
// background workflow.
import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context.ts';
import * as repo from '../../../db/repositories/pipelines.ts';
import { recordStarts, startRecorded } from '../../../db/workflowStarts.ts';
import { pipelineWorkflowIds } from '../../../workflows/pipelineIds.ts';
import { type PipelineKind, presentPipeline } from './presentation.ts';
import { loadPipeline } from './pipelineAccess.ts';

/** The cancel workflow's id: a hash of the request's sorted ids, so a retried request finds the first. */
export function cancelWorkflowId(ids: string[]): string {
  const sorted = [...new Set(ids.map((i) => i.toLowerCase()))].sort();
  return pipelineWorkflowIds.cancel(createHash('sha256').update(sorted.join(',')).digest('hex').slice(0, 32));
}

/**
 * Cancels the selected pipelines of the caller's organization in one transaction (pipelines
 * from any state; only non-terminal elements), then hands the Temporal side to one workflow.
 * Unknown ids and other organizations' are reported and never touched; so are pipelines in
 * projects where the caller may not update pipelines.
 */
export async function cancelPipelines(ctx: RequestContext, requested: string[]) {
  const ids = [...new Set(requested.map((i) => i.toLowerCase()))];
  const { outcome, recorded } = await ctx.em.transactional(async (em) => {
    const rows = await repo.findPipelines(em, ids, true);
    const own = rows.filter((r) => r.organization_id === ctx.caller.organizationId);
    const allowed = ctx.caller.isOwner
      ? new Set(own.map((r) => r.project_id))
      : await repo.projectsWithPermission(
          em,
          ctx.caller.userId,
          [...new Set(own.map((r) => r.project_id))],
          'pipeline:update',
        );
    const selected = own.filter((r) => allowed.has(r.project_id)).map((r) => r.id);
    if (selected.length) await repo.markCanceled(em, selected);
    // Another organization's pipeline is not found, as GET /pipelines/{id} answers it: its
    // existence is not told.
    const foundIds = new Set(own.map((r) => r.id));
    return {
      outcome: {
        canceled_pipeline_ids: selected,
        not_found_pipeline_ids: ids.filter((i) => !foundIds.has(i)),
        forbidden_pipeline_ids: own.filter((r) => !selected.includes(r.id)).map((r) => r.id),
      },
      // The Temporal side of the cancellation: the same request sent again finds this one.
      recorded: selected.length
        ? await recordStarts(em, [
            {
              workflowType: 'cancelPipelines',
              workflowId: cancelWorkflowId(ids),
              taskQueue: ctx.config.taskQueue,
              args: [{ pipelineIds: selected }],
              reusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
            },
          ])
        : [],
    };
  });
  await startRecorded(ctx, recorded);
  return outcome;
}

export async function cancelPipeline(ctx: RequestContext, id: string, kind?: PipelineKind) {
  await loadPipeline(ctx, id, 'pipeline:update', kind);
  await cancelPipelines(ctx, [id]);
  return presentPipeline((await repo.findPipeline(ctx.em, id))!);
}
