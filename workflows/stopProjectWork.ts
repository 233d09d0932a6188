// The background half of DELETE /projects/{id}: the project's rows are already deleted; this
// ends the workflows that were running for it (named by the API from those rows before the
// delete), then sweeps what Temporal still lists for the project (a child started meanwhile).
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { ProjectActivities } from '../activities/projects.ts';
import { UNTIL_DONE } from './retryPolicies.ts';

const temporalOps = proxyActivities<ProjectActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: UNTIL_DONE,
});

export interface StopProjectWorkInput {
  projectId: string;
  /** Parents first (pipelines, batches), then their running children. */
  workflowIds: string[];
}

const SLICE = 100;
const REASON = 'project deleted';

export async function stopProjectWork(input: StopProjectWorkInput): Promise<{ terminated: number }> {
  let terminated = 0;
  for (let i = 0; i < input.workflowIds.length; i += SLICE) {
    terminated += (await temporalOps.terminateWorkflows(input.workflowIds.slice(i, i + SLICE), REASON)).terminated;
  }
  // Visibility lags a little behind starts and terminations.
  await sleep('3 seconds');
  const left = await temporalOps.runningProjectWorkflows(input.projectId);
  if (left.length) terminated += (await temporalOps.terminateWorkflows(left, REASON)).terminated;
  return { terminated };
}
