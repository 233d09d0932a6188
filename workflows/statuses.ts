// Statuses of jobs, simulations, pipelines and pipeline elements: the one list, which the
// `status` enums of openapi.yaml repeat (test/statuses.test.ts holds them equal). Deterministic
// (workflows import it).
export const WORK_STATUSES = ['pending', 'running', 'completed', 'failed', 'canceled'] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];

/** The same statuses as the client's optimization lifecycle names them (Optimization.status). */
export const OPTIMIZATION_STATUSES = {
  pending: 'queued',
  running: 'running',
  completed: 'succeeded',
  failed: 'failed',
  canceled: 'canceled',
} as const satisfies Record<WorkStatus, string>;

export const TERMINAL_STATUSES = ['completed', 'failed', 'canceled'] as const satisfies readonly WorkStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];
export const isTerminal = (status: string): status is TerminalStatus =>
  (TERMINAL_STATUSES as readonly string[]).includes(status);

/** What a workflow reports of the row it works on: its status, or `deleted` when the row is gone. */
export type RowStatus = WorkStatus | 'deleted';

/** What the CellarStatus search attribute shows: a row's status, or a sweep that ended with failures. */
export type SearchStatus = RowStatus | 'completed_with_failures';
