import { Migration } from '@mikro-orm/migrations';

// Compute time of pipeline elements per job type ({"datafit": s, "validation": s}), beside the
// simulations' compute_seconds: the usage the Python client reads breaks compute down by type.
export class Migration20261127200500PipelineComputeUsage extends Migration {
  override name = 'Migration20261127200500PipelineComputeUsage';

  up(): void {
    this.addSql(`alter table usage_counters add column pipeline_compute_seconds jsonb not null default '{}'::jsonb`);
  }
}
