// Queries for experiment templates. Lists leave out the heavy columns unless asked for.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IExperimentTemplate } from '../entities/lab.ts';
import { whereSql, type ParsedList } from '../listSql.ts';

type Heavy = 'source_protocol' | 'protocol_config' | 'parameters_schema' | 'experiment_parameters';

/** A template as stored, JSON columns typed; the heavy columns only when ALL is read (lists may leave them out). */
export type TemplateRow = Omit<Row<IExperimentTemplate>, Heavy | 'input_references'> & {
  input_references: string[];
  source_protocol?: string;
  protocol_config?: Record<string, unknown>;
  parameters_schema?: Record<string, unknown> | null;
  experiment_parameters?: Record<string, number>;
};

const LIGHT =
  'id, organization_id, project_id, content_hash, name, description, input_references, created_by, created_at, ' +
  'updated_at';
const ALL = `${LIGHT}, source_protocol, protocol_config, parameters_schema, experiment_parameters`;

export async function findTemplate(em: EntityManager, id: string): Promise<TemplateRow | null> {
  const rows = await em.execute<TemplateRow[]>(`select ${ALL} from experiment_templates where id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findTemplateByHash(
  em: EntityManager,
  projectId: string,
  hash: string,
): Promise<{ id: string } | null> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from experiment_templates where project_id = ? and content_hash = ?`,
    [projectId, hash],
  );
  return rows[0] ?? null;
}

/** Null when an identical template was inserted concurrently. */
export async function insertTemplate(
  em: EntityManager,
  row: Required<Omit<TemplateRow, 'created_at' | 'updated_at'>>,
): Promise<TemplateRow | null> {
  const rows = await em.execute<TemplateRow[]>(
    `insert into experiment_templates (id, organization_id, project_id, content_hash, name, description,
      source_protocol, protocol_config,
       parameters_schema, experiment_parameters, input_references, created_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (project_id, content_hash) do nothing returning ${ALL}`,
    [
      row.id,
      row.organization_id,
      row.project_id,
      row.content_hash,
      row.name,
      row.description,
      row.source_protocol,
      JSON.stringify(row.protocol_config),
      row.parameters_schema === null ? null : JSON.stringify(row.parameters_schema),
      JSON.stringify(row.experiment_parameters),
      JSON.stringify(row.input_references),
      row.created_by,
    ],
  );
  return rows[0] ?? null;
}

export async function updateTemplate(
  em: EntityManager,
  id: string,
  changes: { name?: string; description?: string | null },
): Promise<TemplateRow> {
  const sets = Object.entries(changes).filter(([, v]) => v !== undefined);
  const rows = await em.execute<TemplateRow[]>(
    `update experiment_templates set ${[...sets.map(([k]) => `${k} = ?`), 'updated_at = now()'].join(', ')}
      where id = ? returning ${ALL}`,
    [...sets.map(([, v]) => v), id],
  );
  return rows[0]!;
}

export async function deleteTemplate(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from experiment_templates where id = ?`, [id]);
}

export async function listTemplates(
  em: EntityManager,
  scope: { sql: string; params: unknown[] },
  list: ParsedList,
  include: string[],
): Promise<{ items: TemplateRow[]; total: number }> {
  const where = whereSql([scope.sql, ...list.where]);
  const params = [...scope.params, ...list.params];
  // `include` holds only names checked against the heavy-column list.
  const columns = [LIGHT, ...include].join(', ');
  const [items, totals] = await Promise.all([
    em.execute<TemplateRow[]>(
      `select ${columns} from experiment_templates ${where} ${list.orderSql} limit ? offset ?`,
      [...params, list.limit, list.offset],
    ),
    em.execute<{ total: string }[]>(`select count(*) as total from experiment_templates ${where}`, params),
  ]);
  return { items, total: Number(totals[0]?.total ?? 0) };
}
