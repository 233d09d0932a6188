// Scheduled retries of pipeline elements that failed for a retryable cause: the Temporal
// Schedule, and the activities its workflow runs (claim the pipelines, start them again).
import type { Client } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../db/orm.ts';
import type { Config } from '../stack/config.ts';
import { recordStarts, startRecorded, startWorkflow } from '../db/workflowStarts.ts';
import { RETRYABLE_ERROR_CODES, pipelineWorkflowIds, retryScheduleId } from '../workflows/pipelineIds.ts';
import { eachLimited } from './eachLimited.ts';
import { ensureSchedule } from './schedules.ts';
import { type PipelineRunRow, pipelineWorkflowStart } from '../workflows/pipelineStarts.ts';
import { workflowCall } from '../workflows/registry.ts';

/** The Temporal Schedule that retries failed elements. */
export function ensurePipelineRetrySchedule(client: Client, config: Config): Promise<string> {
  return ensureSchedule(client, {
    scheduleId: retryScheduleId(config.taskQueue),
    every: `${config.pipelineRetryIntervalSeconds} seconds`,
    workflow: {
      ...workflowCall('retryFailedElements', {
        taskQueue: config.taskQueue,
        maxAttempts: config.pipelineRetryMaxAttempts,
        backoffSeconds: config.pipelineRetryIntervalSeconds,
      }),
      workflowId: pipelineWorkflowIds.retryRun(config.taskQueue),
      taskQueue: config.taskQueue,
    },
    description:
      `Retries pipeline elements that failed for a retryable cause, ` +
      `at most ${config.pipelineRetryMaxAttempts} runs each`,
  });
}

export function createPipelineRetryActivities(deps: { orm: Orm; temporal: Client; config: Config }) {
  const fork = () => deps.orm.em.fork();
  return {
    /**
     * Moves pipelines back to pending whose failed element failed for a retryable cause, has
     * runs left and has waited out its backoff (base · 2^(attempts − 1)); answers their ids.
     */
    async claimRetryablePipelines(maxAttempts: number, backoffSeconds: number, limit: number): Promise<string[]> {
      return (await fork().transactional((em) => claimRetryable(em, maxAttempts, backoffSeconds, limit))).map(
        (p) => p.id,
      );
    },

    /**
     * Claims retryable pipelines and records their workflow starts in one transaction, then
     * starts them: a start that fails or never happens (the worker stopped) is made by the
     * start dispatcher, so a claimed pipeline never stays pending without a workflow.
     */
    async claimAndRestartPipelines(maxAttempts: number, backoffSeconds: number, limit: number): Promise<number> {
      const em = fork();
      const recorded = await em.transactional(async (tx) => {
        const claimed = await claimRetryable(tx, maxAttempts, backoffSeconds, limit);
        return recordStarts(
          tx,
          claimed.map((p) => pipelineWorkflowStart(deps.config, p, 'ALLOW_DUPLICATE')),
        );
      });
      if (recorded.length) await startRecorded({ temporal: deps.temporal, em }, recorded);
      return recorded.length;
    },

    async restartPipelines(pipelineIds: string[]): Promise<void> {
      const rows = await fork().execute<PipelineRunRow[]>(
        `select id, name, organization_id, project_id from pipelines
          where id in (select jsonb_array_elements_text(?::jsonb)::uuid) and status = 'pending'`,
        [JSON.stringify(pipelineIds)],
      );
      await eachLimited(rows, 16, (p) =>
        startWorkflow(deps.temporal, pipelineWorkflowStart(deps.config, p, 'ALLOW_DUPLICATE')),
      );
    },
  };
}

/** Failed pipelines with a retryable failed element past its backoff, set pending again (element, job, pipeline). */
async function claimRetryable(
  em: EntityManager,
  maxAttempts: number,
  backoffSeconds: number,
  limit: number,
): Promise<PipelineRunRow[]> {
  const rows = await em.execute<{ element_id: string; pipeline_id: string; job_id: string }[]>(
    `select e.id as element_id, e.pipeline_id, e.job_id from pipeline_elements e
      join pipelines p on p.id = e.pipeline_id
      where e.status = 'failed' and p.status = 'failed'
        and e.error_code in (${RETRYABLE_ERROR_CODES.map(() => '?').join(', ')})
        and e.attempts < ? and e.finished_at + make_interval(secs => ? * power(2, greatest(e.attempts - 1, 0))) <= now()
      order by e.finished_at limit ? for update of e, p skip locked`,
    [...RETRYABLE_ERROR_CODES, maxAttempts, backoffSeconds, limit],
  );
  if (!rows.length) return [];
  const json = (k: 'element_id' | 'pipeline_id' | 'job_id') => JSON.stringify(rows.map((r) => r[k]));
  await em.execute(
    `update pipeline_elements set status = 'pending', error_code = null, error_detail = null, finished_at = null,
      updated_at = now()
      where id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
    [json('element_id')],
  );
  await em.execute(
    `update jobs set status = 'pending', error = null, error_code = null, finished_at = null, updated_at = now()
      where id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
    [json('job_id')],
  );
  return em.execute<PipelineRunRow[]>(
    `update pipelines set status = 'pending', error_detail = null, finished_at = null, updated_at = now()
      where id in (select jsonb_array_elements_text(?::jsonb)::uuid) returning id, name, organization_id, project_id`,
    [json('pipeline_id')],
  );
}
