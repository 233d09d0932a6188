import { Migration } from '@mikro-orm/migrations';

// Optimizations (/optimizations) are pipelines of one fit, run by the same engine: a third kind.
export class Migration20261127210000OptimizationKind extends Migration {
  override name = 'Migration20261127210000OptimizationKind';

  up(): void {
    this.addSql(`alter table pipelines drop constraint pipelines_kind_check`);
    this.addSql(
      `alter table pipelines add constraint pipelines_kind_check check (kind in ('pipeline', 'simple', 'optimization'))`,
    );
  }
}
