// Analyses: features extracted from one measurement, kept as the Parquet table uploaded (under
// the measurement's prefix, so the measurement's purge takes it too) with column specs, plot
// presets and metadata. Permissions are the measurement's.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { RequestContext } from '../../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { namedRecordList, parseList, type ListSpec } from '../../listQuery.ts';
import type { UploadedFile } from '../../multipart.ts';
import type { RequestBody } from '../../schemas.ts';
import { UUID } from '../../values.ts';
import * as repo from '../../../db/repositories/analyses.ts';
import { indexAnalysis, unindexEntity } from '../searchIndex.ts';
import { findMeasurement } from '../../../db/repositories/cells.ts';
import { recordStarts, startRecorded } from '../../../db/workflowStarts.ts';
import { measurementPrefix } from '../../../storage/measurementKeys.ts';
import { assertSameOrganization, requireProjectPermission } from '../access.ts';
import { onePart, readParquet } from '../parquetUploads.ts';
import { purgeStart } from '../storedObjects.ts';
import { checkAgainstTable, jsonField, specsOf } from './checks.ts';

const DOWNLOAD_TTL_SECONDS = 300;
const LIST: ListSpec = {
  ...namedRecordList({ analysis_type: { kind: 'text', sql: 'a.analysis_type' } }, { alias: 'a', tieBreak: 'a.id' }),
  sortable: ['name', 'analysis_type', 'created_at', 'updated_at'],
};

const analysisPrefix = (m: { organization_id: string; project_id: string; id: string }, id: string) =>
  `${measurementPrefix(m.organization_id, m.project_id, m.id)}analyses/${id}/`;

export function serialize(a: repo.AnalysisRow): Record<string, unknown> {
  const { object_key: _key, file_columns: _columns, ...rest } = a;
  return { ...rest, created_at: a.created_at.toISOString(), updated_at: a.updated_at.toISOString() };
}

async function requireMeasurement(ctx: RequestContext, id: string, permission: string) {
  const m = await findMeasurement(ctx.em, id);
  if (!m) throw notFound('cell measurement', id);
  assertSameOrganization(ctx.caller, m.organization_id, 'cell measurement');
  await requireProjectPermission(ctx, m.project_id, permission);
  return m;
}

async function requireAnalysis(ctx: RequestContext, id: string, permission: string): Promise<repo.AnalysisRow> {
  const a = await repo.findAnalysis(ctx.em, id);
  if (!a) throw notFound('analysis', id);
  assertSameOrganization(ctx.caller, a.organization_id, 'analysis');
  await requireProjectPermission(ctx, a.project_id, permission);
  return a;
}

/** Before the file is read: the caller must be able to add to the measurement. */
export async function createGate(req: Request, fields: Record<string, string>) {
  if (fields.measurement_id && UUID.test(fields.measurement_id))
    await requireMeasurement(req.ctx, fields.measurement_id.toLowerCase(), 'cell_measurement:create');
}

export async function createAnalysis(
  ctx: RequestContext,
  body: Record<string, string>,
  files: UploadedFile[] | undefined,
) {
  const m = await requireMeasurement(ctx, body.measurement_id!, 'cell_measurement:create');
  const specs = specsOf(jsonField<unknown[]>(body.columns, 'columns', 'list', []));
  const plots = jsonField<Record<string, unknown>[]>(body.plots, 'plots', 'list', []);
  const metadata = jsonField<Record<string, unknown>>(body.metadata, 'metadata', 'object', {});
  const parsed = await readParquet(onePart(files).buffer);
  checkAgainstTable(parsed.names, specs, plots);
  const id = randomUUID();
  const key = `${analysisPrefix(m, id)}data.parquet`;
  await ctx.storage.put(key, parsed.bytes);
  try {
    await ctx.em.transactional(async (em) => {
      await repo.insertAnalysis(em, {
        id,
        organization_id: m.organization_id,
        project_id: m.project_id,
        measurement_id: m.id,
        name: body.name!,
        analysis_type: body.analysis_type!,
        columns: specs,
        plots,
        metadata,
        notes: body.notes ?? null,
        file_columns: parsed.names,
        row_count: parsed.rows.length,
        object_key: key,
        size_bytes: parsed.bytes.length,
        created_by: ctx.caller.userId,
      });
      await indexAnalysis(em, id);
    });
  } catch (err) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw err;
  }
  return serialize((await repo.findAnalysis(ctx.em, id))!);
}

export async function listAnalyses(ctx: RequestContext, query: Record<string, unknown>) {
  const { measurement_id: measurementId, project_id: projectId, ...rest } = query;
  if ((measurementId === undefined) === (projectId === undefined)) {
    throw invalid(
      ['query', measurementId === undefined ? 'measurement_id' : 'project_id'],
      'give exactly one of measurement_id and project_id',
      'value_error',
    );
  }
  const list = parseList(rest, LIST);
  let scope;
  if (typeof measurementId === 'string') {
    await requireMeasurement(ctx, measurementId, 'cell_measurement:read');
    scope = { sql: 'a.measurement_id = ?', params: [measurementId] };
  } else {
    await requireProjectPermission(ctx, String(projectId), 'cell_measurement:read');
    scope = { sql: 'a.project_id = ?', params: [projectId] };
  }
  const page = await repo.listAnalyses(ctx.em, [scope], list);
  return { ...page, items: page.items.map(serialize) };
}

export async function getAnalysis(ctx: RequestContext, id: string) {
  return serialize(await requireAnalysis(ctx, id, 'cell_measurement:read'));
}

export async function updateAnalysis(ctx: RequestContext, id: string, body: RequestBody<'updateAnalysis'>) {
  const a = await requireAnalysis(ctx, id, 'cell_measurement:update');
  const specs = body.columns ?? a.columns;
  const plots = (body.plots as Record<string, unknown>[] | undefined) ?? a.plots;
  if (body.columns !== undefined || body.plots !== undefined) checkAgainstTable(a.file_columns, specs, plots);
  await ctx.em.transactional(async (em) => {
    await repo.updateAnalysis(em, id, {
      name: body.name,
      analysis_type: body.analysis_type,
      columns: body.columns,
      plots: body.plots as Record<string, unknown>[] | undefined,
      metadata: body.metadata,
      notes: body.notes,
    });
    await indexAnalysis(em, id);
  });
  return serialize((await repo.findAnalysis(ctx.em, id))!);
}

export async function downloadUrl(ctx: RequestContext, id: string) {
  const a = await requireAnalysis(ctx, id, 'cell_measurement:read');
  const filename = `${a.name.replace(/[^\x20-\x7e]+/g, '_').replaceAll('"', '')}.parquet`;
  const signed = await ctx.storage.signedGetUrl(a.object_key, { expiresInSeconds: DOWNLOAD_TTL_SECONDS, filename });
  return { url: signed.url, expires_at: signed.expiresAt.toISOString() };
}

export async function deleteAnalysis(ctx: RequestContext, id: string) {
  const a = await requireAnalysis(ctx, id, 'cell_measurement:delete');
  const recorded = await ctx.em.transactional(async (em) => {
    await unindexEntity(em, 'analysis', id);
    await repo.deleteAnalysis(em, id);
    return recordStarts(em, [
      purgeStart(
        ctx.config,
        analysisPrefix({ organization_id: a.organization_id, project_id: a.project_id, id: a.measurement_id }, id),
      ),
    ]);
  });
  await startRecorded(ctx, recorded);
  return { id, deleted: true };
}
