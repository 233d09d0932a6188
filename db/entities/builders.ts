// MikroORM entities: model builders and each cell specification's default parameterized model.
// test/ormDrift.test.ts keeps them and the migrations in step.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, timestamps } from './columns.ts';

export const ModelBuilder = defineEntity({
  name: 'ModelBuilder',
  tableName: 'model_builders',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    project_id: p.uuid(),
    model_id: p.uuid(),
    name: p.text(),
    description: p.text().nullable(),
    config: p.json<unknown>(),
    created_by: p.uuid(),
    ...timestamps,
  },
});
export type IModelBuilder = InferEntity<typeof ModelBuilder>;

export const CellSpecDefaultModel = defineEntity({
  name: 'CellSpecDefaultModel',
  tableName: 'cell_spec_default_models',
  properties: {
    cell_spec_id: p.uuid().primary(),
    parameterized_model_id: p.uuid(),
    ...createdAt,
  },
});

export const buildersEntities = [ModelBuilder, CellSpecDefaultModel];
