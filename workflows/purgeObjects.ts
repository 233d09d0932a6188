// Deletes everything stored under a prefix, durably: a deleted project's or measurement's
// files go away even if the worker restarts halfway.
import { proxyActivities } from '@temporalio/workflow';
import type { StorageActivities } from '../activities/storage.ts';
import { UNTIL_DONE } from './retryPolicies.ts';

const { deleteObjectsUnder } = proxyActivities<StorageActivities>({
  startToCloseTimeout: '10 minutes',
  retry: UNTIL_DONE,
});

export interface PurgeObjectsInput {
  prefix: string;
}

export async function purgeObjects(input: PurgeObjectsInput): Promise<{ deleted: number }> {
  return { deleted: await deleteObjectsUnder(input.prefix) };
}
