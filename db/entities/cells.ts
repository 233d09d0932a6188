// MikroORM entities: Cell specifications, batches and instances; materials and their property datasets.
// Generated once from the migrated schema; test/ormDrift.test.ts keeps them and the migrations in step.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from './columns.ts';

export const CellSpecification = defineEntity({
  name: 'CellSpecification',
  tableName: 'cell_specifications',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    name: p.text(),
    description: p.text().nullable(),
    manufacturer: p.text().nullable(),
    form_factor: p.text().nullable(),
    chemistry: p.text().nullable(),
    ratings: p.json<unknown>().nullable(),
    anode: p.json<unknown>().nullable(),
    cathode: p.json<unknown>().nullable(),
    electrolyte: p.json<unknown>().nullable(),
    separator: p.json<unknown>().nullable(),
    properties: p.json<unknown>().nullable(),
    created_by: p.uuid(),
    ...timestamps,
    source: p.text().nullable(),
    notes: p.text().nullable(),
  },
});
export type ICellSpecification = InferEntity<typeof CellSpecification>;

export const CellBatch = defineEntity({
  name: 'CellBatch',
  tableName: 'cell_batches',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    cell_specification_id: p.uuid(),
    name: p.text(),
    notes: p.text().nullable(),
    date_manufactured: p.text().nullable(),
    properties: p.json<unknown>().nullable(),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type ICellBatch = InferEntity<typeof CellBatch>;

export const CellInstance = defineEntity({
  name: 'CellInstance',
  tableName: 'cell_instances',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    cell_specification_id: p.uuid(),
    name: p.text(),
    serial_number: p.text().nullable(),
    batch: p.text().nullable(),
    notes: p.text().nullable(),
    properties: p.json<unknown>().nullable(),
    created_by: p.uuid(),
    ...timestamps,
    date_manufactured: p.text().nullable(),
    measured_properties: p.json<unknown>().nullable(),
    batch_id: p.uuid().nullable(),
  },
});
export type ICellInstance = InferEntity<typeof CellInstance>;

export const Material = defineEntity({
  name: 'Material',
  tableName: 'materials',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    organization_id: p.uuid().nullable(),
    project_id: p.uuid().nullable(),
    name: p.text(),
    category: p.text().nullable(),
    manufacturer: p.text().nullable(),
    product_id: p.text().nullable(),
    description: p.text().nullable(),
    created_at: p.datetime().defaultRaw('now()'),
    updated_at: p.datetime().defaultRaw('now()'),
  },
});
export type IMaterial = InferEntity<typeof Material>;

export const MaterialPropertyDataset = defineEntity({
  name: 'MaterialPropertyDataset',
  tableName: 'material_property_datasets',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    material_id: p.uuid(),
    name: p.text(),
    columns: p.json<unknown>(),
    nan_counts: p.json<unknown>(),
    row_count: p.integer(),
    data_version: p.integer().default(1),
    object_key: p.text(),
    size_bytes: p.bigint(),
    created_by: p.uuid(),
    created_at: p.datetime().defaultRaw('now()'),
    updated_at: p.datetime().defaultRaw('now()'),
  },
});
export type IMaterialPropertyDataset = InferEntity<typeof MaterialPropertyDataset>;

export const cellsEntities = [CellSpecification, CellBatch, CellInstance, Material, MaterialPropertyDataset];
