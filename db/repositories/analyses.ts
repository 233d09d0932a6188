// Analyses: features extracted from a measurement, as a stored Parquet table with its record.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IAnalysis } from '../entities/measurements.ts';
import type { ParsedList } from '../listSql.ts';
import { insertRow, page, updateRow } from './sqlRows.ts';

/** An analysis as stored (SELECT: every column), JSON columns typed, its byte count a number. */
export type AnalysisRow = Omit<Row<IAnalysis>, 'columns' | 'plots' | 'metadata' | 'file_columns' | 'size_bytes'> & {
  columns: { name: string; unit?: string; dtype?: string | null }[];
  plots: Record<string, unknown>[];
  metadata: Record<string, unknown>;
  file_columns: string[];
  size_bytes: number;
};

const SELECT = `a.id, a.organization_id, a.project_id, a.measurement_id, a.name, a.analysis_type, a.columns, a.plots,
  a.metadata, a.notes,
  a.file_columns, a.row_count, a.object_key, a.size_bytes::float8 as size_bytes, a.created_by, a.created_at,
    a.updated_at`;

export async function findAnalysis(em: EntityManager, id: string): Promise<AnalysisRow | null> {
  const rows = await em.execute<AnalysisRow[]>(`select ${SELECT} from analyses a where a.id = ?`, [id]);
  return rows[0] ?? null;
}

export function listAnalyses(em: EntityManager, scope: { sql: string; params: unknown[] }[], list: ParsedList) {
  return page<AnalysisRow>(em, { select: SELECT, from: 'analyses a', scope, list });
}

export async function insertAnalysis(
  em: EntityManager,
  row: Omit<AnalysisRow, 'created_at' | 'updated_at'>,
): Promise<void> {
  await insertRow(em, 'analyses', { ...row }, 'id');
}

export async function updateAnalysis(
  em: EntityManager,
  id: string,
  changes: Partial<Pick<AnalysisRow, 'name' | 'analysis_type' | 'columns' | 'plots' | 'metadata' | 'notes'>>,
) {
  await updateRow(em, 'analyses', id, changes);
}

export async function deleteAnalysis(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from analyses where id = ?`, [id]);
}
