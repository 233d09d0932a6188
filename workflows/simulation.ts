// One simulation as a durable job: start the job (or reuse an identical stored result),
// solve on the Python worker, then record the result or the failure code. Cancelling this
// workflow cancels the solve (delivered to the Python activity through its heartbeat).
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { SimulationActivities, SimulationWorkerActivities } from '../activities/simulations.ts';
import { CellarStatus } from './searchAttributes.ts';
import { SIMULATION_ERROR_CODES } from './simulationIds.ts';

// The job's database updates are short, so they run as local activities: in this worker,
// without a round trip through a task queue for each (a batch runs thousands of them).
const db = proxyLocalActivities<SimulationActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 30 },
});

export interface SimulationInput {
  simulationId: string;
  /** The Python worker's queue (workflows cannot read the configuration). */
  simulationTaskQueue: string;
}

export interface SimulationOutcome {
  status: string;
  error_code?: string;
}

function setStatus(status: string) {
  upsertSearchAttributes([{ key: CellarStatus, value: status }]);
}

/** The failure code and message of a failed solve. */
function classify(err: unknown): { code: string; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && (SIMULATION_ERROR_CODES as readonly string[]).includes(cause.type ?? '')) {
    return { code: cause.type!, message: cause.message };
  }
  return { code: 'WORKER_ERROR', message: cause instanceof Error ? cause.message : String(cause) };
}

export async function simulation(input: SimulationInput): Promise<SimulationOutcome> {
  const begin = await db.beginSimulation(input.simulationId);
  if (begin.kind === 'skip') {
    setStatus(begin.status);
    return { status: begin.status };
  }
  if (begin.kind === 'reused') {
    setStatus('completed');
    return { status: 'completed' };
  }
  // No 'running' status upsert: each upsert is a visibility write, and a running child is
  // already visible as such in the Web UI; CellarStatus records how it ended.
  const worker = proxyActivities<SimulationWorkerActivities>({
    taskQueue: input.simulationTaskQueue,
    startToCloseTimeout: '12 hours',
    // The worker heartbeats every couple of seconds; a lost worker is noticed within this.
    heartbeatTimeout: '1 minute',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 3, nonRetryableErrorTypes: [...SIMULATION_ERROR_CODES] },
  });
  try {
    const result = await worker.runSimulation(begin.request);
    await db.completeSimulation(input.simulationId, result);
    setStatus('completed');
    return { status: 'completed' };
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => db.cancelSimulation(input.simulationId));
      setStatus('canceled');
      throw err;
    }
    const { code, message } = classify(err);
    await db.failSimulation(input.simulationId, code, message);
    setStatus('failed');
    return { status: 'failed', error_code: code };
  }
}

export interface SimulationWorkerCallInput {
  activity: 'describeModel' | 'validateCustomModel';
  arg: unknown;
  simulationTaskQueue: string;
}

/** Runs one quick Python call (model description or custom-model check) for the API. */
export async function simulationWorkerCall(input: SimulationWorkerCallInput): Promise<unknown> {
  const worker = proxyActivities<SimulationWorkerActivities>({
    taskQueue: input.simulationTaskQueue,
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: 2, nonRetryableErrorTypes: [...SIMULATION_ERROR_CODES] },
  });
  return input.activity === 'describeModel' ? worker.describeModel(input.arg) : worker.validateCustomModel(input.arg);
}
