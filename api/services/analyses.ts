// Analyses: features extracted from one cell measurement (ECM parameters from EIS, LLI/LAM from
// an RPT, ...), as the Python client uploads them: a Parquet table (multipart) plus column specs,
// plot presets and loose metadata. The table is stored under its measurement's prefix, so
// deleting the measurement or its project removes it with everything else.
import { randomUUID } from 'node:crypto';
import { parquetMetadata, parquetSchema } from 'hyparquet';
import type { RequestContext } from '../context.ts';
import { ValidationFailed, invalid, notFound, type ValidationIssue } from '../errors.ts';
import { parseList } from '../listQuery.ts';
import type { UploadedFile } from '../multipart.ts';
import { insertRow, page, updateRow } from '../../db/repositories/sqlRows.ts';
import { isPlainObject, UUID } from '../values.ts';
import { measurementPrefix } from '../../storage/measurementKeys.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { requireMeasurement } from './cellMeasurements.ts';

type Json = Record<string, unknown>;

interface AnalysisRow {
  id: string;
  organization_id: string;
  project_id: string;
  measurement_id: string;
  name: string;
  object_key: string;
  created_at: Date;
  updated_at: Date;
  [column: string]: unknown;
}

const DOWNLOAD_TTL_SECONDS = 300;
const FILE_LOC = ['body', 'file'];

