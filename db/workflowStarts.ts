// Workflows that a database change sets going (a submitted batch, a created pipeline, the
// purge after a delete) are recorded in the change's own transaction and started right after
// it commits. If that start cannot be made (the API stopped in between, or Temporal was down),
// the row stays, and the worker's dispatcher starts it later: an accepted change never waits
// for a workflow that nobody started. Every start joins a running workflow of the same id,
// so starting twice is harmless.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { Orm } from './orm.ts';
import { logger } from '../stack/logger.ts';
import * as repo from './repositories/workflowStarts.ts';
import type { AnyWorkflowCall } from '../workflows/registry.ts';

type KeywordKey = ReturnType<typeof defineSearchAttributeKey<typeof SearchAttributeType.KEYWORD>>;

/**
 * A workflow's start: its name and arguments, checked against the workflow (workflows/registry.ts), and how to start
 * it.
 */
export type WorkflowStart = AnyWorkflowCall & {
  workflowId: string;
  taskQueue: string;
  /** Whether a closed run of the same id may be followed by a new one. */
  reusePolicy: 'ALLOW_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY' | 'REJECT_DUPLICATE';
  /** Keyword search attributes (ours all are). */
  searchAttributes?: { key: KeywordKey; value: string }[];
  memo?: Record<string, unknown>;
};

export type RecordedStart = WorkflowStart & { id: string };

// How long the request waits for its own start before leaving it to the dispatcher, and how
// long the dispatcher leaves a new row to its request (which may still be starting it).
const REQUEST_START_MS = 3_000;
const GRACE_SECONDS = 15;
const DISPATCH_START_MS = 10_000;

/** The error and its causes, as one line ("Failed to start Workflow" alone says little). */
function reason(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as Error | undefined; e && parts.length < 4; e = e.cause as Error | undefined)
    parts.push(e.message ?? String(e));
  return parts.join(': ');
}

/** Records starts in the caller's transaction; start them with startRecorded() once it commits. */
export async function recordStarts(em: EntityManager, starts: WorkflowStart[]): Promise<RecordedStart[]> {
  const recorded = starts.map((s) => ({ ...s, id: randomUUID() }));
  await repo.insertStarts(
    em,
    recorded.map((s) => ({
      id: s.id,
      workflow_id: s.workflowId,
      workflow_type: s.workflowType,
      task_queue: s.taskQueue,
      args: s.args,
      options: {
        reusePolicy: s.reusePolicy,
        memo: s.memo ?? null,
        searchAttributes: Object.fromEntries((s.searchAttributes ?? []).map(({ key, value }) => [key.name, value])),
      },
    })),
    GRACE_SECONDS,
  );
  return recorded;
}

/** Starts one workflow, or finds it running (or, by its reuse policy, already run). */
export async function startWorkflow(temporal: Client, start: WorkflowStart): Promise<void> {
  try {
    await temporal.workflow.start(start.workflowType, {
      taskQueue: start.taskQueue,
      workflowId: start.workflowId,
      args: start.args,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: WorkflowIdReusePolicy[start.reusePolicy],
      typedSearchAttributes: start.searchAttributes ?? [],
      ...(start.memo ? { memo: start.memo } : {}),
    });
  } catch (err) {
    // Its reuse policy refuses another run: the one that ran was this start.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Starts in order, each within `deadlineMs`, and stops at the first that fails: Temporal is
 * then likely unreachable, and the rest would wait just as long. Answers how many started.
 */
async function startInOrder(
  temporal: Client,
  starts: WorkflowStart[],
  deadlineMs: number,
): Promise<{ started: number; failure?: string }> {
  for (const [i, start] of starts.entries()) {
    try {
      await temporal.connection.withDeadline(Date.now() + deadlineMs, () => startWorkflow(temporal, start));
    } catch (err) {
      const failure = reason(err);
      logger.warn(
        { workflow_id: start.workflowId, err: failure },
        'workflow not started; the dispatcher will start it',
      );
      return { started: i, failure };
    }
  }
  return { started: starts.length };
}

/**
 * Starts what a committed transaction recorded, each within a few seconds; what cannot be
 * started now stays recorded for the dispatcher, and the request succeeds all the same.
 */
export async function startRecorded(
  deps: { temporal: Client; em: EntityManager },
  recorded: RecordedStart[],
): Promise<void> {
  const { started, failure } = await startInOrder(deps.temporal, recorded, REQUEST_START_MS);
  const ids = recorded.map((s) => s.id);
  // The change is committed whatever happens here: a row left behind is only started again,
  // which finds the workflow already there.
  try {
    await repo.deleteStarts(deps.em, ids.slice(0, started));
    if (failure) await repo.releaseStarts(deps.em, ids.slice(started), failure);
  } catch (err) {
    logger.warn({ err: reason(err) }, 'recorded workflow starts not updated; the dispatcher will see to them');
  }
}

/** Records starts in a transaction of their own and starts them. */
export async function recordAndStart(
  deps: { temporal: Client; em: EntityManager },
  starts: WorkflowStart[],
): Promise<void> {
  const recorded = await deps.em.transactional((em) => recordStarts(em, starts));
  await startRecorded(deps, recorded);
}

function fromRow(row: repo.WorkflowStartRow): WorkflowStart {
  const options = row.options as {
    reusePolicy: WorkflowStart['reusePolicy'];
    searchAttributes: Record<string, string>;
    memo: Record<string, unknown> | null;
  };
  // Rows are written only from typed starts (recordStarts); a workflow renamed since is an
  // old row's to fail at start, as it would with any worker.
  const call = { workflowType: row.workflow_type, args: row.args } as AnyWorkflowCall;
  return {
    ...call,
    workflowId: row.workflow_id,
    taskQueue: row.task_queue,
    reusePolicy: options.reusePolicy,
    searchAttributes: Object.entries(options.searchAttributes).map(([name, value]) => ({
      key: defineSearchAttributeKey(name, SearchAttributeType.KEYWORD),
      value,
    })),
    ...(options.memo ? { memo: options.memo } : {}),
  };
}

export interface DispatchOptions {
  limit?: number;
  /** Only starts on these task queues (test suites share one database, each with its own queues). */
  taskQueues?: string[];
}

/**
 * Starts the recorded starts that are due: left by a request that could not make them. Stops at
 * the first failure (Temporal is likely down) and postpones that row.
 */
export async function dispatchDueStarts(
  deps: { orm: Orm; temporal: Client },
  opts: DispatchOptions = {},
): Promise<{ started: number; failed: number }> {
  return deps.orm.em.fork().transactional(async (em) => {
    const rows = await repo.claimDueStarts(em, opts.limit ?? 100, opts.taskQueues);
    const { started, failure } = await startInOrder(deps.temporal, rows.map(fromRow), DISPATCH_START_MS);
    await repo.deleteStarts(
      em,
      rows.slice(0, started).map((r) => r.id),
    );
    if (failure) await repo.postponeStart(em, rows[started]!.id, failure);
    if (started) logger.info({ started }, 'started recorded workflows');
    return { started, failed: failure ? 1 : 0 };
  });
}

/** Runs dispatchDueStarts every `intervalMs` until stopped. */
export function runStartDispatcher(
  deps: { orm: Orm; temporal: Client },
  opts: DispatchOptions & { intervalMs?: number } = {},
): { stop(): Promise<void> } {
  const intervalMs = opts.intervalMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    round = dispatchDueStarts(deps, opts)
      .catch((err: unknown) => logger.error({ err: (err as Error).message }, 'workflow start dispatch failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
