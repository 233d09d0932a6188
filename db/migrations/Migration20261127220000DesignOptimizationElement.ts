import { Migration } from '@mikro-orm/migrations';

// A design optimization runs as an optimization pipeline's one element of a new type.
export class Migration20261127220000DesignOptimizationElement extends Migration {
  override name = 'Migration20261127220000DesignOptimizationElement';

  up(): void {
    this.addSql(`alter table pipeline_elements drop constraint pipeline_elements_element_type_check`);
    this.addSql(
      `alter table pipeline_elements add constraint pipeline_elements_element_type_check check (element_type in
        ('entry', 'calculation', 'data_fit', 'array_data_fit', 'validation', 'design_optimization'))`,
    );
  }
}
