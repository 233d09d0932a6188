// The shared search index: one document per searchable entity, written in the same
// transaction as the entity. Entity types join by calling indexEntity/unindexEntity from
// their service; GET /search reads the table.
import type { EntityManager } from '@mikro-orm/postgresql';

export interface SearchDocumentInput {
  entity_type: string;
  entity_id: string;
  organization_id: string;
  project_id?: string | null;
  parent_id?: string | null;
  name: string;
  body?: string | null;
}

export async function indexEntity(em: EntityManager, doc: SearchDocumentInput): Promise<void> {
  await em.execute(
    `insert into search_documents (entity_type, entity_id, organization_id, project_id, parent_id, name, body,
      updated_at)
     values (?, ?, ?, ?, ?, ?, ?, now())
     on conflict (entity_type, entity_id) do update set
       project_id = excluded.project_id, parent_id = excluded.parent_id, name = excluded.name,
       body = excluded.body, updated_at = now()`,
    [
      doc.entity_type,
      doc.entity_id,
      doc.organization_id,
      doc.project_id ?? null,
      doc.parent_id ?? null,
      doc.name,
      doc.body ?? null,
    ],
  );
}

export async function unindexEntity(em: EntityManager, entityType: string, entityId: string): Promise<void> {
  await em.execute(`delete from search_documents where entity_type = ? and entity_id = ?`, [entityType, entityId]);
}

/** Removes every document of a project (used when the project is deleted). */
export async function unindexProject(em: EntityManager, projectId: string): Promise<void> {
  await em.execute(`delete from search_documents where project_id = ? or (entity_type = 'project' and entity_id = ?)`, [
    projectId,
    projectId,
  ]);
}

// Raw data files (once confirmed) and analyses are indexed from their own rows: the name, and as
// text the file name, source, analysis type, notes and metadata.
const UPSERT = `on conflict (entity_type, entity_id) do update set project_id = excluded.project_id,
  parent_id = excluded.parent_id, name = excluded.name, body = excluded.body, updated_at = now()`;

export async function indexRawData(em: EntityManager, id: string): Promise<void> {
  await em.execute(
    `insert into search_documents (entity_type, entity_id, organization_id, project_id, parent_id, name, body)
     select 'raw_data', id, organization_id, project_id, null, name, concat_ws(' ', filename, source, metadata::text)
       from raw_data where id = ? and confirmed_at is not null ${UPSERT}`,
    [id],
  );
}

export async function indexAnalysis(em: EntityManager, id: string): Promise<void> {
  await em.execute(
    `insert into search_documents (entity_type, entity_id, organization_id, project_id, parent_id, name, body)
     select 'analysis', id, organization_id, project_id, measurement_id, name,
            concat_ws(' ', analysis_type, notes, metadata::text)
       from analyses where id = ? ${UPSERT}`,
    [id],
  );
}

/** The analyses of measurements being deleted (they go with them). */
export async function unindexAnalysesOf(em: EntityManager, measurementIds: string[]): Promise<void> {
  if (!measurementIds.length) return;
  await em.execute(
    `delete from search_documents where entity_type = 'analysis'
        and parent_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
    [JSON.stringify(measurementIds)],
  );
}
