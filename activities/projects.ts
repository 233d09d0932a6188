// The Temporal side of deleting a project: its rows are gone, so its running workflows
// (pipelines and their elements, simulation batches and their simulations) are ended here,
// by id and then by whatever Temporal still lists as running for the project.
import { heartbeat } from '@temporalio/activity';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { eachLimited } from './eachLimited.ts';

export function createProjectActivities(deps: { temporal: Client }) {
  return {
    /**
     * Terminates the workflows; one already closed (or never started) is skipped. Terminating
     * a pipeline terminates its running element (parent-close policy TERMINATE), a batch
     * requests cancellation of its simulations; a Python activity of a closed workflow is
     * cancelled at its next heartbeat.
     */
    async terminateWorkflows(workflowIds: string[], reason: string): Promise<{ terminated: number }> {
      let terminated = 0;
      let done = 0;
      await eachLimited(workflowIds, 16, async (id) => {
        try {
          await deps.temporal.workflow.getHandle(id).terminate(reason);
          terminated++;
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
        heartbeat({ done: ++done });
      });
      return { terminated };
    },

    /** Ids of the workflows Temporal lists as running for the project (its search attribute). */
    async runningProjectWorkflows(projectId: string): Promise<string[]> {
      const ids: string[] = [];
      const query = `CellarProject = '${projectId}' AND ExecutionStatus = 'Running'`;
      for await (const w of deps.temporal.workflow.list({ query })) ids.push(w.workflowId);
      return ids;
    },
  };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;
