// Queries for measurement data: upload sessions, the data columns of cell_measurements, and
// the switch of a processed (or extended) series in one transaction.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { ICellMeasurement, IMeasurementUploadSession } from '../entities/measurements.ts';

export type MeasurementType = 'time_series' | 'file';
export type ProcessingStatus = 'pending' | 'running' | 'ready' | 'failed';

export interface UploadTarget {
  filename: string;
  path: string;
  max_bytes: number;
  multipart: boolean;
  /**
   * Where confirm copies the upload and where it is read from then (storage/measurementKeys.ts sealedKey); absent in
   * sessions older than that copy.
   */
  sealed_path?: string;
}

/** An upload or extend session as stored (SESSION_COLUMNS: every column), JSON columns typed. */
export type UploadSessionRow = Omit<Row<IMeasurementUploadSession>, 'measurement' | 'targets'> & {
  measurement: Record<string, unknown>;
  targets: UploadTarget[];
};

const SESSION_COLUMNS = `id, measurement_id, kind, version, organization_id, project_id, cell_instance_id,
  measurement_type,
  measurement, targets, expires_at, confirmed_at, created_by, created_at`;

export async function insertSession(
  em: EntityManager,
  row: Omit<UploadSessionRow, 'confirmed_at' | 'created_at'>,
): Promise<UploadSessionRow> {
  const rows = await em.execute<UploadSessionRow[]>(
    `insert into measurement_upload_sessions (id, measurement_id, kind, version, organization_id, project_id,
      cell_instance_id,
       measurement_type, measurement, targets, expires_at, created_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?) returning ${SESSION_COLUMNS}`,
    [
      row.id,
      row.measurement_id,
      row.kind,
      row.version,
      row.organization_id,
      row.project_id,
      row.cell_instance_id,
      row.measurement_type,
      JSON.stringify(row.measurement),
      JSON.stringify(row.targets),
      row.expires_at,
      row.created_by,
    ],
  );
  return rows[0]!;
}

export async function findUploadSession(em: EntityManager, measurementId: string): Promise<UploadSessionRow | null> {
  const rows = await em.execute<UploadSessionRow[]>(
    `select ${SESSION_COLUMNS} from measurement_upload_sessions where measurement_id = ? and kind = 'upload'`,
    [measurementId],
  );
  return rows[0] ?? null;
}

export async function findExtendSession(
  em: EntityManager,
  measurementId: string,
  version: number,
): Promise<UploadSessionRow | null> {
  const rows = await em.execute<UploadSessionRow[]>(
    `select ${SESSION_COLUMNS} from measurement_upload_sessions where measurement_id = ? and kind = 'extend'
      and version = ?`,
    [measurementId, version],
  );
  return rows[0] ?? null;
}

/** The newest extend session of a measurement, confirmed or not. */
export async function latestExtendSession(em: EntityManager, measurementId: string): Promise<UploadSessionRow | null> {
  const rows = await em.execute<UploadSessionRow[]>(
    `select ${SESSION_COLUMNS} from measurement_upload_sessions where measurement_id = ? and kind = 'extend'
      order by version desc, created_at desc limit 1`,
    [measurementId],
  );
  return rows[0] ?? null;
}

export async function markSessionConfirmed(em: EntityManager, sessionId: string): Promise<void> {
  await em.execute(
    `update measurement_upload_sessions set confirmed_at = now() where id = ? and confirmed_at is null`,
    [sessionId],
  );
}

/** An unconfirmed extend target is replaced by a newer one only once it has expired. */
export async function deleteSession(em: EntityManager, sessionId: string): Promise<void> {
  await em.execute(`delete from measurement_upload_sessions where id = ?`, [sessionId]);
}

/** The cell specification's ratings that tune the strict checks. */
export async function ratingsOf(em: EntityManager, cellInstanceId: string): Promise<Record<string, unknown>> {
  const rows = await em.execute<{ ratings: Record<string, unknown> | null }[]>(
    `select s.ratings from cell_instances i join cell_specifications s on s.id = i.cell_specification_id
      where i.id = ?`,
    [cellInstanceId],
  );
  return rows[0]?.ratings ?? {};
}

type Narrowed =
  'processing_status' | 'filenames' | 'row_count' | 'data_columns' | 'validation_options' | 'validation_report';

/** A measurement as MEASUREMENT_COLUMNS reads it (all but requested_by and planned_measurement_id), JSON typed. */
export type MeasurementDataRow = Omit<Row<ICellMeasurement>, Narrowed | 'requested_by' | 'planned_measurement_id'> & {
  processing_status: ProcessingStatus;
  filenames: string[] | null;
  row_count: string | number | null;
  data_columns: string[] | null;
  validation_options: { strict?: boolean; skip_checks?: string[] } | null;
  validation_report: { mode: string; version: number; issues: unknown[] } | null;
};

const MEASUREMENT_COLUMNS = `id, organization_id, project_id, cell_instance_id, name, measurement_type, channel_id,
  start_time,
  end_time, estimated_end_time, protocol, protocol_id, program_name, test_setup, notes, properties, processing_status,
    processing_error,
  data_updated_at, created_by, created_at, updated_at, time_series_key, steps_key, cycles_key, filenames,
    data_version, tags,
  extending_version, row_count, data_columns, first_time, last_time, steps_created, validation_options,
    validation_report,
  processed_at`;

