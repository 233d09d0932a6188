import { Migration } from '@mikro-orm/migrations';

// Cell batches (manufacturing lots) of a cell specification, names unique per specification
// case-insensitively; an instance joins one by batch_id. Deleting a lot keeps its cells.
export class Migration20261127120000CellBatches extends Migration {
  override name = 'Migration20261127120000CellBatches';

  up(): void {
    this.addSql(`create table cell_batches (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      cell_specification_id uuid not null references cell_specifications (id) on delete cascade,
      name text not null,
      notes text,
      date_manufactured text,
      properties jsonb,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create unique index cell_batches_spec_name on cell_batches (cell_specification_id, lower(name))`);
    this.addSql(`alter table cell_instances add column batch_id uuid references cell_batches (id) on delete set null`);
    this.addSql(`create index cell_instances_batch_id on cell_instances (batch_id) where batch_id is not null`);
  }

  override down(): void {
    this.addSql(`alter table cell_instances drop column batch_id`);
    this.addSql(`drop table cell_batches`);
  }
}
