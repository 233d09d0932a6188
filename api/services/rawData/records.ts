// Raw-data records: read, list, rename and re-describe, download, and delete (the file purged
// in the background, durably). Permissions follow measurements': a raw file is measurement data.
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { namedRecordList, parseList, type ListSpec } from '../../listQuery.ts';
import * as repo from '../../../db/repositories/rawData.ts';
import { indexRawData, unindexEntity } from '../searchIndex.ts';
import { recordStarts, startRecorded } from '../../../db/workflowStarts.ts';
import type { RequestBody } from '../../schemas.ts';
import { rawDataPrefix } from '../../../storage/rawDataKeys.ts';
import { assertSameOrganization, readableProjectsSql, requireProjectPermission } from '../access.ts';
import { purgeStart } from '../storedObjects.ts';

const DOWNLOAD_TTL_SECONDS = 300;

const LIST: ListSpec = {
  ...namedRecordList(
    {
      filename: { kind: 'text', sql: 'r.filename' },
      source: { kind: 'text', sql: 'r.source' },
      size_bytes: { kind: 'number', sql: 'r.size_bytes' },
    },
    { alias: 'r', tieBreak: 'r.id' },
  ),
  sortable: ['name', 'filename', 'size_bytes', 'created_at', 'updated_at'],
};

/** Timestamps as ISO strings, as the other records are answered. */
export function serialize(r: repo.RawDataRecord): Record<string, unknown> {
  return { ...r, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() };
}

/** A confirmed record the caller may act on; an upload not yet confirmed does not exist to readers. */
export async function requireRawData(ctx: RequestContext, id: string, permission: string): Promise<repo.RawDataRow> {
  const row = await repo.findRawData(ctx.em, id);
  if (!row?.confirmed_at) throw notFound('raw data', id);
  assertSameOrganization(ctx.caller, row.organization_id, 'raw data');
  await requireProjectPermission(ctx, row.project_id, permission);
  return row;
}

export async function listRawData(ctx: RequestContext, query: Record<string, unknown>) {
  const { project_id: projectId, ...rest } = query;
  const list = parseList(rest, LIST);
  const scope =
    typeof projectId === 'string'
      ? (await requireProjectPermission(ctx, projectId, 'cell_measurement:read'),
        [{ sql: 'r.project_id = ?', params: [projectId] }])
      : [readableProjectsSql(ctx.caller, 'r.project_id')];
  const page = await repo.list(ctx.em, scope, list);
  return { ...page, items: page.items.map(serialize) };
}

export async function getRawData(ctx: RequestContext, id: string) {
  await requireRawData(ctx, id, 'cell_measurement:read');
  return serialize(await repo.record(ctx.em, id));
}

export async function updateRawData(ctx: RequestContext, id: string, body: RequestBody<'updateRawData'>) {
  await requireRawData(ctx, id, 'cell_measurement:update');
  // The client clears the source with an empty string.
  const source = body.source === '' ? null : body.source;
  await ctx.em.transactional(async (em) => {
    await repo.update(em, id, { name: body.name, source, metadata: body.metadata });
    await indexRawData(em, id);
  });
  return serialize(await repo.record(ctx.em, id));
}

export async function downloadUrl(ctx: RequestContext, id: string) {
  const row = await requireRawData(ctx, id, 'cell_measurement:read');
  const filename = row.filename.replace(/[^\x20-\x7e]+/g, '_').replaceAll('"', '');
  const signed = await ctx.storage.signedGetUrl(row.object_key, { expiresInSeconds: DOWNLOAD_TTL_SECONDS, filename });
  return { url: signed.url, expires_at: signed.expiresAt.toISOString() };
}

export async function deleteRawData(ctx: RequestContext, id: string) {
  const row = await requireRawData(ctx, id, 'cell_measurement:delete');
  const recorded = await ctx.em.transactional(async (em) => {
    await unindexEntity(em, 'raw_data', id);
    await repo.remove(em, id);
    // Recorded with the delete: the file goes even if this process stops before the purge runs.
    return recordStarts(em, [purgeStart(ctx.config, rawDataPrefix(row.organization_id, row.project_id, id))]);
  });
  await startRecorded(ctx, recorded);
  return { id, deleted: true };
}
