// Names shared by the API, the activities and the pipeline workflows (deterministic, no imports
// of Node modules): workflow ids that read well in the Temporal Web UI, the cancel signal, the
// element failure codes and the shapes passed between them.
import type { RowStatus } from './statuses.ts';

export const pipelineWorkflowIds = {
  pipeline: (pipelineId: string) => `pipeline-${pipelineId}`,
  element: (pipelineId: string, elementName: string) => `pipeline-${pipelineId}-element-${elementName}`,
  /** One cancel workflow per request, named by a hash of the request's sorted ids. */
  cancel: (requestHash: string) => `cancel-pipelines-${requestHash}`,
  /** The retry run started by the schedule (the schedule appends the time). */
  retryRun: (taskQueue: string) => `pipeline-retries-${taskQueue}`,
};

/** The Temporal Schedule that retries failed elements; one per worker task queue. */
export const retryScheduleId = (taskQueue: string) => `pipeline-retries-${taskQueue}`;

/**
 * The queue of fits and validations on the Python worker: their own, so a long sweep on the
 * simulation queue never holds a fit back (pyworker/cellar_worker/main.py serves the same name).
 */
export const fitTaskQueue = (simulationTaskQueue: string) => `${simulationTaskQueue}-fits`;

export const CANCEL_SIGNAL = 'cancelPipeline';
/** Carries a pipeline's new name into its memo (and its running element's). */
export const RENAME_SIGNAL = 'renamePipeline';

export const ELEMENT_TYPES = ['entry', 'calculation', 'data_fit', 'array_data_fit', 'validation'] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];
/** Element types that run on the Python worker; a simple pipeline has at most one. */
export const WORKER_ELEMENT_TYPES: readonly string[] = ['data_fit', 'array_data_fit', 'validation'];

/** Failure codes: the user's configuration, the solver, or the infrastructure (a lost worker, a timeout). */
export const PIPELINE_ERROR_CODES = ['CONFIGURATION_ERROR', 'SOLVER_ERROR', 'WORKER_ERROR'] as const;
/** Failures worth retrying later: a configuration mistake fails the same way every time. */
export const RETRYABLE_ERROR_CODES = ['SOLVER_ERROR', 'WORKER_ERROR'] as const;

export type ParameterValues = Record<string, number>;

export interface PipelineInput {
  pipelineId: string;
  pipelineName: string;
  organizationId: string;
  projectId: string;
  /** From the configuration (workflows cannot read it). */
  simulationTaskQueue: string;
  heartbeatTimeoutSeconds: number;
}

export interface PipelineElementInput {
  pipelineId: string;
  pipelineName: string;
  elementId: string;
  elementName: string;
  elementType: string;
  /** Parameter values produced by the elements before this one. */
  parameterValues: ParameterValues;
  simulationTaskQueue: string;
  heartbeatTimeoutSeconds: number;
}

export interface ElementOutcome {
  status: RowStatus;
  parameter_values?: ParameterValues;
  error_code?: string;
}

/** What a failure was, for the diagnostic event; only the type and code reach error_detail. */
export interface FailureInfo {
  exception_type: string;
  error_code: string;
  message: string;
  stack_trace: string | null;
}

export interface RetryInput {
  taskQueue: string;
  maxAttempts: number;
  /** Base of the exponential backoff between attempts of one element. */
  backoffSeconds: number;
}
