// Queries for models (organization-wide) and parameterized models (per project).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IModel, IParameterizedModel } from '../entities/simulations.ts';
import { whereSql, type ParsedList } from '../listSql.ts';

/** A model as stored, its config an object, with its owner's email (MODEL_SELECT). */
export type ModelRow = Omit<Row<IModel>, 'config'> & { config: Record<string, unknown>; created_by_email: string };

const MODEL_SELECT = `select m.id, m.organization_id, m.user_id, m.name, m.description, m.is_custom_model,
  m.chemistry, m.config,
  m.simulator_version, u.email as created_by_email, m.created_at, m.updated_at from models m
    join users u on u.id = m.user_id`;

export async function findModel(em: EntityManager, id: string): Promise<ModelRow | null> {
  const rows = await em.execute<ModelRow[]>(`${MODEL_SELECT} where m.id = ?`, [id]);
  return rows[0] ?? null;
}

export async function insertModel(
  em: EntityManager,
  row: Omit<ModelRow, 'created_at' | 'updated_at' | 'created_by_email'>,
): Promise<ModelRow> {
  await em.execute(
    `insert into models (id, organization_id, user_id, name, description, is_custom_model, chemistry, config,
      simulator_version)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.organization_id,
      row.user_id,
      row.name,
      row.description,
      row.is_custom_model,
      row.chemistry,
      JSON.stringify(row.config),
      row.simulator_version,
    ],
  );
  return (await findModel(em, row.id))!;
}

export async function updateModel(
  em: EntityManager,
  id: string,
  changes: { name?: string; description?: string | null },
): Promise<ModelRow> {
  const sets = Object.entries(changes).filter(([, v]) => v !== undefined);
  await em.execute(
    `update models set ${[...sets.map(([k]) => `${k} = ?`), 'updated_at = now()'].join(', ')} where id = ?`,
    [...sets.map(([, v]) => v), id],
  );
  return (await findModel(em, id))!;
}

export async function deleteModel(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from models where id = ?`, [id]);
}

export async function countParameterizedModelsOf(em: EntityManager, modelId: string): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(`select count(*) as n from parameterized_models where model_id = ?`, [
    modelId,
  ]);
  return Number(row?.n ?? 0);
}

export async function listModels(
  em: EntityManager,
  organizationId: string,
  list: ParsedList,
): Promise<{ items: ModelRow[]; total: number }> {
  const where = whereSql(['m.organization_id = ?', ...list.where]);
  const params = [organizationId, ...list.params];
  const [items, totals] = await Promise.all([
    em.execute<ModelRow[]>(`${MODEL_SELECT} ${where} ${list.orderSql} limit ? offset ?`, [
      ...params,
      list.limit,
      list.offset,
    ]),
    em.execute<{ total: string }[]>(`select count(*) as total from models m ${where}`, params),
  ]);
  return { items, total: Number(totals[0]?.total ?? 0) };
}

/** A parameterized model as stored (PM_COLUMNS: every column), its parameters by name. */
export type ParameterizedModelRow = Omit<Row<IParameterizedModel>, 'parameters'> & {
  parameters: Record<string, number>;
};

const PM_COLUMNS =
  'id, organization_id, project_id, model_id, cell_spec_id, name, description, parameters, created_by, created_at, ' +
  'updated_at';

export async function findParameterizedModel(em: EntityManager, id: string): Promise<ParameterizedModelRow | null> {
  const rows = await em.execute<ParameterizedModelRow[]>(
    `select ${PM_COLUMNS} from parameterized_models where id = ?`,
    [id],
  );
  return rows[0] ?? null;
}

export async function insertParameterizedModel(
  em: EntityManager,
  row: Omit<ParameterizedModelRow, 'created_at' | 'updated_at'>,
): Promise<ParameterizedModelRow> {
  const rows = await em.execute<ParameterizedModelRow[]>(
    `insert into parameterized_models (id, organization_id, project_id, model_id, cell_spec_id, name, description,
      parameters, created_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${PM_COLUMNS}`,
    [
      row.id,
      row.organization_id,
      row.project_id,
      row.model_id,
      row.cell_spec_id,
      row.name,
      row.description,
      JSON.stringify(row.parameters),
      row.created_by,
    ],
  );
  return rows[0]!;
}

export async function updateParameterizedModel(
  em: EntityManager,
  id: string,
  changes: { name?: string; description?: string | null; parameters?: Record<string, number> },
): Promise<ParameterizedModelRow> {
  const sets = Object.entries(changes).filter(([, v]) => v !== undefined);
  const rows = await em.execute<ParameterizedModelRow[]>(
    `update parameterized_models set ${[...sets.map(([k]) => `${k} = ?`), 'updated_at = now()'].join(', ')}
      where id = ? returning ${PM_COLUMNS}`,
    [...sets.map(([k, v]) => (k === 'parameters' ? JSON.stringify(v) : v)), id],
  );
  return rows[0]!;
}

export async function deleteParameterizedModel(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from parameterized_models where id = ?`, [id]);
}

export async function listParameterizedModels(
  em: EntityManager,
  scope: { sql: string; params: unknown[] },
  list: ParsedList,
): Promise<{ items: ParameterizedModelRow[]; total: number }> {
  const where = whereSql([scope.sql, ...list.where]);
  const params = [...scope.params, ...list.params];
  const [items, totals] = await Promise.all([
    em.execute<ParameterizedModelRow[]>(
      `select ${PM_COLUMNS} from parameterized_models ${where} ${list.orderSql} limit ? offset ?`,
      [...params, list.limit, list.offset],
    ),
    em.execute<{ total: string }[]>(`select count(*) as total from parameterized_models ${where}`, params),
  ]);
  return { items, total: Number(totals[0]?.total ?? 0) };
}

export async function findCellSpecification(
  em: EntityManager,
  id: string,
): Promise<{ id: string; project_id: string; organization_id: string } | null> {
  const rows = await em.execute<{ id: string; project_id: string; organization_id: string }[]>(
    `select id, project_id, organization_id from cell_specifications where id = ?`,
    [id],
  );
  return rows[0] ?? null;
}

/** A model's configuration, rebuilt by the worker (its simulator_version with it). */
export async function updateModelConfig(
  em: EntityManager,
  id: string,
  config: unknown,
  simulatorVersion: string,
): Promise<ModelRow> {
  await em.execute(`update models set config = ?, simulator_version = ?, updated_at = now() where id = ?`, [
    JSON.stringify(config),
    simulatorVersion,
    id,
  ]);
  return (await findModel(em, id))!;
}
