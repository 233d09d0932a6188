// MikroORM entities: Pipelines, their elements and the diagnostics they record; the workflow start outbox.
// Generated once from the migrated schema; test/ormDrift.test.ts keeps them and the migrations in step.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps, createdAt } from './columns.ts';

export const Pipeline = defineEntity({
  name: 'Pipeline',
  tableName: 'pipelines',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    kind: p.enum(['pipeline', 'simple', 'optimization']).default('pipeline'),
    name: p.text(),
    description: p.text().nullable(),
    status: p.enum(['pending', 'running', 'completed', 'failed', 'canceled']).default('pending'),
    options: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    result: p.json<unknown>().nullable(),
    error_detail: p.json<unknown>().nullable(),
    workflow_id: p.text(),
    created_by: p.uuid(),
    ...timestamps,
    started_at: p.datetime().nullable(),
    finished_at: p.datetime().nullable(),
    canceled_at: p.datetime().nullable(),
  },
});
export type IPipeline = InferEntity<typeof Pipeline>;

export const PipelineElement = defineEntity({
  name: 'PipelineElement',
  tableName: 'pipeline_elements',
  properties: {
    id: p.uuid().primary(),
    pipeline_id: p.uuid(),
    position: p.integer(),
    name: p.text(),
    element_type: p.enum(['entry', 'calculation', 'data_fit', 'array_data_fit', 'validation', 'design_optimization']),
    config: p.json<unknown>(),
    status: p.enum(['pending', 'running', 'completed', 'failed', 'canceled']).default('pending'),
    job_id: p.uuid(),
    workflow_id: p.text(),
    result: p.json<unknown>().nullable(),
    error_code: p.text().nullable(),
    error_detail: p.json<unknown>().nullable(),
    attempts: p.integer().default(0),
    attempt_log: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    ...timestamps,
    started_at: p.datetime().nullable(),
    finished_at: p.datetime().nullable(),
  },
});
export type IPipelineElement = InferEntity<typeof PipelineElement>;

export const DiagnosticEvent = defineEntity({
  name: 'DiagnosticEvent',
  tableName: 'diagnostic_events',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid().nullable(),
    source_type: p.text(),
    source_id: p.uuid(),
    exception_type: p.text(),
    error_code: p.text().nullable(),
    message: p.text(),
    stack_trace: p.text().nullable(),
    context: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    ...createdAt,
  },
});
export type IDiagnosticEvent = InferEntity<typeof DiagnosticEvent>;

export const WorkflowStart = defineEntity({
  name: 'WorkflowStart',
  tableName: 'workflow_starts',
  properties: {
    id: p.uuid().primary(),
    workflow_id: p.text(),
    workflow_type: p.text(),
    task_queue: p.text(),
    args: p.json<unknown>(),
    options: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    attempts: p.integer().default(0),
    last_error: p.text().nullable(),
    ...createdAt,
    next_attempt_at: p.datetime().defaultRaw('now()'),
  },
});
export type IWorkflowStart = InferEntity<typeof WorkflowStart>;

export const pipelinesEntities = [Pipeline, PipelineElement, DiagnosticEvent, WorkflowStart];
