import { Migration } from '@mikro-orm/migrations';

// Raw data files and analyses join the search index (api/services/searchIndex.ts indexes them
// from now on): the ones stored before are indexed here, with the same name and text.
export class Migration20261127213000SearchRawDataAnalyses extends Migration {
  override name = 'Migration20261127213000SearchRawDataAnalyses';

  up(): void {
    this.addSql(`insert into search_documents (entity_type, entity_id, organization_id, project_id, parent_id, name, body)
      select 'raw_data', id, organization_id, project_id, null, name, concat_ws(' ', filename, source, metadata::text)
        from raw_data where confirmed_at is not null
      on conflict (entity_type, entity_id) do nothing`);
    this.addSql(`insert into search_documents (entity_type, entity_id, organization_id, project_id, parent_id, name, body)
      select 'analysis', id, organization_id, project_id, measurement_id, name,
             concat_ws(' ', analysis_type, notes, metadata::text)
        from analyses
      on conflict (entity_type, entity_id) do nothing`);
  }

  override down(): void {
    this.addSql(`delete from search_documents where entity_type in ('raw_data', 'analysis')`);
  }
}
