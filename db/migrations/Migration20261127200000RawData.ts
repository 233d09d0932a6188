import { Migration } from '@mikro-orm/migrations';

// Raw data: original cycler export files kept as uploaded, with their provenance, under the
// project's prefix (orgs/<org>/projects/<project>/raw_data/<id>/). A record exists from
// initiate-upload; confirmed_at is set once its object is stored, and only confirmed records
// are listed or read. Links to the measurements made from a file live in
// cell_measurement_raw_data and go with either side.
export class Migration20261127200000RawData extends Migration {
  override name = 'Migration20261127200000RawData';

  up(): void {
    this.addSql(`create table raw_data (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      filename text not null,
      content_type text not null,
      source text,
      metadata jsonb not null default '{}'::jsonb,
      object_key text not null,
      max_bytes bigint not null,
      size_bytes bigint,
      expires_at timestamptz not null,
      confirmed_at timestamptz,
      created_by uuid not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create index raw_data_project_idx on raw_data (project_id, created_at desc) where confirmed_at is not null`);
    this.addSql(`create table cell_measurement_raw_data (
      cell_measurement_id uuid not null references cell_measurements (id) on delete cascade,
      raw_data_id uuid not null references raw_data (id) on delete cascade,
      created_by uuid not null,
      created_at timestamptz not null default now(),
      primary key (cell_measurement_id, raw_data_id)
    )`);
    this.addSql(`create index cell_measurement_raw_data_raw_idx on cell_measurement_raw_data (raw_data_id)`);
  }

  override down(): void {
    this.addSql(`drop table cell_measurement_raw_data`);
    this.addSql(`drop table raw_data`);
  }
}
