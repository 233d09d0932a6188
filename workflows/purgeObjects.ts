// Deletes everything stored under a prefix, durably: a deleted project's or measurement's
// files go away even if the worker restarts halfway. The workflows still writing there (a
// measurement's processing) are ended first.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { ProjectActivities } from '../activities/projects.ts';
import type { StorageActivities } from '../activities/storage.ts';
import { UNTIL_DONE } from './retryPolicies.ts';

const { deleteObjectsUnder, deleteObjects } = proxyActivities<StorageActivities>({
  startToCloseTimeout: '10 minutes',
  retry: UNTIL_DONE,
});
const { terminateWorkflows } = proxyActivities<ProjectActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: UNTIL_DONE,
});

/**
 * How long an activity of a terminated workflow may still write: it learns of the end at its
 * next heartbeat, within the processing activity's heartbeat timeout (2 minutes).
 */
const STRAGGLER_MS = 150_000;

export interface PurgeObjectsInput {
  prefix: string;
  /** Ended before the purge (absent in purges started before this field existed: no new commands for them). */
  stopWorkflowIds?: string[];
  /**
   * Only these objects under the prefix (a deleted simulation's result pack, beside the packs
   * of others). Absent in purges started before this field existed: no new commands for them.
   */
  keys?: string[];
}

export async function purgeObjects(input: PurgeObjectsInput): Promise<{ deleted: number }> {
  if (input.keys) return { deleted: await deleteObjects(input.keys) };
  if (!input.stopWorkflowIds?.length) return { deleted: await deleteObjectsUnder(input.prefix) };
  const { terminated } = await terminateWorkflows(input.stopWorkflowIds, 'its data was deleted');
  let deleted = await deleteObjectsUnder(input.prefix);
  if (terminated) {
    // A terminated processing activity may write once more before it hears of the end.
    await sleep(STRAGGLER_MS);
    deleted += await deleteObjectsUnder(input.prefix);
  }
  return { deleted };
}
