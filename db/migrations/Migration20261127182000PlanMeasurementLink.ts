import { Migration } from '@mikro-orm/migrations';

// The real run of a planned measurement names it (cell_measurements.planned_measurement_id).
// When that run is on the plan's channel and has started, the plan is in progress; once the run
// has ended, completed. A trigger keeps this whichever path writes the measurement (create,
// patch, upload), and never moves a cancelled or completed plan.
export class Migration20261127182000PlanMeasurementLink extends Migration {
  override name = 'Migration20261127182000PlanMeasurementLink';

  up(): void {
    this.addSql(`alter table cell_measurements add column planned_measurement_id uuid references planned_measurements (id) on delete set null`);
    this.addSql(`create index cell_measurements_planned_idx on cell_measurements (planned_measurement_id) where planned_measurement_id is not null`);
    this.addSql(`create function planned_measurement_follows_run() returns trigger language plpgsql as $$
      begin
        update planned_measurements p
           set status = case when new.end_time is not null and new.end_time <= now() then 'completed' else 'in_progress' end, updated_at = now()
         where p.id = new.planned_measurement_id and p.channel_id = new.channel_id and p.status in ('scheduled', 'in_progress')
           and (new.start_time is null or new.start_time <= now());
        return null;
      end $$`);
    this.addSql(`create trigger cell_measurements_plan after insert or update of planned_measurement_id, channel_id, start_time, end_time
      on cell_measurements for each row when (new.planned_measurement_id is not null) execute function planned_measurement_follows_run()`);
  }

  override down(): void {
    this.addSql(`drop trigger cell_measurements_plan on cell_measurements`);
    this.addSql(`drop function planned_measurement_follows_run()`);
    this.addSql(`alter table cell_measurements drop column planned_measurement_id`);
  }
}
