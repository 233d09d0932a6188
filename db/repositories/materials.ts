// Materials (the system catalogue and an organization's own) and their property datasets.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IMaterialPropertyDataset } from '../entities/cells.ts';
import type { ParsedList } from '../listSql.ts';
import { insertRow, page, updateRow } from './sqlRows.ts';

export interface MaterialRecord {
  id: string;
  name: string;
  category: string | null;
  manufacturer: string | null;
  product_id: string | null;
  description: string | null;
  organization_id: string | null;
  project_id: string | null;
  system: boolean;
  created_at: Date;
  updated_at: Date;
}

const MATERIAL_SELECT = `m.id, m.name, m.category, m.manufacturer, m.product_id, m.description, m.organization_id,
  m.project_id,
  m.organization_id is null as system, m.created_at, m.updated_at`;

export async function findMaterial(em: EntityManager, id: string): Promise<MaterialRecord | null> {
  const rows = await em.execute<MaterialRecord[]>(`select ${MATERIAL_SELECT} from materials m where m.id = ?`, [id]);
  return rows[0] ?? null;
}

export function listMaterials(em: EntityManager, scope: { sql: string; params: unknown[] }[], list: ParsedList) {
  return page<MaterialRecord>(em, { select: MATERIAL_SELECT, from: 'materials m', scope, list });
}

export interface ColumnSpec {
  name: string;
  unit: string;
  source_column_index: number;
}

/** A dataset as stored (DATASET_SELECT: every column), JSON columns typed, its byte count a number. */
export type DatasetRow = Omit<Row<IMaterialPropertyDataset>, 'columns' | 'nan_counts' | 'size_bytes'> & {
  columns: ColumnSpec[];
  nan_counts: Record<string, number>;
  size_bytes: number;
};

const DATASET_SELECT = `d.id, d.organization_id, d.project_id, d.material_id, d.name, d.columns, d.nan_counts,
  d.row_count, d.data_version,
  d.object_key, d.size_bytes::float8 as size_bytes, d.created_by, d.created_at, d.updated_at`;

export async function findDataset(
  em: EntityManager,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<DatasetRow | null> {
  const rows = await em.execute<DatasetRow[]>(
    `select ${DATASET_SELECT} from material_property_datasets d where d.id = ?${opts.forUpdate ? ' for update' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export function listDatasets(em: EntityManager, scope: { sql: string; params: unknown[] }[], list: ParsedList) {
  return page<DatasetRow>(em, { select: DATASET_SELECT, from: 'material_property_datasets d', scope, list });
}

export async function insertDataset(
  em: EntityManager,
  row: Omit<DatasetRow, 'data_version' | 'created_at' | 'updated_at'>,
): Promise<void> {
  await insertRow(em, 'material_property_datasets', { ...row }, 'id');
}

export async function updateDataset(
  em: EntityManager,
  id: string,
  changes: Partial<
    Pick<DatasetRow, 'name' | 'columns' | 'nan_counts' | 'row_count' | 'data_version' | 'object_key' | 'size_bytes'>
  >,
) {
  await updateRow(em, 'material_property_datasets', id, changes);
}

export async function deleteDataset(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from material_property_datasets where id = ?`, [id]);
}
