// Queries for the workflow starts owed by committed changes (see db/workflowStarts.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IWorkflowStart } from '../entities/pipelines.ts';

/** What a start needs of its row (the retry bookkeeping columns stay in the table). */
export type WorkflowStartRow = Pick<Row<IWorkflowStart>, 'id' | 'workflow_id' | 'workflow_type' | 'task_queue'> & {
  args: unknown[];
  options: Record<string, unknown>;
};

/** Rows inserted now are left to the caller's own start until `graceSeconds` have passed. */
export async function insertStarts(em: EntityManager, rows: WorkflowStartRow[], graceSeconds: number): Promise<void> {
  if (!rows.length) return;
  await em.execute(
    `insert into workflow_starts (id, workflow_id, workflow_type, task_queue, args, options, next_attempt_at)
     values ${rows.map(() => `(?, ?, ?, ?, ?, ?, now() + make_interval(secs => ?))`).join(', ')}`,
    rows.flatMap((r) => [
      r.id,
      r.workflow_id,
      r.workflow_type,
      r.task_queue,
      JSON.stringify(r.args),
      JSON.stringify(r.options),
      graceSeconds,
    ]),
  );
}

export async function deleteStarts(em: EntityManager, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await em.execute(`delete from workflow_starts where id in (${ids.map(() => '?').join(', ')})`, ids);
}

/** Rows whose own request could not start them: due for the dispatcher now. */
export async function releaseStarts(em: EntityManager, ids: string[], error: string): Promise<void> {
  if (!ids.length) return;
  await em.execute(
    `update workflow_starts set last_error = ?, next_attempt_at = now() where id in (${ids.map(() => '?').join(', ')})`,
    [error.slice(0, 2000), ...ids],
  );
}

/** Due rows, locked for this transaction; rows another dispatcher holds are skipped. */
export async function claimDueStarts(
  em: EntityManager,
  limit: number,
  taskQueues?: string[],
): Promise<WorkflowStartRow[]> {
  return em.execute<WorkflowStartRow[]>(
    `select id, workflow_id, workflow_type, task_queue, args, options from workflow_starts
      where next_attempt_at <= now() ${
        taskQueues ? 'and task_queue in (select ' + 'jsonb_array_elements_text(?::jsonb))' : ''
      }
      order by next_attempt_at limit ? for update skip locked`,
    [...(taskQueues ? [JSON.stringify(taskQueues)] : []), limit],
  );
}

/** A failed start waits longer each time, at most five minutes (from now, not from the transaction's start). */
export async function postponeStart(em: EntityManager, id: string, error: string): Promise<void> {
  await em.execute(
    `update workflow_starts set attempts = attempts + 1, last_error = ?,
            next_attempt_at = clock_timestamp() + make_interval(secs => least(300, 5 * power(2, attempts)))
      where id = ?`,
    [error.slice(0, 2000), id],
  );
}
