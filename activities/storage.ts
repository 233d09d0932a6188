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

    /** Deletes these objects (a simulation's result pack: files beside other packs in one folder). */
    async deleteObjects(keys: string[]): Promise<number> {
      const unsafe = keys.find((key) => !/^orgs\/[0-9a-f-]{36}\/.+[^/]$/.test(key));
      if (unsafe !== undefined) {
        throw ApplicationFailure.nonRetryable(`refusing to delete unsafe key ${JSON.stringify(unsafe)}`, 'BAD_PREFIX');
      }
      for (const key of keys) await deps.storage.delete(key);
      return keys.length;
    },
  };
}
export type StorageActivities = ReturnType<typeof createStorageActivities>;
