import { Migration } from '@mikro-orm/migrations';

// Sweeps solve chunks of design points and store each flush of results as one "result pack"
// object: the standalone Parquet files of many simulations, one after another. A simulation
// records where its two files lie in its pack; downloads read that byte range. Simulations
// stored before this keep their own folder (result_pack is null for them).
export class Migration20261127060000SweepResultPacks extends Migration {
  override name = 'Migration20261127060000SweepResultPacks';

  up(): void {
    this.addSql(`alter table simulations add column result_pack jsonb`);
    // The end-of-sweep clean-up asks which packs any simulation still names (a reused result
    // names the pack of the simulation it reuses, in another batch).
    this.addSql(`create index simulations_result_pack_idx on simulations ((result_pack ->> 'key')) where result_pack is not null`);
  }

  override down(): void {
    this.addSql(`drop index simulations_result_pack_idx`);
    this.addSql(`alter table simulations drop column result_pack`);
  }
}
