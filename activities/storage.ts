// Storage side effects for workflows.
import { ApplicationFailure } from '@temporalio/activity';
import type { ObjectStorage } from '../storage/storage.ts';

export function createStorageActivities(deps: { storage: ObjectStorage }) {
  return {
    async deleteObjectsUnder(prefix: string): Promise<number> {
      // A prefix must name a folder of one owner; an empty or root prefix would wipe everything.
      if (!/^orgs\/[0-9a-f-]{36}\/.+\/$/.test(prefix)) {
        throw ApplicationFailure.nonRetryable(
          `refusing to delete under unsafe prefix ${JSON.stringify(prefix)}`,
          'BAD_PREFIX',
        );
      }
      return deps.storage.deletePrefix(prefix);
    },
  };
}
export type StorageActivities = ReturnType<typeof createStorageActivities>;
