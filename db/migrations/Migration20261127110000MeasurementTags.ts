import { Migration } from '@mikro-orm/migrations';

// Free-form labels on measurements, as the Python client sets and filters them: a JSON array
// of strings, normalised (trimmed, deduplicated case-insensitively, sorted) by the API.
export class Migration20261127110000MeasurementTags extends Migration {
  override name = 'Migration20261127110000MeasurementTags';

  up(): void {
    this.addSql(`alter table cell_measurements add column tags jsonb not null default '[]'::jsonb`);
    this.addSql(`create index cell_measurements_tags on cell_measurements using gin (tags)`);
  }

  override down(): void {
    this.addSql(`alter table cell_measurements drop column tags`);
  }
}
