import { Migration } from '@mikro-orm/migrations';

// The experiment template (protocol) a measurement ran, named by protocol_id at create,
// confirm-upload or patch. A deleted template leaves the measurement without the link.
export class Migration20261121020000MeasurementProtocolId extends Migration {
  override name = 'Migration20261121020000MeasurementProtocolId';

  up(): void {
    this.addSql(`alter table cell_measurements add column protocol_id uuid references experiment_templates (id) on delete set null`);
    this.addSql(`create index cell_measurements_protocol_id on cell_measurements (protocol_id) where protocol_id is not null`);
  }

  override down(): void {
    this.addSql(`alter table cell_measurements drop column protocol_id`);
  }
}
