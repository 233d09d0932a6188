// Builds every activity of the TypeScript worker from its dependencies.
import type { Client } from '@temporalio/client';
import type { Orm } from '../db/orm.ts';
import type { Config } from '../stack/config.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import { createStorageActivities } from './storage.ts';
import { createSimulationActivities } from './simulations.ts';
import { createMeasurementActivities } from './measurements.ts';
import { createPipelineActivities } from './pipelines.ts';
import { createProjectActivities } from './projects.ts';
import { createUploadActivities } from './uploads.ts';

/** The clients activities are built from (Temporal samples style: factories taking their clients). */
export interface ActivityDeps {
  config: Config;
  orm: Orm;
  storage: ObjectStorage;
  temporal: Client;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createStorageActivities(deps),
    ...createSimulationActivities(deps),
    ...createMeasurementActivities(deps),
    ...createPipelineActivities(deps),
    ...createProjectActivities(deps),
    ...createUploadActivities(deps),
  };
}