export async function findMeasurement(
  em: EntityManager,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<MeasurementDataRow | null> {
  const rows = await em.execute<MeasurementDataRow[]>(
    `select ${MEASUREMENT_COLUMNS} from cell_measurements where id = ?${opts.forUpdate ? ' for update' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export interface NewMeasurement {
  id: string;
  organization_id: string;
  project_id: string;
  cell_instance_id: string;
  name: string;
  measurement_type: MeasurementType;
  channel_id: string | null;
  start_time: string | null;
  end_time: string | null;
  estimated_end_time: string | null;
  protocol: unknown;
  protocol_id: string | null;
  tags: string[];
  program_name: string | null;
  test_setup: unknown;
  notes: string | null;
  properties: unknown;
  filenames: string[] | null;
  validation_options: unknown;
  created_by: string;
}

export async function insertMeasurement(em: EntityManager, m: NewMeasurement): Promise<MeasurementDataRow> {
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const rows = await em.execute<MeasurementDataRow[]>(
    `insert into cell_measurements (id, organization_id, project_id, cell_instance_id, name, measurement_type,
      channel_id,
       start_time, end_time, estimated_end_time, protocol, protocol_id, program_name, test_setup, notes, properties,
         filenames,
       validation_options, processing_status, requested_by, created_by, data_updated_at, tags)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, ?, ?::jsonb, ?::jsonb, ?::jsonb, 'pending', ?, ?,
       now(), ?::jsonb)
     returning ${MEASUREMENT_COLUMNS}`,
    [
      m.id,
      m.organization_id,
      m.project_id,
      m.cell_instance_id,
      m.name,
      m.measurement_type,
      m.channel_id,
      m.start_time,
      m.end_time,
      m.estimated_end_time,
      json(m.protocol),
      m.protocol_id,
      m.program_name,
      json(m.test_setup),
      m.notes,
      json(m.properties),
      json(m.filenames),
      json(m.validation_options),
      m.created_by,
      m.created_by,
      JSON.stringify(m.tags),
    ],
  );
  return rows[0]!;
}

/** An extend is confirmed: the measurement is busy until the new version is switched in or refused. */
export async function markExtending(
  em: EntityManager,
  id: string,
  version: number,
  validationOptions: unknown,
): Promise<MeasurementDataRow> {
  const rows = await em.execute<MeasurementDataRow[]>(
    `update cell_measurements set processing_status = 'pending', processing_error = null, extending_version = ?,
       validation_options = coalesce(?::jsonb, validation_options), data_updated_at = now(), updated_at = now()
     where id = ? returning ${MEASUREMENT_COLUMNS}`,
    [version, validationOptions === undefined ? null : JSON.stringify(validationOptions), id],
  );
  return rows[0]!;
}

export async function markRunning(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update cell_measurements set processing_status = 'running', updated_at = now() where id = ?`, [id]);
}

export interface ProcessingResult {
  status: 'ready' | 'failed';
  issues: unknown[];
  processing_error: string | null;
  time_series_key: string | null;
  steps_key: string | null;
  cycles_key: string | null;
  row_count: number;
  columns: string[];
  first_time: number | null;
  last_time: number | null;
  steps_created: number;
}

/** What a processed series sets on its measurement, upload or extend alike (values: seriesValues). */
const SERIES_COLUMNS = `time_series_key = ?, steps_key = ?, cycles_key = ?, row_count = ?, data_columns = ?::jsonb,
  first_time = ?, last_time = ?, steps_created = ?`;
const seriesValues = (r: ProcessingResult) => [
  r.time_series_key,
  r.steps_key,
  r.cycles_key,
  r.row_count,
  JSON.stringify(r.columns),
  r.first_time,
  r.last_time,
  r.steps_created,
];

/** The upload's outcome: the series becomes readable (ready) or the record says why not (failed). */
export async function recordUploadOutcome(em: EntityManager, id: string, r: ProcessingResult): Promise<void> {
  const report = JSON.stringify({ mode: 'upload', version: 0, issues: r.issues });
  if (r.status === 'ready') {
    await em.execute(
      `update cell_measurements set processing_status = 'ready', processing_error = null, ${SERIES_COLUMNS},
         validation_report = ?::jsonb, processed_at = now(), data_updated_at = now(), updated_at = now()
       where id = ?`,
      [...seriesValues(r), report, id],
    );
  } else {
    await em.execute(
      `update cell_measurements set processing_status = 'failed', processing_error = ?, validation_report = ?::jsonb,
         processed_at = now(), updated_at = now() where id = ?`,
      [r.processing_error ?? 'processing failed', report, id],
    );
  }
}

/**
 * The extend's outcome. Success switches the canonical keys to the new version; failure
 * leaves the stored series as it was, ready, with processing_error set.
 */
export async function recordExtendOutcome(
  em: EntityManager,
  id: string,
  version: number,
  r: ProcessingResult,
): Promise<void> {
  const report = JSON.stringify({ mode: 'extend', version, issues: r.issues });
  if (r.status === 'ready') {
    await em.execute(
      `update cell_measurements set processing_status = 'ready', processing_error = null, extending_version = null,
         data_version = ?, ${SERIES_COLUMNS}, validation_report = ?::jsonb, processed_at = now(),
         data_updated_at = now(), updated_at = now()
       where id = ?`,
      [version, ...seriesValues(r), report, id],
    );
  } else {
    await em.execute(
      `update cell_measurements set processing_status = 'ready', processing_error = ?, extending_version = null,
         validation_report = ?::jsonb, processed_at = now(), updated_at = now() where id = ?`,
      [r.processing_error ?? 'the extension failed processing', report, id],
    );
  }
}