function present(row: AnalysisRow) {
  const { organization_id: _o, object_key: _k, created_by: _c, ...rest } = row;
  return { ...rest, size_bytes: Number(row.size_bytes), created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

async function find(ctx: RequestContext, id: string): Promise<AnalysisRow | null> {
  return (await ctx.em.execute<AnalysisRow[]>(`select * from analyses where id = ?`, [id]))[0] ?? null;
}

async function requireAnalysis(ctx: RequestContext, id: string, permission: string): Promise<AnalysisRow> {
  const a = await find(ctx, id);
  if (!a) throw notFound('analysis', id);
  assertSameOrganization(ctx.caller, a.organization_id, 'analysis');
  await requireProjectPermission(ctx, a.project_id, permission);
  return a;
}

/** Before any file byte is read: the measurement exists and the caller may add to it. */
export async function createAnalysisGate(ctx: RequestContext, fields: Record<string, string>) {
  const id = fields.measurement_id;
  if (id && UUID.test(id)) await requireMeasurement(ctx, id.toLowerCase(), 'cell_measurement:update');
}

/** A multipart field holding JSON of the expected kind. */
function jsonField(fields: Record<string, string | undefined>, name: string, kind: 'array' | 'object', issues: ValidationIssue[]): unknown {
  const raw = fields[name];
  if (raw === undefined || raw === '') return kind === 'array' ? [] : {};
  try {
    const v: unknown = JSON.parse(raw);
    if (kind === 'array' ? Array.isArray(v) : isPlainObject(v)) return v;
  } catch {
    // reported below
  }
  issues.push({ loc: ['body', name], msg: `must be JSON: ${kind === 'array' ? 'an array' : 'an object'}`, type: 'json_invalid', input: raw.slice(0, 200) });
  return undefined;
}

/** Column specs name columns (of the table, when it is known); plot presets name listed columns. */
function checkColumnsAndPlots(columns: unknown, plots: unknown, tableColumns: string[] | null, issues: ValidationIssue[], at: string) {
  const named = new Set<string>();
  if (Array.isArray(columns)) {
    columns.forEach((c, i) => {
      if (!isPlainObject(c) || typeof c.name !== 'string' || !c.name) {
        issues.push({ loc: [at, 'columns', i, 'name'], msg: 'each column is {"name", "unit"?, "dtype"?}', type: 'value_error' });
      } else if (tableColumns && !tableColumns.includes(c.name)) {
        issues.push({ loc: [at, 'columns', i, 'name'], msg: `the table has no column ${JSON.stringify(c.name)} (it has ${tableColumns.join(', ')})`, type: 'value_error' });
      } else named.add(c.name);
    });
  }
  const known = named.size ? named : tableColumns ? new Set(tableColumns) : null;
  if (!Array.isArray(plots)) return;
  plots.forEach((p, i) => {
    if (!isPlainObject(p) || typeof p.x !== 'string') {
      issues.push({ loc: [at, 'plots', i, 'x'], msg: 'a plot preset is {"x": column, "y"?: [columns], "y2"?: [columns], ...}', type: 'value_error' });
      return;
    }
    const used = [p.x, ...[p.y, p.y2].flatMap((v) => (Array.isArray(v) ? v : [])), ...(typeof p.group_by === 'string' ? [p.group_by] : [])];
    const missing = known ? used.find((c) => typeof c !== 'string' || !known.has(c)) : undefined;
    if (missing !== undefined) issues.push({ loc: [at, 'plots', i], msg: `names ${JSON.stringify(missing)}, which is not a column of this analysis`, type: 'value_error' });
  });
}

function tableColumnsOf(file: Buffer): string[] {
  try {
    const metadata = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
    return parquetSchema(metadata).children.map((c) => c.element.name);
  } catch (err) {
    throw invalid(FILE_LOC, `is not a readable Parquet file (${(err as Error).message})`, 'value_error');
  }
}

export async function createAnalysis(ctx: RequestContext, fields: Record<string, string>, files: UploadedFile[] | undefined) {
  const file = files?.find((f) => f.fieldname === 'file');
  if (!file) throw invalid(FILE_LOC, 'is required: the Parquet table of the analysis', 'missing');
  const m = await requireMeasurement(ctx, fields.measurement_id!.toLowerCase(), 'cell_measurement:update');
  const issues: ValidationIssue[] = [];
  const columns = jsonField(fields, 'columns', 'array', issues);
  const plots = jsonField(fields, 'plots', 'array', issues);
  const metadata = jsonField(fields, 'metadata', 'object', issues);
  if (!issues.length) checkColumnsAndPlots(columns, plots, tableColumnsOf(file.buffer), issues, 'body');
  if (issues.length) throw new ValidationFailed(issues);
  const id = randomUUID();
  const key = `${measurementPrefix(m.organization_id, m.project_id, m.id)}analyses/${id}.parquet`;
  // The object first: a row never names a table that is not there (an orphan object of a failed
  // insert goes with its measurement).
  await ctx.storage.put(key, file.buffer);
  await insertRow(ctx.em, 'analyses', {
    id, organization_id: m.organization_id, project_id: m.project_id, measurement_id: m.id, name: fields.name, analysis_type: fields.analysis_type,
    columns, plots, metadata, notes: fields.notes ?? null, object_key: key, size_bytes: file.size, created_by: ctx.caller.userId,
  }, 'id');
  return present((await find(ctx, id))!);
}

export async function getAnalysis(ctx: RequestContext, id: string) {
  return present(await requireAnalysis(ctx, id, 'cell_measurement:read'));
}

const LIST = {
  columns: { name: { kind: 'text' }, analysis_type: { kind: 'text' }, created_at: { kind: 'date' } },
  sortable: ['name', 'created_at'],
  defaultOrderBy: 'created_at',
  defaultOrder: 'desc',
  defaultLimit: 100,
  maxLimit: 1000,
  tieBreak: 'id',
} as const;

/** By measurement or by project (exactly one, as the client sends), newest first. */
export async function listAnalyses(ctx: RequestContext, query: Record<string, unknown>) {
  const { measurement_id: measurementId, project_id: projectId, ...rest } = query;
  if ((measurementId === undefined) === (projectId === undefined)) {
    throw invalid(['query', 'measurement_id'], 'give exactly one of measurement_id and project_id', 'value_error');
  }
  let scope: { sql: string; params: unknown[] };
  if (typeof measurementId === 'string') {
    await requireMeasurement(ctx, measurementId, 'cell_measurement:read');
    scope = { sql: 'measurement_id = ?', params: [measurementId] };
  } else {
    await requireProjectPermission(ctx, String(projectId), 'cell_measurement:read');
    scope = { sql: 'project_id = ?', params: [projectId] };
  }
  const result = await page<AnalysisRow>(ctx.em, { select: '*', from: 'analyses', scope: [scope], list: parseList(rest, LIST) });
  return { ...result, items: result.items.map(present) };
}

export async function updateAnalysis(ctx: RequestContext, id: string, body: Json) {
  const a = await requireAnalysis(ctx, id, 'cell_measurement:update');
  const issues: ValidationIssue[] = [];
  // Presets are checked against the columns they will sit beside (the stored ones unless replaced).
  checkColumnsAndPlots(body.columns ?? a.columns, body.plots, null, issues, 'body');
  if (issues.length) throw new ValidationFailed(issues);
  const fields = ['name', 'analysis_type', 'columns', 'plots', 'metadata', 'notes'];
  await updateRow(ctx.em, 'analyses', id, Object.fromEntries(fields.map((f) => [f, body[f]])));
  return present((await find(ctx, id))!);
}

export async function deleteAnalysis(ctx: RequestContext, id: string) {
  const a = await requireAnalysis(ctx, id, 'cell_measurement:update');
  await ctx.em.execute(`delete from analyses where id = ?`, [id]);
  await ctx.storage.delete(a.object_key);
  return { id, deleted: true };
}

export async function analysisDownloadUrl(ctx: RequestContext, id: string) {
  const a = await requireAnalysis(ctx, id, 'cell_measurement:read');
  const { url } = await ctx.storage.signedGetUrl(a.object_key, { expiresInSeconds: DOWNLOAD_TTL_SECONDS, filename: `analysis-${a.id}.parquet` });
  return { url, expires_in: DOWNLOAD_TTL_SECONDS };
}
