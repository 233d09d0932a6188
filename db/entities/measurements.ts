// MikroORM entities: Cycling measurements, their uploads and watchers, studies that group measurements and
// simulations, raw data files and analyses.
// Generated once from the migrated schema; test/ormDrift.test.ts keeps them and the migrations in step.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps, createdAt } from './columns.ts';

export const CellMeasurement = defineEntity({
  name: 'CellMeasurement',
  tableName: 'cell_measurements',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    cell_instance_id: p.uuid(),
    name: p.text(),
    measurement_type: p.enum(['time_series', 'file', 'properties']),
    channel_id: p.uuid().nullable(),
    start_time: p.datetime().nullable(),
    end_time: p.datetime().nullable(),
    estimated_end_time: p.datetime().nullable(),
    protocol: p.json<unknown>().nullable(),
    program_name: p.text().nullable(),
    test_setup: p.json<unknown>().nullable(),
    notes: p.text().nullable(),
    properties: p.json<unknown>().nullable(),
    requested_by: p.uuid().nullable(),
    processing_status: p.enum(['pending', 'running', 'ready', 'failed']).default('ready'),
    processing_error: p.text().nullable(),
    data_updated_at: p.datetime().nullable(),
    created_by: p.uuid(),
    ...timestamps,
    time_series_key: p.text().nullable(),
    steps_key: p.text().nullable(),
    cycles_key: p.text().nullable(),
    filenames: p.json<unknown>().nullable(),
    data_version: p.integer().default(0),
    extending_version: p.integer().nullable(),
    row_count: p.bigint().nullable(),
    data_columns: p.json<unknown>().nullable(),
    first_time: p.double().nullable(),
    last_time: p.double().nullable(),
    steps_created: p.integer().default(0),
    validation_options: p.json<unknown>().nullable(),
    validation_report: p.json<unknown>().nullable(),
    processed_at: p.datetime().nullable(),
    protocol_id: p.uuid().nullable(),
    tags: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    planned_measurement_id: p.uuid().nullable(),
  },
});
export type ICellMeasurement = InferEntity<typeof CellMeasurement>;

export const MeasurementUploadSession = defineEntity({
  name: 'MeasurementUploadSession',
  tableName: 'measurement_upload_sessions',
  properties: {
    id: p.uuid().primary(),
    measurement_id: p.uuid(),
    kind: p.enum(['upload', 'extend']),
    version: p.integer().default(0),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    cell_instance_id: p.uuid(),
    measurement_type: p.enum(['time_series', 'file']),
    measurement: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    targets: p.json<unknown>(),
    expires_at: p.datetime(),
    confirmed_at: p.datetime().nullable(),
    created_by: p.uuid(),
    ...createdAt,
  },
});
export type IMeasurementUploadSession = InferEntity<typeof MeasurementUploadSession>;

export const MeasurementWatch = defineEntity({
  name: 'MeasurementWatch',
  tableName: 'measurement_watches',
  properties: {
    user_id: p.uuid().primary(),
    measurement_id: p.uuid().primary(),
    project_id: p.uuid(),
    ...createdAt,
  },
});
export type IMeasurementWatch = InferEntity<typeof MeasurementWatch>;

export const Study = defineEntity({
  name: 'Study',
  tableName: 'studies',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    name: p.text(),
    description: p.text().nullable(),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type IStudy = InferEntity<typeof Study>;

export const StudyMeasurement = defineEntity({
  name: 'StudyMeasurement',
  tableName: 'study_measurements',
  properties: {
    study_id: p.uuid().primary(),
    measurement_id: p.uuid().primary(),
    ...createdAt,
  },
});
export type IStudyMeasurement = InferEntity<typeof StudyMeasurement>;

export const StudySimulation = defineEntity({
  name: 'StudySimulation',
  tableName: 'study_simulations',
  properties: {
    study_id: p.uuid().primary(),
    simulation_id: p.uuid().primary(),
    ...createdAt,
  },
});
export type IStudySimulation = InferEntity<typeof StudySimulation>;

export const RawData = defineEntity({
  name: 'RawData',
  tableName: 'raw_data',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    name: p.text(),
    filename: p.text(),
    content_type: p.text(),
    source: p.text().nullable(),
    metadata: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    object_key: p.text(),
    max_bytes: p.bigint(),
    size_bytes: p.bigint().nullable(),
    expires_at: p.datetime(),
    confirmed_at: p.datetime().nullable(),
    created_by: p.uuid(),
    created_at: p.datetime().defaultRaw('now()'),
    updated_at: p.datetime().defaultRaw('now()'),
  },
});
export type IRawData = InferEntity<typeof RawData>;

export const CellMeasurementRawData = defineEntity({
  name: 'CellMeasurementRawData',
  tableName: 'cell_measurement_raw_data',
  properties: {
    cell_measurement_id: p.uuid().primary(),
    raw_data_id: p.uuid().primary(),
    created_by: p.uuid(),
    created_at: p.datetime().defaultRaw('now()'),
  },
});
export type ICellMeasurementRawData = InferEntity<typeof CellMeasurementRawData>;

export const Analysis = defineEntity({
  name: 'Analysis',
  tableName: 'analyses',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    measurement_id: p.uuid(),
    name: p.text(),
    analysis_type: p.text(),
    columns: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    plots: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    metadata: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    notes: p.text().nullable(),
    file_columns: p.json<unknown>(),
    row_count: p.integer(),
    object_key: p.text(),
    size_bytes: p.bigint(),
    created_by: p.uuid(),
    created_at: p.datetime().defaultRaw('now()'),
    updated_at: p.datetime().defaultRaw('now()'),
  },
});
export type IAnalysis = InferEntity<typeof Analysis>;

export const measurementsEntities = [
  CellMeasurement,
  MeasurementUploadSession,
  MeasurementWatch,
  Study,
  StudyMeasurement,
  StudySimulation,
  RawData,
  CellMeasurementRawData,
  Analysis,
];
