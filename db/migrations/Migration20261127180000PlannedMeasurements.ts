import { Migration } from '@mikro-orm/migrations';

// Planned measurements: future test requests of a project that, once scheduled, reserve a channel
// over [planned_start_time, planned_end_time). Two reservations of one channel never overlap: an
// exclusion constraint (btree_gist for the uuid equality) holds that under concurrent writers.
// Service windows as the public client sends them: a cycler's service event books its visit
// (scheduled_for/_until), and a channel may carry one (service_scheduled_at/_until).
export class Migration20261127180000PlannedMeasurements extends Migration {
  override name = 'Migration20261127180000PlannedMeasurements';

  up(): void {
    this.addSql(`create extension if not exists btree_gist`);
    this.addSql(`create table planned_measurements (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      status text not null default 'requested' check (status in ('requested', 'scheduled', 'in_progress', 'completed', 'cancelled')),
      protocol_id uuid references experiment_templates (id) on delete set null,
      cell_specification_id uuid references cell_specifications (id) on delete set null,
      cell_instance_id uuid references cell_instances (id) on delete set null,
      channel_id uuid references channels (id) on delete set null,
      planned_start_time timestamptz,
      planned_end_time timestamptz,
      estimated_duration_seconds integer check (estimated_duration_seconds > 0),
      setup_duration_seconds integer check (setup_duration_seconds >= 0),
      teardown_duration_seconds integer check (teardown_duration_seconds >= 0),
      test_setup jsonb,
      notes text,
      requested_by uuid references users (id) on delete set null,
      scheduled_by uuid references users (id) on delete set null,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name),
      check (planned_end_time > planned_start_time),
      check (status <> 'requested' or estimated_duration_seconds is not null),
      check (status <> 'scheduled' or (channel_id is not null and planned_start_time is not null and planned_end_time is not null)),
      constraint planned_measurements_no_overlap exclude using gist (
        channel_id with =, tstzrange(planned_start_time, planned_end_time, '[)') with &&) where (status in ('scheduled', 'in_progress')))`);
    this.addSql(`create index planned_measurements_project_idx on planned_measurements (project_id, created_at, id)`);
    this.addSql(`create index planned_measurements_channel_idx on planned_measurements (channel_id, planned_start_time) where channel_id is not null`);
    // A deleted channel returns its future reservations to the queue instead of leaving them on nothing.
    this.addSql(`create function planned_measurements_channel_gone() returns trigger language plpgsql as $$
      begin
        update planned_measurements set status = 'requested', channel_id = null, planned_start_time = null, planned_end_time = null,
               estimated_duration_seconds = coalesce(estimated_duration_seconds, greatest(1, extract(epoch from planned_end_time - planned_start_time)::integer)),
               updated_at = now()
         where channel_id = old.id and status = 'scheduled';
        return old;
      end $$`);
    this.addSql(`create trigger planned_measurements_channel_gone before delete on channels
      for each row execute function planned_measurements_channel_gone()`);

    this.addSql(`alter table cycler_service_events add column if not exists scheduled_for timestamptz, add column if not exists scheduled_until timestamptz`);
    this.addSql(`alter table cycler_service_events add constraint cycler_service_events_window_check check (scheduled_until > scheduled_for)`);
    this.addSql(`alter table channels add column service_scheduled_at timestamptz, add column service_scheduled_until timestamptz,
      add constraint channels_service_window_check check (service_scheduled_until > service_scheduled_at)`);
  }

  override down(): void {
    this.addSql(`alter table channels drop column service_scheduled_at, drop column service_scheduled_until`);
    this.addSql(`alter table cycler_service_events drop constraint cycler_service_events_window_check`);
    this.addSql(`alter table cycler_service_events drop column if exists scheduled_for, drop column if exists scheduled_until`);
    this.addSql(`drop trigger planned_measurements_channel_gone on channels`);
    this.addSql(`drop function planned_measurements_channel_gone()`);
    this.addSql(`drop table planned_measurements`);
  }
}
