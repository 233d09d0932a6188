import { Migration } from '@mikro-orm/migrations';

// The lab status's grid view finds each channel's next reservation among the active plans only
// (scheduled or in progress), so it reads neither completed nor cancelled history; the end is
// included so that the read needs no heap fetch. (planned_measurements_channel_idx holds every plan.)
export class Migration20261127224500PlanActiveIndex extends Migration {
  override name = 'Migration20261127224500PlanActiveIndex';

  up(): void {
    this.addSql(
      `create index planned_measurements_active_idx on planned_measurements (channel_id, planned_start_time)
         include (planned_end_time) where status in ('scheduled', 'in_progress')`,
    );
  }

  override down(): void {
    this.addSql(`drop index planned_measurements_active_idx`);
  }
}
