// Side effects of the pipeline workflows: every element and pipeline state change (each one
// idempotent, guarded by the current status, so Temporal may retry it and a cancellation
// recorded by the API always wins), the Temporal operations a workflow cannot do itself
// (terminating other workflows), and the retry schedule.
import { randomUUID } from 'node:crypto';
import { heartbeat } from '@temporalio/activity';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../db/orm.ts';
import type { Config } from '../stack/config.ts';
import { cancelElements } from '../db/repositories/pipelines.ts';
import { JOB_CANCELED } from '../db/jobs.ts';
import {
  CANCEL_SIGNAL,
  RETRYABLE_ERROR_CODES,
  pipelineWorkflowIds,
  type FailureInfo,
  type ParameterValues,
} from '../workflows/pipelineIds.ts';
import type { RowStatus, WorkStatus } from '../workflows/statuses.ts';
import { eachLimited } from './eachLimited.ts';
import { type BeginElement, type PipelineElementState } from './pipelineRequests.ts';
import { type ElementRow, buildRun } from './pipelineRuns.ts';
import { createPipelineRetryActivities } from './pipelineRetries.ts';

const ACTIVE = `('pending', 'running')`;
/** Element type → the job type the Python client's usage breaks compute down by. */
const USAGE_TYPES: Record<string, string> = {
  data_fit: 'datafit',
  array_data_fit: 'datafit',
  validation: 'validation',
};

/** attempt_log with its last attempt closed by `fields` (SQL producing jsonb). */
const closedAttemptLog = (fields: string) => `case when jsonb_array_length(attempt_log) = 0 then attempt_log
  else jsonb_set(attempt_log, array[(jsonb_array_length(attempt_log) - 1)::text], (attempt_log -> -1)
    || ${fields}) end`;
/** attempt_log with a new attempt (number attempts + 1, started now) holding `fields`. */
const openedAttemptLog = (fields: string) =>
  `attempt_log || jsonb_build_array(jsonb_build_object('attempt', attempts + 1, 'started_at', now()) || ${fields})`;
const closeAttempt = (fields: string) => `attempt_log = ${closedAttemptLog(fields)}`;

/** A workflow that no longer runs (or never started) is not an error here. */
const ignoreNotFound = (err: unknown): false => {
  if (!(err instanceof WorkflowNotFoundError)) throw err;
  return false;
};

