// Builds every activity of the TypeScript worker from its dependencies.
import type { ObjectStorage } from '../storage/storage.ts';
import { createStorageActivities } from './storage.ts';

export interface ActivityDeps {
  storage: ObjectStorage;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createStorageActivities(deps),
  };
}
