// Raw-data records (original uploaded files) and their links to measurements.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IRawData } from '../entities/measurements.ts';
import type { ParsedList } from '../listSql.ts';
import { insertRow, page, updateRow } from './sqlRows.ts';

/** As read here: byte counts as numbers (float8 holds every size storage accepts exactly). */
export type RawDataRow = Omit<Row<IRawData>, 'max_bytes' | 'size_bytes'> & {
  max_bytes: number;
  size_bytes: number | null;
};

/** The columns a record is answered with (the object key and upload bookkeeping stay inside). */
export const RAW_DATA_SELECT = `r.id, r.organization_id, r.project_id, r.name, r.filename, r.content_type, r.source,
  r.metadata,
  r.size_bytes::float8 as size_bytes, r.created_by, r.created_at, r.updated_at`;
export type RawDataRecord = Pick<
  RawDataRow,
  | 'id'
  | 'organization_id'
  | 'project_id'
  | 'name'
  | 'filename'
  | 'content_type'
  | 'source'
  | 'metadata'
  | 'created_by'
  | 'created_at'
  | 'updated_at'
> & {
  size_bytes: number;
};

export async function insertRawData(
  em: EntityManager,
  row: Pick<
    RawDataRow,
    | 'id'
    | 'organization_id'
    | 'project_id'
    | 'name'
    | 'filename'
    | 'content_type'
    | 'source'
    | 'metadata'
    | 'object_key'
    | 'max_bytes'
    | 'expires_at'
    | 'created_by'
  >,
): Promise<void> {
  await insertRow(em, 'raw_data', row, 'id');
}

/** Any record, confirmed or not (bigints as numbers). */
export async function findRawData(
  em: EntityManager,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<RawDataRow | null> {
  const rows = await em.execute<RawDataRow[]>(
    `select *, max_bytes::float8 as max_bytes, size_bytes::float8 as size_bytes from raw_data
      where id = ?${opts.forUpdate ? ' for update' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function record(em: EntityManager, id: string): Promise<RawDataRecord> {
  const rows = await em.execute<RawDataRecord[]>(`select ${RAW_DATA_SELECT} from raw_data r where r.id = ?`, [id]);
  return rows[0]!;
}

export async function confirm(
  em: EntityManager,
  id: string,
  changes: Partial<Pick<RawDataRow, 'name' | 'content_type' | 'source' | 'metadata'>> & { size_bytes: number },
) {
  await updateRow(em, 'raw_data', id, changes);
  await em.execute(`update raw_data set confirmed_at = now() where id = ?`, [id]);
}

export async function update(
  em: EntityManager,
  id: string,
  changes: Partial<Pick<RawDataRow, 'name' | 'source' | 'metadata'>>,
) {
  await updateRow(em, 'raw_data', id, changes);
}

export async function remove(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from raw_data where id = ?`, [id]);
}

/** A page of confirmed records under `scope`. */
export function list(em: EntityManager, scope: { sql: string; params: unknown[] }[], list: ParsedList) {
  return page<RawDataRecord>(em, {
    select: RAW_DATA_SELECT,
    from: 'raw_data r',
    scope: [{ sql: 'r.confirmed_at is not null', params: [] }, ...scope],
    list,
  });
}

/** The confirmed records of a project among `ids` (the others are not linkable). */
export async function confirmedIn(em: EntityManager, projectId: string, ids: string[]): Promise<Set<string>> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from raw_data where project_id = ? and confirmed_at is not null
      and id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
    [projectId, JSON.stringify(ids)],
  );
  return new Set(rows.map((r) => r.id));
}

export async function link(
  em: EntityManager,
  measurementId: string,
  rawDataIds: string[],
  userId: string,
): Promise<void> {
  await em.execute(
    `insert into cell_measurement_raw_data (cell_measurement_id, raw_data_id, created_by)
     select ?, id, ? from (select jsonb_array_elements_text(?::jsonb)::uuid as id) ids on conflict do nothing`,
    [measurementId, userId, JSON.stringify(rawDataIds)],
  );
}

/** Whether a link was removed. */
export async function unlink(em: EntityManager, measurementId: string, rawDataId: string): Promise<boolean> {
  const rows = await em.execute<{ raw_data_id: string }[]>(
    `delete from cell_measurement_raw_data where cell_measurement_id = ? and raw_data_id = ? returning raw_data_id`,
    [measurementId, rawDataId],
  );
  return rows.length > 0;
}

export async function linkedIds(em: EntityManager, measurementId: string): Promise<string[]> {
  const rows = await em.execute<{ raw_data_id: string }[]>(
    `select raw_data_id from cell_measurement_raw_data where cell_measurement_id = ? order by created_at, raw_data_id`,
    [measurementId],
  );
  return rows.map((r) => r.raw_data_id);
}

/** The measurements linked to a record, oldest link first. */
export async function measurementIds(em: EntityManager, rawDataId: string, limit: number, offset: number) {
  const [rows, totals] = await Promise.all([
    em.execute<{ id: string }[]>(
      `select cell_measurement_id as id from cell_measurement_raw_data where raw_data_id = ?
        order by created_at, cell_measurement_id limit ? offset ?`,
      [rawDataId, limit, offset],
    ),
    em.execute<{ total: string }[]>(`select count(*) as total from cell_measurement_raw_data where raw_data_id = ?`, [
      rawDataId,
    ]),
  ]);
  return { items: rows.map((r) => r.id), count: rows.length, total: Number(totals[0]?.total ?? 0) };
}

/** The records linked to a measurement, oldest link first. */
export async function forMeasurement(em: EntityManager, measurementId: string, limit: number, offset: number) {
  const from = `raw_data r join cell_measurement_raw_data l on l.raw_data_id = r.id and l.cell_measurement_id = ?`;
  const [items, totals] = await Promise.all([
    em.execute<RawDataRecord[]>(`select ${RAW_DATA_SELECT} from ${from} order by l.created_at, r.id limit ? offset ?`, [
      measurementId,
      limit,
      offset,
    ]),
    em.execute<{ total: string }[]>(`select count(*) as total from ${from}`, [measurementId]),
  ]);
  return { items, count: items.length, total: Number(totals[0]?.total ?? 0) };
}
