// One pipeline element as a child workflow with its own job: entries and calculations run
// here; fits and validations run on the Python worker, which heartbeats its progress and
// resumes from its last heartbeat when a worker is lost. Every outcome is recorded on the
// element and its job; a failure also captures a diagnostic event with the full exception.
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { PipelineActivities } from '../activities/pipelines.ts';
import type { FitWorkerActivities } from '../activities/pipelineRequests.ts';
import { CalculationError, runCalculation } from './calculations.ts';
import { statusAttribute } from './searchAttributes.ts';
import type { SearchStatus } from './statuses.ts';
import {
  RENAME_SIGNAL,
  fitTaskQueue,
  type ElementOutcome,
  type FailureInfo,
  type PipelineElementInput,
} from './pipelineIds.ts';
import { LOCAL_DATABASE_STEP } from './retryPolicies.ts';

// Short database steps run as local activities: no task-queue round trip per step, which is
// most of a pipeline's overhead around its fits.
const db = proxyLocalActivities<PipelineActivities>(LOCAL_DATABASE_STEP);

const USER_CODES = ['CONFIGURATION_ERROR', 'SOLVER_ERROR'];

function setStatus(status: SearchStatus) {
  upsertSearchAttributes([statusAttribute(status)]);
}

/** The exception type and failure code of an element failure; the message goes to the diagnostic only. */
export function describeFailure(err: unknown): FailureInfo {
  const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
  const stack = (e: unknown) => (e instanceof Error && e.stack ? e.stack : null);
  if (cause instanceof ApplicationFailure && USER_CODES.includes(cause.type ?? '')) {
    return { exception_type: cause.type!, error_code: cause.type!, message: cause.message, stack_trace: stack(cause) };
  }
  if (cause instanceof CalculationError) {
    return {
      exception_type: 'CalculationError',
      error_code: 'CONFIGURATION_ERROR',
      message: cause.message,
      stack_trace: stack(cause),
    };
  }
  if (cause instanceof TimeoutFailure) {
    return {
      exception_type: 'TimeoutFailure',
      error_code: 'WORKER_ERROR',
      message: `${cause.timeoutType}: ${cause.message}`,
      stack_trace: stack(cause),
    };
  }
  const type =
    cause instanceof ApplicationFailure
      ? (cause.type ?? 'ApplicationFailure')
      : cause instanceof Error
        ? cause.name
        : 'Error';
  return {
    exception_type: type,
    error_code: 'WORKER_ERROR',
    message: cause instanceof Error ? cause.message : String(cause),
    stack_trace: stack(cause),
  };
}

/** The pipeline's new name, for the memo (sent by the API to the pipeline, which passes it on). */
export const renamePipelineSignal = defineSignal<[string]>(RENAME_SIGNAL);

export async function pipelineElement(input: PipelineElementInput): Promise<ElementOutcome> {
  setHandler(renamePipelineSignal, (name) => upsertMemo({ pipeline_name: name }));
  // Elements begun before fits had a queue of their own keep the simulation queue.
  const worker = proxyActivities<FitWorkerActivities>({
    taskQueue: patched('fits-own-queue') ? fitTaskQueue(input.simulationTaskQueue) : input.simulationTaskQueue,
    startToCloseTimeout: '12 hours',
    heartbeatTimeout: `${input.heartbeatTimeoutSeconds} seconds`,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
    retry: {
      initialInterval: '1 second',
      maximumInterval: '30 seconds',
      maximumAttempts: 5,
      nonRetryableErrorTypes: USER_CODES,
    },
  });
  try {
    // Resolving the element's inputs may fail too (a measurement deleted since submission).
    const begin = await db.beginElement(input.elementId, input.parameterValues);
    if (begin.kind === 'skip') {
      setStatus(begin.status);
      return { status: begin.status };
    }
    setStatus('running');
    let result: Record<string, unknown>;
    switch (begin.run.type) {
      case 'entry':
        result = {
          parameter_values: begin.run.parameter_values,
          ...(begin.run.source_pipeline_id ? { source_pipeline_id: begin.run.source_pipeline_id } : {}),
        };
        break;
      case 'calculation':
        result = {
          calculation: begin.run.config.type,
          parameter_values: runCalculation(begin.run.config, input.parameterValues),
        };
        break;
      case 'data_fit':
        result = { ...(await worker.fitParameters(begin.run.request)) };
        break;
      case 'array_data_fit':
        result = { ...(await worker.fitParametersArray(begin.run.request)) };
        break;
      case 'validation':
        result = { ...(await worker.validateAgainstData(begin.run.request)) };
        break;
      case 'design_optimization':
        result = { ...(await worker.optimizeDesign(begin.run.request)) };
        break;
    }
    // A cancellation recorded meanwhile wins over the result.
    const end = await db.completeElement(input.elementId, result);
    setStatus(end.status);
    const values = result.parameter_values as Record<string, number> | undefined;
    return { status: end.status, ...(values ? { parameter_values: values } : {}) };
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => db.cancelElement(input.elementId));
      setStatus('canceled');
      throw err;
    }
    const end = await db.failElement(input.elementId, describeFailure(err));
    setStatus(end.status);
    return end;
  }
}
