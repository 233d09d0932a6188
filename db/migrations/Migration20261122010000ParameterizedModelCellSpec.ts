import { Migration } from '@mikro-orm/migrations';

// A parameterized model's cell specification is now checked when it is created (of the caller's
// organization), and a key keeps it true afterwards: deleting the specification unlinks its
// models instead of leaving them naming a record that is gone. References made before the check
// that name no specification of the model's own organization are cleared first.
export class Migration20261122010000ParameterizedModelCellSpec extends Migration {
  override name = 'Migration20261122010000ParameterizedModelCellSpec';

  up(): void {
    this.addSql(`update parameterized_models p set cell_spec_id = null
      where cell_spec_id is not null
        and not exists (select 1 from cell_specifications c where c.id = p.cell_spec_id and c.organization_id = p.organization_id)`);
    this.addSql(`alter table parameterized_models add constraint parameterized_models_cell_spec_id_fkey
      foreign key (cell_spec_id) references cell_specifications (id) on delete set null`);
    this.addSql(`create index parameterized_models_cell_spec_idx on parameterized_models (cell_spec_id) where cell_spec_id is not null`);
  }

  override down(): void {
    this.addSql(`drop index parameterized_models_cell_spec_idx`);
    this.addSql(`alter table parameterized_models drop constraint parameterized_models_cell_spec_id_fkey`);
  }
}
