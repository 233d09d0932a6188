// Jobs: the run of one simulation. Progress of a running job is read on demand from
// Temporal: the Python activity heartbeats {job_id, steps_done, steps_total} (a sweep's chunk:
// of the point it is solving), and the latest heartbeat is part of the workflow's
// pending-activity description. Nothing polls.
import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { RequestContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/simulations.ts';
import { cancelPendingElementOfJob } from '../../db/repositories/pipelines.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { readableSql } from './simulations/batches.ts';
import { isTemporalUnavailable } from '../../stack/temporalClient.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';
import { WORK_STATUSES, isTerminal } from '../../workflows/statuses.ts';

interface Progress {
  steps_done: number;
  steps_total: number;
  fraction: number;
  /** Waiting in the task queue for a free worker slot (a batch runs more jobs than the worker solves at once). */
  queued: boolean;
}

// temporal.api.enums.v1.PendingActivityState SCHEDULED: in the task queue, not yet taken by a worker.
const ACTIVITY_SCHEDULED = 1;

async function progressOf(ctx: RequestContext, job: repo.JobRow): Promise<Progress | undefined> {
  if (job.status !== 'running' || !job.workflow_id) return undefined;
  try {
    const { raw } = await ctx.temporal.workflow.getHandle(job.workflow_id).describe();
    const activities = raw.pendingActivities ?? [];
    const queued = activities.length > 0 && activities.every((a) => a.state === ACTIVITY_SCHEDULED);
    for (const activity of activities) {
      const payload = activity.heartbeatDetails?.payloads?.[0];
      if (!payload) continue;
      const d = defaultPayloadConverter.fromPayload<{
        job_id?: string | null;
        steps_done?: number;
        steps_total?: number;
      }>(payload as Payload);
      if (d?.job_id !== undefined && d.job_id !== job.id) continue; // a chunk solving another point of the batch
      const done = Number(d?.steps_done ?? 0);
      const total = Number(d?.steps_total ?? 0);
      return { steps_done: done, steps_total: total, fraction: total > 0 ? Math.min(1, done / total) : 0, queued };
    }
    return { steps_done: 0, steps_total: 0, fraction: 0, queued };
  } catch (err) {
    // The job is read from the database: while Temporal is down it is answered without progress.
    if (isTemporalUnavailable(err)) return undefined;
    // The workflow may not exist yet (a batch starts its children gradually).
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  return { steps_done: 0, steps_total: 0, fraction: 0, queued: false };
}

function present(job: repo.JobRow, progress: Progress | undefined) {
  const { id, error, error_code, result, workflow_id: _w, started_at, finished_at, ...rest } = job;
  const isFailed = job.status === 'failed' || job.status === 'canceled';
  // A failed answer always says why (wire conventions), also for jobs ended before every
  // cancel recorded its reason.
  const why = error ?? (isFailed ? job.status : null);
  return {
    job_id: id,
    ...rest,
    started_at: started_at?.toISOString() ?? null,
    finished_at: finished_at?.toISOString() ?? null,
    is_terminal: isTerminal(job.status),
    is_failed: isFailed,
    ...(why !== null ? { error: why } : {}),
    ...(error_code !== null ? { error_code } : {}),
    ...(result !== null ? { result } : {}),
    ...(progress ? { progress } : {}),
  };
}

async function loadJob(ctx: RequestContext, id: string, permission: string): Promise<repo.JobRow> {
  const job = await repo.findJob(ctx.em, id);
  if (!job) throw notFound('job', id);
  assertSameOrganization(ctx.caller, job.organization_id, 'job');
  if (job.project_id) await requireProjectPermission(ctx, job.project_id, permission);
  return job;
}

export async function getJob(ctx: RequestContext, id: string) {
  const job = await loadJob(ctx, id, 'simulation:read');
  return present(job, await progressOf(ctx, job));
}

const JOB_LIST = {
  columns: {
    project_id: { kind: 'id', sql: 'j.project_id' },
    status: { kind: 'enum', sql: 'j.status', values: WORK_STATUSES },
    job_type: { kind: 'text', sql: 'j.job_type' },
    error_code: { kind: 'text', sql: 'j.error_code' },
    created_at: { kind: 'date', sql: 'j.created_at' },
    updated_at: { kind: 'date', sql: 'j.updated_at' },
  },
  sortable: ['created_at', 'updated_at', 'status', 'priority'],
  defaultOrderBy: 'created_at',
  defaultOrder: 'desc',
  tieBreak: 'j.id',
} as const;

/** A plain array (the convention of GET /jobs/). */
export async function listJobs(ctx: RequestContext, query: Record<string, unknown>) {
  const list = parseList(query, JOB_LIST);
  const jobs = await repo.listJobs(ctx.em, readableSql(ctx, 'j'), list);
  return Promise.all(jobs.map(async (j) => present(j, await progressOf(ctx, j))));
}

/**
 * A simulation of a sweep is canceled in the database at once, pending or running: its chunk
 * skips it, or stops its solve at the next step, and its siblings go on. Otherwise a pending
 * job is canceled at once (its workflow skips it; a pipeline element's with its element, so the
 * pipeline ends canceled when it reaches it) and a running one by cancelling its workflow,
 * which stops the solve and then records the job as canceled.
 */
export async function cancelJob(ctx: RequestContext, id: string) {
  const job = await loadJob(ctx, id, 'simulation:update');
  // A resent cancel (a script retrying after a lost answer) gets the canceled job again.
  if (job.status === 'canceled') return present(job, undefined);
  if (isTerminal(job.status))
    throw conflict(`the job has already ended (${job.status})`, { job_id: id, status: job.status });
  if (job.job_type === 'simulation' && !simulationWorkflowIds.isLegacySimulation(job.workflow_id)) {
    const canceled = await repo.cancelOpenJob(ctx.em, id);
    const now = (await repo.findJob(ctx.em, id))!;
    // Not canceled here: it ended meanwhile (completed or failed), or another cancel won.
    if (!canceled && now.status !== 'canceled')
      throw conflict(`the job has already ended (${now.status})`, { job_id: id, status: now.status });
    return present(now, undefined);
  }
  // An element and its job are pending together (every element update changes both).
  const canceledPending = await ctx.em.transactional(async (em) => {
    if (job.job_type === 'pipeline_element') await cancelPendingElementOfJob(em, id);
    return repo.cancelPendingJob(em, id);
  });
  if (!canceledPending) {
    try {
      await ctx.temporal.workflow.getHandle(job.workflow_id!).cancel();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      await repo.markJobCanceled(ctx.em, id);
    }
  }
  const now = (await repo.findJob(ctx.em, id))!;
  return present(now, await progressOf(ctx, now));
}
