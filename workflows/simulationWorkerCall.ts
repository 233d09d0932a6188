// A quick Python call made for the API (a model description, a custom-model check or a model's
// Serialise document), run as a workflow so the call goes through the Python worker's own queue.
import { proxyActivities } from '@temporalio/workflow';
import type { SimulationWorkerActivities } from '../activities/simulations.ts';
import { SIMULATION_ERROR_CODES } from './simulationIds.ts';

export interface SimulationWorkerCallInput {
  activity: 'describeModel' | 'validateCustomModel' | 'serializeModel';
  arg: unknown;
  /** The Python worker's queue for these calls (`<SIMULATION_TASK_QUEUE>-models`). */
  simulationTaskQueue: string;
}

/** Runs one quick Python call (model description or custom-model check) for the API. */
export async function simulationWorkerCall(input: SimulationWorkerCallInput): Promise<unknown> {
  const worker = proxyActivities<SimulationWorkerActivities>({
    taskQueue: input.simulationTaskQueue,
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: 2, nonRetryableErrorTypes: [...SIMULATION_ERROR_CODES] },
  });
  if (input.activity === 'serializeModel') return worker.serializeModel(input.arg);
  return input.activity === 'describeModel' ? worker.describeModel(input.arg) : worker.validateCustomModel(input.arg);
}
