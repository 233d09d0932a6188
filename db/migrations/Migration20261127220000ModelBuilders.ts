import { Migration } from '@mikro-orm/migrations';

// Model builders: a project's recipe (entry and calculation elements) that turns a cell
// specification into a model's parameter values. A cell specification's default parameterized
// model (a build's set_as_default) is kept beside the specification, one row per specification.
export class Migration20261127220000ModelBuilders extends Migration {
  override name = 'Migration20261127220000ModelBuilders';

  up(): void {
    this.addSql(`create table model_builders (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      model_id uuid not null references models (id) on delete cascade,
      name text not null,
      description text,
      config jsonb not null,
      created_by uuid not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create unique index model_builders_name_idx on model_builders (project_id, model_id, name)`);
    this.addSql(`create table cell_spec_default_models (
      cell_spec_id uuid primary key references cell_specifications (id) on delete cascade,
      parameterized_model_id uuid not null references parameterized_models (id) on delete cascade,
      created_at timestamptz not null default now()
    )`);
  }

  override down(): void {
    this.addSql(`drop table cell_spec_default_models`);
    this.addSql(`drop table model_builders`);
  }
}
