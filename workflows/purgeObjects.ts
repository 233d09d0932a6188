// Deletes everything stored under a prefix, durably: a deleted project's or measurement's
// files go away even if the worker restarts halfway.
import { proxyActivities } from '@temporalio/workflow';
import type { StorageActivities } from '../activities/storage.ts';

const { deleteObjectsUnder } = proxyActivities<StorageActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 50 },
});

export interface PurgeObjectsInput {
  prefix: string;
}

export async function purgeObjects(input: PurgeObjectsInput): Promise<{ deleted: number }> {
  return { deleted: await deleteObjectsUnder(input.prefix) };
}
