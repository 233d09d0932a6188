// Material property datasets: a project's table of a material's measured properties, kept as
// the Parquet file uploaded (under the project's prefix, one object per data version) with the
// column specs that name its columns. Permissions are the cell specifications': material data
// is cell design data.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { RequestContext } from '../../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { namedRecordList, parseList, type ListSpec } from '../../listQuery.ts';
import type { UploadedFile } from '../../multipart.ts';
import type { RequestBody } from '../../schemas.ts';
import { UUID } from '../../values.ts';
import * as repo from '../../../db/repositories/materials.ts';
import { recordStarts, startRecorded } from '../../../db/workflowStarts.ts';
import { logger } from '../../../stack/logger.ts';
import { assertSameOrganization, readableProjectsSql, requireProjectPermission } from '../access.ts';
import { readTable } from '../parquetColumns.ts';
import { purgeStart } from '../storedObjects.ts';
import { onePart, readParquet } from '../parquetUploads.ts';
import { allColumns, checkSpecs, nanCounts, parseSpecsField } from './datasetFiles.ts';
import { requireMaterial } from './materials.ts';

const DOWNLOAD_TTL_SECONDS = 300;
const LIST: ListSpec = namedRecordList({}, { alias: 'd', tieBreak: 'd.id' });

const datasetPrefix = (d: Pick<repo.DatasetRow, 'organization_id' | 'project_id' | 'id'>) =>
  `orgs/${d.organization_id}/projects/${d.project_id}/material_property_datasets/${d.id}/`;
const fileKey = (d: Pick<repo.DatasetRow, 'organization_id' | 'project_id' | 'id'>, version: number) =>
  `${datasetPrefix(d)}v${version}.parquet`;

export function serialize(d: repo.DatasetRow): Record<string, unknown> {
  const { object_key: _key, ...rest } = d;
  return { ...rest, created_at: d.created_at.toISOString(), updated_at: d.updated_at.toISOString() };
}

async function requireDataset(ctx: RequestContext, id: string, permission: string): Promise<repo.DatasetRow> {
  const d = await repo.findDataset(ctx.em, id);
  if (!d) throw notFound('material property dataset', id);
  assertSameOrganization(ctx.caller, d.organization_id, 'material property dataset');
  await requireProjectPermission(ctx, d.project_id, permission);
  return d;
}

/** Before a file is read: the caller must be able to write where it would go. */
export async function createGate(req: Request, fields: Record<string, string>) {
  if (fields.project_id && UUID.test(fields.project_id))
    await requireProjectPermission(req.ctx, fields.project_id.toLowerCase(), 'cell_specification:create');
}
export async function replaceGate(req: Request) {
  const id = /^\/material_property_datasets\/([^/]+)\/file$/.exec(req.path)?.[1];
  if (id && UUID.test(id)) await requireDataset(req.ctx, id.toLowerCase(), 'cell_specification:update');
}

export async function listDatasets(ctx: RequestContext, query: Record<string, unknown>) {
  const { project_id: projectId, material_id: materialId, ...rest } = query;
  await requireMaterial(ctx, String(materialId));
  const list = parseList(rest, LIST);
  const scope =
    typeof projectId === 'string'
      ? (await requireProjectPermission(ctx, projectId, 'cell_specification:read'),
        { sql: 'd.project_id = ?', params: [projectId] })
      : readableProjectsSql(ctx.caller, 'd.project_id');
  const page = await repo.listDatasets(ctx.em, [{ sql: 'd.material_id = ?', params: [materialId] }, scope], list);
  return { ...page, items: page.items.map(serialize) };
}

export async function getDataset(ctx: RequestContext, id: string) {
  return serialize(await requireDataset(ctx, id, 'cell_specification:read'));
}

export async function createDataset(
  ctx: RequestContext,
  body: RequestBody<'createMaterialPropertyDataset'> | Record<string, string>,
  files: UploadedFile[] | undefined,
) {
  const fields = body as Record<string, string>;
  const project = await requireProjectPermission(ctx, fields.project_id!, 'cell_specification:create');
  const material = await requireMaterial(ctx, fields.material_id!).catch(() => {
    throw invalid(
      ['body', 'material_id'],
      'no such material in the catalogue or this organization',
      'value_error',
      fields.material_id,
    );
  });
  if (material.project_id !== null && material.project_id !== project.id) {
    throw invalid(['body', 'material_id'], 'is a material of another project', 'value_error', fields.material_id);
  }
  const specsGiven = parseSpecsField(fields.columns);
  const parsed = await readParquet(onePart(files).buffer);
  const specs = specsGiven ?? allColumns(parsed.names);
  checkSpecs(specs, parsed.names.length, ['body', 'columns']);
  const ref = { id: randomUUID(), organization_id: project.organization_id, project_id: project.id };
  const key = fileKey(ref, 1);
  await ctx.storage.put(key, parsed.bytes);
  try {
    await repo.insertDataset(ctx.em, {
      ...ref,
      material_id: material.id,
      name: fields.name!,
      columns: specs,
      nan_counts: nanCounts(specs, parsed.names, parsed.rows),
      row_count: parsed.rows.length,
      object_key: key,
      size_bytes: parsed.bytes.length,
      created_by: ctx.caller.userId,
    });
  } catch (err) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw err;
  }
  return serialize((await repo.findDataset(ctx.em, ref.id))!);
}

