// LEGACY: batches started before sweeps ran in chunks (see workflows/simulationBatch.ts) still run
// one of these per simulation until they finish. New batches never start it.
//
// One simulation as a durable job: start the job (or reuse an identical stored result),
// solve on the Python worker, then record the result or the failure code. Cancelling this
// workflow cancels the solve (delivered to the Python activity through its heartbeat).
// The workflow ends the way its job does, so the Web UI's status is the job's: Completed,
// Failed (with the job's error code as the failure type) or Canceled. No search attribute
// repeats it: each upsert is one more visibility write per simulation, and those were about
// a sixteenth of the Temporal server's work in a sweep.
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { SimulationActivities, SimulationWorkerActivities } from '../../activities/simulations.ts';
import { SIMULATION_ERROR_CODES } from '../simulationIds.ts';
import { LOCAL_DATABASE_STEP } from '../retryPolicies.ts';

// The job's database updates are short, so they run as local activities: in this worker,
// without a round trip through a task queue for each (a batch runs thousands of them).
const db = proxyLocalActivities<SimulationActivities>(LOCAL_DATABASE_STEP);

export interface SimulationInput {
  simulationId: string;
  /** The Python worker's queue (workflows cannot read the configuration). */
  simulationTaskQueue: string;
}

export interface SimulationOutcome {
  /** completed, or the status of a job that had already ended (canceled before it began). */
  status: string;
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
  if (begin.kind === 'skip') return { status: begin.status };
  if (begin.kind === 'reused') return { status: 'completed' };
  const worker = proxyActivities<SimulationWorkerActivities>({
    taskQueue: input.simulationTaskQueue,
    startToCloseTimeout: '12 hours',
    // The worker heartbeats every couple of seconds; a lost worker is noticed within this.
    heartbeatTimeout: '1 minute',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: {
      initialInterval: '2 seconds',
      maximumInterval: '1 minute',
      maximumAttempts: 3,
      nonRetryableErrorTypes: [...SIMULATION_ERROR_CODES],
    },
  });
  try {
    const result = await worker.runSimulation(begin.request);
    await db.completeSimulation(input.simulationId, result);
    return { status: 'completed' };
  } catch (err) {
    // Cancelled, also when the solve then failed otherwise (its worker died before it saw the
    // cancel): in a cancelled workflow any other local activity is cancelled before it runs,
    // and the job would be left `running`.
    if (
      isCancellation(err) ||
      (CancellationScope.current().consideredCancelled && patched('cancel-after-failed-solve'))
    ) {
      await CancellationScope.nonCancellable(() => db.cancelSimulation(input.simulationId));
      throw isCancellation(err)
        ? err
        : new CancelledFailure('the job was canceled; its solve then failed', [], err as Error);
    }
    const { code, message } = classify(err);
    await db.failSimulation(input.simulationId, code, message);
    throw ApplicationFailure.nonRetryable(message, code);
  }
}
