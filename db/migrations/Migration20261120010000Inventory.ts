import { Migration } from '@mikro-orm/migrations';

// Lab inventory (sites, cyclers, channels and their histories), cells and measurement records.
export class Migration20261120010000Inventory extends Migration {
  override name = 'Migration20261120010000Inventory';

  up(): void {
    // Sites belong to the organization only: every member sees them.
    this.addSql(`create table sites (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      name text not null,
      location text,
      notes text,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (organization_id, name))`);
    this.addSql(`create index sites_created_at_idx on sites (organization_id, created_at, id)`);

    this.addSql(`create table cyclers (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      site_id uuid not null references sites (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      manufacturer text,
      model text,
      version text,
      serial_number text,
      firmware_version text,
      hostname text,
      ip_address text,
      port integer check (port between 0 and 65535),
      last_calibrated_at timestamptz,
      calibration_interval_days integer check (calibration_interval_days > 0),
      calibration_due_at timestamptz,
      notes text,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- The same document the global search indexes for a cycler (name weighted A, details B).
      tsv tsvector generated always as (
        setweight(to_tsvector('simple', name), 'A') || setweight(to_tsvector('simple',
          coalesce(manufacturer, '') || ' ' || coalesce(model, '') || ' ' || coalesce(serial_number, '') || ' ' || coalesce(hostname, '')), 'B')) stored,
      unique (site_id, name))`);
    // calibration_due_at cannot be a generated column (timestamptz arithmetic is not immutable),
    // so a trigger keeps it current on every insert and update, whichever path writes the row.
    this.addSql(`create function cyclers_calibration_due() returns trigger language plpgsql as $$
      begin
        new.calibration_due_at := case
          when new.last_calibrated_at is null or new.calibration_interval_days is null then null
          else new.last_calibrated_at + make_interval(hours => 24 * new.calibration_interval_days) end;
        return new;
      end $$`);
    this.addSql(`create trigger cyclers_calibration_due before insert or update on cyclers
      for each row execute function cyclers_calibration_due()`);
    this.addSql(`create index cyclers_project_idx on cyclers (project_id)`);
    this.addSql(`create index cyclers_org_idx on cyclers (organization_id)`);
    this.addSql(`create index cyclers_name_trgm_idx on cyclers using gin (lower(name) gin_trgm_ops)`);
    this.addSql(`create index cyclers_tsv_idx on cyclers using gin (tsv)`);
    // One btree per sort field of GET /cyclers, with the id tie-break.
    for (const col of ['name', 'manufacturer', 'model', 'version', 'serial_number', 'firmware_version', 'hostname',
      'last_calibrated_at', 'calibration_due_at', 'created_at', 'updated_at']) {
      this.addSql(`create index cyclers_${col}_idx on cyclers (${col}, id)`);
    }

    this.addSql(`create table cycler_service_events (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      cycler_id uuid not null references cyclers (id) on delete cascade,
      event_type text not null check (event_type in ('calibration', 'preventive_maintenance', 'firmware', 'repair', 'other')),
      status text not null default 'open' check (status in ('open', 'completed')),
      notes text,
      completion_notes text,
      started_at timestamptz not null default now(),
      completed_at timestamptz,
      created_by uuid not null references users (id),
      completed_by uuid references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index cycler_service_events_cycler_idx on cycler_service_events (cycler_id, created_at)`);
    // At most one open event per cycler.
    this.addSql(`create unique index cycler_service_events_open_idx on cycler_service_events (cycler_id) where status = 'open'`);

    this.addSql(`create table channels (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      cycler_id uuid not null references cyclers (id) on delete cascade,
      name text not null,
      notes text,
      max_amps double precision check (max_amps >= 0),
      min_volts double precision,
      max_volts double precision,
      out_of_commission boolean not null default false,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (min_volts is null or max_volts is null or min_volts < max_volts),
      unique (cycler_id, name))`);
    this.addSql(`create index channels_project_idx on channels (project_id, cycler_id)`);

    this.addSql(`create table channel_incidents (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      channel_id uuid not null references channels (id) on delete cascade,
      out_of_commission boolean not null,
      incident_category text check (incident_category in ('hardware_failure', 'maintenance', 'calibration', 'decommissioned', 'other')),
      description text,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now())`);
    this.addSql(`create index channel_incidents_channel_idx on channel_incidents (channel_id, created_at)`);

    this.addSql(`create table cell_specifications (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      description text,
      manufacturer text,
      form_factor text,
      chemistry text,
      ratings jsonb,
      anode jsonb,
      cathode jsonb,
      electrolyte jsonb,
      separator jsonb,
      properties jsonb,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name))`);

    this.addSql(`create table cell_instances (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      cell_specification_id uuid not null references cell_specifications (id) on delete cascade,
      name text not null,
      serial_number text,
      batch text,
      notes text,
      properties jsonb,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (cell_specification_id, name))`);
    this.addSql(`create index cell_instances_project_idx on cell_instances (project_id)`);

    // Shared with the measurement-data uploads, which add their own columns later.
    this.addSql(`create table cell_measurements (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      cell_instance_id uuid not null references cell_instances (id) on delete cascade,
      name text not null,
      measurement_type text not null check (measurement_type in ('time_series', 'file', 'properties')),
      channel_id uuid references channels (id) on delete set null,
      start_time timestamptz,
      end_time timestamptz,
      estimated_end_time timestamptz,
      protocol text,
      program_name text,
      test_setup jsonb,
      notes text,
      properties jsonb,
      requested_by uuid references users (id) on delete set null,
      processing_status text not null default 'ready' check (processing_status in ('pending', 'running', 'ready', 'failed')),
      processing_error text,
      -- When data last arrived; the lab status tells occupied from stale by it (updated_at when null).
      data_updated_at timestamptz,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index cell_measurements_instance_idx on cell_measurements (cell_instance_id, start_time, id)`);
    this.addSql(`create index cell_measurements_project_idx on cell_measurements (project_id)`);
    this.addSql(`create index cell_measurements_channel_idx on cell_measurements (channel_id, start_time) where channel_id is not null`);

    this.addSql(`create table measurement_watches (
      user_id uuid not null references users (id) on delete cascade,
      measurement_id uuid not null references cell_measurements (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (user_id, measurement_id))`);
    this.addSql(`create index measurement_watches_project_idx on measurement_watches (project_id, user_id)`);
    this.addSql(`create index measurement_watches_measurement_idx on measurement_watches (measurement_id)`);
  }
}