export async function replaceFile(
  ctx: RequestContext,
  id: string,
  body: Record<string, string>,
  files: UploadedFile[] | undefined,
) {
  const before = await requireDataset(ctx, id, 'cell_specification:update');
  const specsGiven = parseSpecsField(body.columns);
  const parsed = await readParquet(onePart(files).buffer);
  const specs = specsGiven ?? before.columns;
  checkSpecs(specs, parsed.names.length, specsGiven ? ['body', 'columns'] : ['body', 'file', 'columns']);
  const stored = await ctx.em.transactional(async (em) => {
    const d = (await repo.findDataset(em, id, { forUpdate: true }))!;
    const version = d.data_version + 1;
    const key = fileKey(d, version);
    await ctx.storage.put(key, parsed.bytes);
    await repo.updateDataset(em, id, {
      name: body.name || undefined,
      columns: specs,
      nan_counts: nanCounts(specs, parsed.names, parsed.rows),
      row_count: parsed.rows.length,
      data_version: version,
      object_key: key,
      size_bytes: parsed.bytes.length,
    });
    return d.object_key;
  });
  // The old version is no longer named by the record; should this fail, the dataset's purge takes it.
  await ctx.storage
    .delete(stored)
    .catch((err: unknown) =>
      logger.warn({ err: { message: String(err) }, key: stored }, 'old dataset file not removed'),
    );
  return serialize((await repo.findDataset(ctx.em, id))!);
}

export async function updateDataset(
  ctx: RequestContext,
  id: string,
  body: RequestBody<'updateMaterialPropertyDataset'>,
) {
  const d = await requireDataset(ctx, id, 'cell_specification:update');
  const changes: Parameters<typeof repo.updateDataset>[2] = { name: body.name };
  if (body.columns) {
    const specs = body.columns.map((c) => ({
      name: c.name,
      unit: c.unit ?? '',
      source_column_index: c.source_column_index,
    }));
    const table = await readTable(ctx.storage, d.object_key);
    const names = Object.keys(table);
    checkSpecs(specs, names.length, ['body', 'columns']);
    const rows = Array.from({ length: d.row_count }, (_, r) => Object.fromEntries(names.map((n) => [n, table[n]![r]])));
    Object.assign(changes, { columns: specs, nan_counts: nanCounts(specs, names, rows) });
  }
  await repo.updateDataset(ctx.em, id, changes);
  return serialize((await repo.findDataset(ctx.em, id))!);
}

/** {column name: values}, the specs' names for the file's columns they select. */
export async function datasetData(ctx: RequestContext, id: string) {
  const d = await requireDataset(ctx, id, 'cell_specification:read');
  const table = await readTable(ctx.storage, d.object_key);
  const names = Object.keys(table);
  return Object.fromEntries(d.columns.map((s) => [s.name, table[names[s.source_column_index]!] ?? []]));
}

export async function downloadUrl(ctx: RequestContext, id: string) {
  const d = await requireDataset(ctx, id, 'cell_specification:read');
  const filename = `${d.name.replace(/[^\x20-\x7e]+/g, '_').replaceAll('"', '')}.parquet`;
  const signed = await ctx.storage.signedGetUrl(d.object_key, { expiresInSeconds: DOWNLOAD_TTL_SECONDS, filename });
  return { url: signed.url, expires_at: signed.expiresAt.toISOString() };
}

export async function deleteDataset(ctx: RequestContext, id: string) {
  const d = await requireDataset(ctx, id, 'cell_specification:delete');
  const recorded = await ctx.em.transactional(async (em) => {
    await repo.deleteDataset(em, id);
    return recordStarts(em, [purgeStart(ctx.config, datasetPrefix(d))]);
  });
  await startRecorded(ctx, recorded);
  return { id, deleted: true };
}
