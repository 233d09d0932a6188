import { Migration } from '@mikro-orm/migrations';

// Analyses: features extracted from one measurement (ECM parameters from EIS, LLI/LAM from an
// RPT), a Parquet table kept under the measurement's prefix (so the measurement's purge takes
// it) with column specs, plot presets and loose metadata. file_columns are the table's own
// column names, against which specs and presets are checked without reading the file.
export class Migration20261127202000Analyses extends Migration {
  override name = 'Migration20261127202000Analyses';

  up(): void {
    this.addSql(`create table analyses (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      measurement_id uuid not null references cell_measurements (id) on delete cascade,
      name text not null,
      analysis_type text not null,
      columns jsonb not null default '[]'::jsonb,
      plots jsonb not null default '[]'::jsonb,
      metadata jsonb not null default '{}'::jsonb,
      notes text,
      file_columns jsonb not null,
      row_count integer not null,
      object_key text not null,
      size_bytes bigint not null,
      created_by uuid not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create index analyses_measurement_idx on analyses (measurement_id, created_at desc)`);
    this.addSql(`create index analyses_project_idx on analyses (project_id, created_at desc)`);
  }

  override down(): void {
    this.addSql(`drop table analyses`);
  }
}
