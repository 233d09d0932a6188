import { Migration } from '@mikro-orm/migrations';

// Measurement data: where a measurement's canonical objects are, its processing report, and
// the signed-URL upload sessions that precede (upload) or extend a measurement record.
export class Migration20261120020000MeasurementData extends Migration {
  override name = 'Migration20261120020000MeasurementData';

  up(): void {
    this.addSql(`alter table cell_measurements
      add column time_series_key text,
      add column steps_key text,
      add column cycles_key text,
      -- Uploaded files of a file measurement, in the order of the upload request.
      add column filenames jsonb,
      -- 0 after the upload; +1 with every extend switched in.
      add column data_version integer not null default 0,
      -- The version an extend in flight will produce; null when none is.
      add column extending_version integer,
      add column row_count bigint,
      add column data_columns jsonb,
      add column first_time double precision,
      add column last_time double precision,
      add column steps_created integer not null default 0,
      add column validation_options jsonb,
      -- The last processing's outcome: {mode, version, issues}.
      add column validation_report jsonb,
      add column processed_at timestamptz`);

    // The measurement id is pre-allocated at initiate, before the record exists, so it is no
    // foreign key. One upload session per measurement; one extend session per version.
    this.addSql(`create table measurement_upload_sessions (
      id uuid primary key,
      measurement_id uuid not null,
      kind text not null check (kind in ('upload', 'extend')),
      version integer not null default 0,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      cell_instance_id uuid not null references cell_instances (id) on delete cascade,
      measurement_type text not null check (measurement_type in ('time_series', 'file')),
      measurement jsonb not null default '{}',
      -- [{filename, path, max_bytes, multipart}] in the order of the answer.
      targets jsonb not null,
      expires_at timestamptz not null,
      confirmed_at timestamptz,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      unique (measurement_id, kind, version))`);
    this.addSql(`create index measurement_upload_sessions_project_idx on measurement_upload_sessions (project_id)`);
  }
}
