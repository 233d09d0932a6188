// Queries for model builders and cell specifications' default parameterized models.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IModelBuilder } from '../entities/builders.ts';
import type { Row } from '../entities/index.ts';
import type { ParsedList } from '../listSql.ts';
import { insertRow, page, updateRow } from './sqlRows.ts';

export type BuilderRow = Row<IModelBuilder>;

export async function findBuilder(em: EntityManager, id: string): Promise<BuilderRow | null> {
  return (await em.execute<BuilderRow[]>(`select * from model_builders where id = ?`, [id]))[0] ?? null;
}

export async function findBuilderByName(em: EntityManager, projectId: string, modelId: string, name: string) {
  const rows = await em.execute<{ id: string }[]>(
    `select id from model_builders where project_id = ? and model_id = ? and name = ?`,
    [projectId, modelId, name],
  );
  return rows[0] ?? null;
}

export const insertBuilder = (em: EntityManager, row: Omit<BuilderRow, 'created_at' | 'updated_at'>) =>
  insertRow<BuilderRow>(em, 'model_builders', row);

export async function updateBuilder(em: EntityManager, id: string, changes: Partial<BuilderRow>) {
  await updateRow(em, 'model_builders', id, changes);
  return (await findBuilder(em, id))!;
}

export async function deleteBuilder(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from model_builders where id = ?`, [id]);
}

export const listBuilders = (em: EntityManager, scope: { sql: string; params: unknown[] }[], list: ParsedList) =>
  page<BuilderRow>(em, { select: '*', from: 'model_builders', scope, list });

/** Makes the parameterized model the cell specification's default (replacing any other). */
export async function setDefaultModel(em: EntityManager, cellSpecId: string, parameterizedModelId: string) {
  await em.execute(
    `insert into cell_spec_default_models (cell_spec_id, parameterized_model_id) values (?, ?)
      on conflict (cell_spec_id) do update set parameterized_model_id = excluded.parameterized_model_id,
        created_at = now()`,
    [cellSpecId, parameterizedModelId],
  );
}

export async function defaultModelOf(em: EntityManager, cellSpecId: string): Promise<string | null> {
  const rows = await em.execute<{ parameterized_model_id: string }[]>(
    `select parameterized_model_id from cell_spec_default_models where cell_spec_id = ?`,
    [cellSpecId],
  );
  return rows[0]?.parameterized_model_id ?? null;
}

export async function countBuildersOf(em: EntityManager, modelId: string): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(`select count(*) as n from model_builders where model_id = ?`, [
    modelId,
  ]);
  return Number(row?.n ?? 0);
}
