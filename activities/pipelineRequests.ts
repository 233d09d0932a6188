// What the pipeline workflows hand the Python worker (fits, validations) and get back, and
// the state an element run starts from.
import { type ParameterValues } from '../workflows/pipelineIds.ts';
import type { RowStatus, WorkStatus } from '../workflows/statuses.ts';

/** Data for a fit: a stored canonical time series, or columns given inline. */
export type FitData = (
  { source: 'storage'; key: string } | { source: 'inline'; columns: Record<string, unknown[]> }
) & { time_range?: [number, number] };

export interface FitRequest {
  element_name: string;
  pipeline_id: string;
  job_id: string;
  series_prefix?: string;
  model: Record<string, unknown>;
  parameters: Record<string, { bounds: [number, number]; initial_value?: number }>;
  fixed_parameters: ParameterValues;
  data: FitData;
  protocol?: unknown;
  cost: string;
  target?: unknown;
  optimizer?: unknown;
}

export interface FitArrayRequest extends Omit<FitRequest, 'data' | 'protocol'> {
  independent_variable: string;
  /** weight: the data set's factor in the joint cost (default 1; a DataFit's objective_weights). */
  datasets: { value: number; data: FitData; protocol?: unknown; weight?: number }[];
  /** per_dataset: also fit each data set on its own (reported per key); the joint values go on. */
  mode?: 'joint' | 'per_dataset';
}

export interface ValidationRequest {
  element_name: string;
  pipeline_id: string;
  job_id: string;
  series_prefix?: string;
  model: Record<string, unknown>;
  parameter_values: ParameterValues;
  data: FitData;
  protocol?: unknown;
  target?: unknown;
}

/** A design optimization (pyworker cellar_worker/design/run.py): the config as stored, with its model spec. */
export interface DesignRequest {
  element_name: string;
  pipeline_id: string;
  job_id: string;
  model: Record<string, unknown>;
  protocol: unknown;
  parameters: Record<string, { initial: number; bounds: [number, number] }>;
  objective: { metric: string; aim?: string };
  constraints?: { metric: string; min?: number; max?: number }[];
  optimizer?: unknown;
}

export interface FitResult {
  parameter_values: ParameterValues;
  cost: number;
  iterations: number;
  converged: boolean;
  summary_stats?: Record<string, number>;
}

/** The activities the Python worker serves on the simulation task queue (same names there). */
export interface FitWorkerActivities {
  fitParameters(request: FitRequest): Promise<FitResult>;
  fitParametersArray(request: FitArrayRequest): Promise<FitResult>;
  validateAgainstData(request: ValidationRequest): Promise<{ summary_stats: Record<string, number> }>;
  optimizeDesign(request: DesignRequest): Promise<FitResult & { objective_value: number }>;
}

export type ElementRun =
  | { type: 'entry'; parameter_values: ParameterValues; source_pipeline_id?: string }
  | { type: 'calculation'; config: Record<string, unknown> }
  | { type: 'data_fit'; request: FitRequest }
  | { type: 'array_data_fit'; request: FitArrayRequest }
  | { type: 'validation'; request: ValidationRequest }
  | { type: 'design_optimization'; request: DesignRequest };

export type BeginElement = { kind: 'skip'; status: RowStatus } | { kind: 'run'; run: ElementRun };

export interface PipelineElementState {
  id: string;
  name: string;
  element_type: string;
  status: WorkStatus;
  parameter_values?: ParameterValues;
}
