// Where each kind of work runs. The Python worker serves the simulation and measurement queues.
import type { Config } from '../stack/config.ts';

export const workflowIds = {
  purgeObjects: (prefix: string) => `purge-${prefix.replace(/\/$/, '').replaceAll('/', '-')}`,
};

export type TaskQueues = Pick<Config, 'taskQueue' | 'simulationTaskQueue' | 'measurementTaskQueue'>;
