// MikroORM entities: Models, simulation batches and their simulations, jobs, boards, usage and submission keys.
// Generated once from the migrated schema; test/ormDrift.test.ts keeps them and the migrations in step.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps, createdAt } from './columns.ts';

export const Model = defineEntity({
  name: 'Model',
  tableName: 'models',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    user_id: p.uuid(),
    name: p.text(),
    description: p.text().nullable(),
    is_custom_model: p.boolean().default(false),
    chemistry: p.text().default('lithium_ion'),
    config: p.json<unknown>(),
    simulator_version: p.text(),
    ...timestamps,
  },
});
export type IModel = InferEntity<typeof Model>;

export const ParameterizedModel = defineEntity({
  name: 'ParameterizedModel',
  tableName: 'parameterized_models',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    model_id: p.uuid(),
    cell_spec_id: p.uuid().nullable(),
    name: p.text(),
    description: p.text().nullable(),
    parameters: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type IParameterizedModel = InferEntity<typeof ParameterizedModel>;

export const ModelDescription = defineEntity({
  name: 'ModelDescription',
  tableName: 'model_descriptions',
  properties: {
    key: p.text().primary(),
    description: p.json<unknown>(),
    ...createdAt,
  },
});
export type IModelDescription = InferEntity<typeof ModelDescription>;

export const SimulationBatch = defineEntity({
  name: 'SimulationBatch',
  tableName: 'simulation_batches',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid().nullable(),
    name: p.text(),
    model_config: p.json<unknown>(),
    protocol: p.json<unknown>(),
    extra_variables: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    max_backward_jumps: p.integer().nullable(),
    force_rerun: p.boolean().default(false),
    experiment_template_id: p.uuid().nullable(),
    simulator_version: p.text(),
    size: p.integer(),
    created_by: p.uuid(),
    ...createdAt,
  },
});
export type ISimulationBatch = InferEntity<typeof SimulationBatch>;

export const Simulation = defineEntity({
  name: 'Simulation',
  tableName: 'simulations',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid().nullable(),
    batch_id: p.uuid(),
    seq: p.integer(),
    job_id: p.uuid(),
    name: p.text(),
    parameterized_model_id: p.uuid().nullable(),
    design_parameters: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    experiment_parameters: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    content_hash: p.text(),
    storage_folder: p.text().nullable(),
    metrics: p.json<unknown>().nullable(),
    simulator_version: p.text().nullable(),
    reused_from_simulation_id: p.uuid().nullable(),
    created_by: p.uuid(),
    ...timestamps,
    result_pack: p.json<unknown>().nullable(),
    solve_attempts: p.smallint().default(0),
  },
});
export type ISimulation = InferEntity<typeof Simulation>;

export const SimulationBoard = defineEntity({
  name: 'SimulationBoard',
  tableName: 'simulation_boards',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    study_id: p.uuid(),
    name: p.text(),
    description: p.text().nullable(),
    simulation_ids: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    plots: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type ISimulationBoard = InferEntity<typeof SimulationBoard>;

export const Job = defineEntity({
  name: 'Job',
  tableName: 'jobs',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid().nullable(),
    job_type: p.text(),
    status: p.enum(['pending', 'running', 'completed', 'failed', 'canceled']).default('pending'),
    priority: p.integer().default(0),
    workflow_id: p.text().nullable(),
    error: p.text().nullable(),
    error_code: p.text().nullable(),
    result: p.json<unknown>().nullable(),
    created_by: p.uuid(),
    ...timestamps,
    started_at: p.datetime().nullable(),
    finished_at: p.datetime().nullable(),
  },
});
export type IJob = InferEntity<typeof Job>;

export const UsageCounter = defineEntity({
  name: 'UsageCounter',
  tableName: 'usage_counters',
  properties: {
    organization_id: p.uuid().primary(),
    period_start: p.date().primary(),
    simulations: p.integer().default(0),
    compute_seconds: p.double().default(0),
    /** The Python worker's seconds on pipeline elements, by element type. */
    pipeline_compute_seconds: p.json<Record<string, number>>().defaultRaw("'{}'::jsonb"),
  },
});
export type IUsageCounter = InferEntity<typeof UsageCounter>;

export const SubmissionKey = defineEntity({
  name: 'SubmissionKey',
  tableName: 'submission_keys',
  properties: {
    organization_id: p.uuid().primary(),
    user_id: p.uuid().primary(),
    key: p.text().primary(),
    request_hash: p.text(),
    batch_id: p.uuid(),
    ...createdAt,
  },
});
export type ISubmissionKey = InferEntity<typeof SubmissionKey>;

export const simulationsEntities = [
  Model,
  ParameterizedModel,
  ModelDescription,
  SimulationBatch,
  Simulation,
  SimulationBoard,
  Job,
  UsageCounter,
  SubmissionKey,
];
