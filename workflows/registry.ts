// Every workflow the TypeScript worker runs (workflows/index.ts), by name. Whatever starts one
// by name (the start outbox, schedules) is checked against the workflow's own signature, so a
// renamed workflow or a changed input does not compile until every start follows.
import type * as workflows from './index.ts';

type Workflows = typeof workflows;
export type WorkflowName = keyof Workflows;
export type WorkflowArgs<N extends WorkflowName> = Parameters<Workflows[N]>;

/** A workflow named with its arguments, as a start or a schedule's action carries them. */
export interface WorkflowCall<N extends WorkflowName> {
  workflowType: N;
  args: WorkflowArgs<N>;
}

/** Any one workflow with its arguments (a union over the names, so each start is checked on its own). */
export type AnyWorkflowCall = { [N in WorkflowName]: WorkflowCall<N> }[WorkflowName];

export const workflowCall = <N extends WorkflowName>(workflowType: N, ...args: WorkflowArgs<N>): WorkflowCall<N> => ({
  workflowType,
  args,
});