export function createPipelineActivities(deps: { orm: Orm; temporal: Client; config: Config }) {
  const fork = () => deps.orm.em.fork();
  return {
    /** Marks the pipeline running and answers its elements in order; a finished or canceled one is skipped. */
    async beginPipeline(
      pipelineId: string,
    ): Promise<{ kind: 'skip'; status: RowStatus } | { kind: 'run'; elements: PipelineElementState[] }> {
      return fork().transactional(async (em) => {
        const [p] = await em.execute<{ status: WorkStatus }[]>(`select status from pipelines where id = ? for update`, [
          pipelineId,
        ]);
        if (!p) return { kind: 'skip', status: 'deleted' };
        if (p.status !== 'pending' && p.status !== 'running') return { kind: 'skip', status: p.status };
        await em.execute(
          `update pipelines set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
            where id = ?`,
          [pipelineId],
        );
        const rows = await em.execute<
          {
            id: string;
            name: string;
            element_type: string;
            status: WorkStatus;
            result: { parameter_values?: ParameterValues } | null;
          }[]
        >(
          `select id, name, element_type, status, result from pipeline_elements where pipeline_id = ?
            order by position`,
          [pipelineId],
        );
        return {
          kind: 'run',
          elements: rows.map((r) => ({
            id: r.id,
            name: r.name,
            element_type: r.element_type,
            status: r.status,
            ...(r.result?.parameter_values ? { parameter_values: r.result.parameter_values } : {}),
          })),
        };
      });
    },

    /**
     * Starts a run of the element (a new attempt when it was pending) and answers what to run,
     * with stored data resolved; a canceled or finished element is skipped.
     */
    async beginElement(elementId: string, values: ParameterValues): Promise<BeginElement> {
      return fork().transactional(async (em) => {
        const [el] = await em.execute<ElementRow[]>(
          `select e.id, e.pipeline_id, e.name, e.element_type, e.config, e.status, e.job_id, p.organization_id,
            p.project_id
             from pipeline_elements e join pipelines p on p.id = e.pipeline_id where e.id = ? for update of e`,
          [elementId],
        );
        if (!el) return { kind: 'skip', status: 'deleted' };
        if (el.status !== 'pending' && el.status !== 'running') return { kind: 'skip', status: el.status };
        const run = await buildRun(em, el, values);
        if (el.status === 'pending') {
          await em.execute(
            `update pipeline_elements set status = 'running', attempts = attempts + 1,
              started_at = coalesce(started_at, now()), updated_at = now(),
                    attempt_log = ${openedAttemptLog(`jsonb_build_object('status', 'running')`)}
              where id = ?`,
            [elementId],
          );
          await em.execute(
            `update jobs set status = 'running', started_at = coalesce(started_at, now()), error = null,
              error_code = null, updated_at = now() where id = ?`,
            [el.job_id],
          );
        }
        return { kind: 'run', run };
      });
    },

    async completeElement(elementId: string, result: Record<string, unknown>): Promise<{ status: RowStatus }> {
      return fork().transactional(async (em) => {
        const rows = await em.execute<{ job_id: string; element_type: string; pipeline_id: string; kind: string }[]>(
          `update pipeline_elements set status = 'completed', result = ?, error_code = null, error_detail = null,
            finished_at = now(), updated_at = now(),
                  ${closeAttempt(`jsonb_build_object('finished_at', now(), 'status', 'completed')`)}
            where id = ? and status in ${ACTIVE}
            returning job_id, element_type, pipeline_id,
                      (select kind from pipelines p where p.id = pipeline_id) as kind`,
          [JSON.stringify(result), elementId],
        );
        if (!rows[0]) return currentElementStatus(em, elementId);
        await em.execute(
          `update jobs set status = 'completed', result = ?, error = null, error_code = null, finished_at = now(),
            updated_at = now() where id = ?`,
          [JSON.stringify(result), rows[0].job_id],
        );
        // The Python worker's time on a fit or validation counts as compute, by job type (an
        // optimization's fit as 'optimization', as the client's usage names it).
        const usageType = rows[0].kind === 'optimization' ? 'optimization' : USAGE_TYPES[rows[0].element_type];
        const seconds =
          typeof result.duration_s === 'number' && Number.isFinite(result.duration_s)
            ? Math.max(0, result.duration_s)
            : 0;
        if (usageType && seconds > 0) {
          await em.execute(
            `insert into usage_counters (organization_id, period_start, pipeline_compute_seconds)
             select organization_id, date_trunc('month', now() at time zone 'utc')::date, jsonb_build_object(?::text,
               ?::float8) from pipelines where id = ?
             on conflict (organization_id, period_start) do update
               set pipeline_compute_seconds = usage_counters.pipeline_compute_seconds
               || jsonb_build_object(?::text, coalesce((usage_counters.pipeline_compute_seconds ->> ?::text)::float8,
                 0) + ?::float8)`,
            [usageType, seconds, rows[0].pipeline_id, usageType, usageType, seconds],
          );
        }
        return { status: 'completed' };
      });
    },

    /** Records the failure: the full exception as a diagnostic event, only its type and a link on the element. */
    async failElement(elementId: string, failure: FailureInfo): Promise<{ status: RowStatus; error_code?: string }> {
      return fork().transactional(async (em) => {
        const eventId = randomUUID();
        const detail = {
          exception_type: failure.exception_type,
          error_code: failure.error_code,
          diagnostic_event_id: eventId,
          diagnostic_url: `/diagnostics/${eventId}`,
        };
        const outcome =
          `jsonb_build_object('finished_at', now(), 'status', 'failed', 'error_code', ?::text, ` +
          `'diagnostic_event_id', ?::text)`;
        // Failed before its run began (its data or source could not be read, or its workflow was
        // ended first): that is an attempt too, with its own entry, not the previous attempt's.
        const rows = await em.execute<{ job_id: string; pipeline_id: string; name: string; attempts: number }[]>(
          `update pipeline_elements set status = 'failed', error_code = ?, error_detail = ?, finished_at = now(),
            updated_at = now(),
                  attempts = attempts + case when status = 'pending' then 1 else 0 end,
                  attempt_log = case when status = 'pending'
                    then ${openedAttemptLog(outcome)} else ${closedAttemptLog(outcome)} end
            where id = ? and status in ${ACTIVE} returning job_id, pipeline_id, name, attempts`,
          [
            failure.error_code,
            JSON.stringify(detail),
            failure.error_code,
            eventId,
            failure.error_code,
            eventId,
            elementId,
          ],
        );
        const el = rows[0];
        if (!el) return currentElementStatus(em, elementId);
        await em.execute(
          `insert into diagnostic_events (id, organization_id, project_id, source_type, source_id, exception_type,
            error_code, message, stack_trace, context)
           select ?, p.organization_id, p.project_id, 'pipeline_element', ?, ?, ?, ?, ?, ? from pipelines p
             where p.id = ?`,
          [
            eventId,
            elementId,
            failure.exception_type,
            failure.error_code,
            failure.message,
            failure.stack_trace,
            JSON.stringify({ pipeline_id: el.pipeline_id, element_name: el.name, attempt: el.attempts }),
            el.pipeline_id,
          ],
        );
        await em.execute(
          `update jobs set status = 'failed', error = ?, error_code = ?, finished_at = now(), updated_at = now()
            where id = ?`,
          [`${failure.exception_type} (diagnostic event ${eventId})`, failure.error_code, el.job_id],
        );
        return { status: 'failed', error_code: failure.error_code };
      });
    },

    async cancelElement(elementId: string): Promise<void> {
      await fork().transactional(async (em) => {
        const rows = await em.execute<{ job_id: string }[]>(
          `update pipeline_elements set status = 'canceled', finished_at = now(), updated_at = now(),
                  ${closeAttempt(`jsonb_build_object('finished_at', now(), 'status', 'canceled')`)}
            where id = ? and status in ${ACTIVE} returning job_id`,
          [elementId],
        );
        if (rows[0]) {
          await em.execute(`update jobs set ${JOB_CANCELED} where id = ? and status in ${ACTIVE}`, [rows[0].job_id]);
        }
      });
    },

    /** Ends the pipeline unless it already ended (a cancellation recorded by the API stays). */
    async finishPipeline(
      pipelineId: string,
      outcome:
        | { status: 'completed'; result: unknown }
        | { status: 'failed'; failed_element_id: string }
        | { status: 'canceled' },
    ): Promise<{ status: RowStatus }> {
      const em = fork();
      let errorDetail: unknown = null;
      // Why the elements after a failed one will never run, when the retry schedule will not run them.
      let unrun: string | null = null;
      if (outcome.status === 'failed') {
        const [el] = await em.execute<
          { name: string; error_detail: Record<string, unknown> | null; error_code: string | null; attempts: number }[]
        >(`select name, error_detail, error_code, attempts from pipeline_elements where id = ?`, [
          outcome.failed_element_id,
        ]);
        errorDetail = { ...(el?.error_detail ?? {}), element_name: el?.name ?? null };
        // The retry schedule's own rule (claimRetryable).
        const retried =
          !!el &&
          (RETRYABLE_ERROR_CODES as readonly string[]).includes(el.error_code ?? '') &&
          el.attempts < deps.config.pipelineRetryMaxAttempts;
        if (!retried) unrun = `not run: an earlier element (${JSON.stringify(el?.name ?? '')}) failed`;
      }
      const rows = await em.transactional(async (tx) => {
        const ended = await tx.execute<{ status: WorkStatus }[]>(
          `update pipelines set status = ?, result = ?, error_detail = ?, finished_at = now(), updated_at = now(),
                  canceled_at = case when ? = 'canceled' then now() end
            where id = ? and status in ${ACTIVE} returning status`,
          [
            outcome.status,
            outcome.status === 'completed' ? JSON.stringify(outcome.result) : null,
            errorDetail && JSON.stringify(errorDetail),
            outcome.status,
            pipelineId,
          ],
        );
        // A canceled pipeline runs nothing more: its elements still pending end with it, jobs
        // included, as a bulk cancel leaves them (a failed one keeps them for its retries).
        if (ended[0]?.status === 'canceled') await cancelElements(tx, [pipelineId], `('pending')`);
        // A failed one that will not run again (not retried, or retries used up) runs none of them either, and says
        // why.
        if (ended[0]?.status === 'failed' && unrun) await cancelElements(tx, [pipelineId], `('pending')`, unrun);
        return ended;
      });
      if (rows[0]) return { status: rows[0].status };
      const [p] = await em.execute<{ status: WorkStatus }[]>(`select status from pipelines where id = ?`, [pipelineId]);
      return { status: p?.status ?? 'deleted' };
    },

    /**
     * Terminates each pipeline's running element workflows (every element that had started, or
     * the pending children Temporal reports) and signals the pipeline workflow to stop
     * scheduling. A child started in between finds its element canceled and ends at once.
     */
    async stopPipelineWorkflows(pipelineIds: string[]): Promise<{ terminated: number }> {
      const started = await fork().execute<{ pipeline_id: string; name: string }[]>(
        `select pipeline_id, name from pipeline_elements
          where pipeline_id in (select jsonb_array_elements_text(?::jsonb)::uuid) and started_at is not null
            and status = 'canceled'`,
        [JSON.stringify(pipelineIds)],
      );
      const startedBy = new Map<string, string[]>();
      for (const s of started) startedBy.set(s.pipeline_id, [...(startedBy.get(s.pipeline_id) ?? []), s.name]);
      let terminated = 0;
      let done = 0;
      await eachLimited(pipelineIds, 16, async (id) => {
        const parent = deps.temporal.workflow.getHandle(pipelineWorkflowIds.pipeline(id));
        const children = new Set((startedBy.get(id) ?? []).map((name) => pipelineWorkflowIds.element(id, name)));
        // Only when no element had started may a child be starting right now: ask Temporal then.
        if (!children.size) {
          const described = await parent.describe().catch(ignoreNotFound);
          if (described)
            for (const child of described.raw.pendingChildren ?? [])
              if (child.workflowId) children.add(child.workflowId);
        }
        // Together: whichever lands first, the pipeline ends canceled and its element terminated.
        await Promise.all([
          ...[...children].map(async (childId) => {
            if (
              await deps.temporal.workflow
                .getHandle(childId)
                .terminate('pipeline canceled')
                .then(() => true, ignoreNotFound)
            )
              terminated++;
          }),
          parent.signal(CANCEL_SIGNAL).catch(ignoreNotFound),
        ]);
        heartbeat({ done: ++done });
      });
      return { terminated };
    },
    ...createPipelineRetryActivities(deps),
  };
}

async function currentElementStatus(em: EntityManager, elementId: string): Promise<{ status: RowStatus }> {
  const [el] = await em.execute<{ status: WorkStatus }[]>(`select status from pipeline_elements where id = ?`, [
    elementId,
  ]);
  return { status: el?.status ?? 'deleted' };
}

export type PipelineActivities = ReturnType<typeof createPipelineActivities>;
