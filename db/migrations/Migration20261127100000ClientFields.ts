import { Migration } from '@mikro-orm/migrations';

// Fields the public Python client (ionworks-api 0.38) sends and reads back, which Cellar
// dropped before: a measurement's protocol as an object (a plain name stays a JSON string),
// cell specification source/notes, instance manufacture date and measured properties,
// booked service windows on service events and channel outages.
export class Migration20261127100000ClientFields extends Migration {
  override name = 'Migration20261127100000ClientFields';

  up(): void {
    this.addSql(`alter table cell_measurements alter column protocol type jsonb using to_jsonb(protocol)`);
    this.addSql(`alter table cell_specifications add column source text, add column notes text`);
    this.addSql(`alter table cell_instances add column date_manufactured text, add column measured_properties jsonb`);
    this.addSql(`alter table cycler_service_events add column scheduled_for timestamptz, add column scheduled_until timestamptz`);
    this.addSql(`alter table channel_incidents add column service_scheduled_at timestamptz, add column service_scheduled_until timestamptz`);
  }

  override down(): void {
    this.addSql(`alter table channel_incidents drop column service_scheduled_at, drop column service_scheduled_until`);
    this.addSql(`alter table cycler_service_events drop column scheduled_for, drop column scheduled_until`);
    this.addSql(`alter table cell_instances drop column date_manufactured, drop column measured_properties`);
    this.addSql(`alter table cell_specifications drop column source, drop column notes`);
    this.addSql(`alter table cell_measurements alter column protocol type text using protocol #>> '{}'`);
  }
}
