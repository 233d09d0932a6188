// Reads of processed measurement data: downloads (redirects to signed GETs), the steps and
// cycles summaries, a downsampled series for plots, uploaded files and the validation report.
import type { RequestContext } from '../context.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import * as repo from '../../db/repositories/measurementData.ts';
import { assertSameOrganization } from './access.ts';
import { downsample, openParquet, readTable, type ParquetObject } from './parquetColumns.ts';
import { fileKey, measurementPrefix, OVERVIEW_MIN_ROWS, overviewKey } from '../../storage/measurementKeys.ts';
import { ObjectNotFound, type ObjectStorage } from '../../storage/storage.ts';

/** Signed download URLs are short-lived; objects replaced by an extend outlive them. */
const DOWNLOAD_TTL_SECONDS = 300;
/** Values (rows × columns) in one time_series answer: about 20 MB of JSON at most (the download has the rest). */
export const MAX_SERIES_CELLS = 1_000_000;

// Storage reads are an organization-level permission: every member may read measurement data.
async function loadMeasurement(ctx: RequestContext, measurementId: string): Promise<repo.MeasurementDataRow> {
  const m = await repo.findMeasurement(ctx.em, measurementId);
  if (!m) throw notFound('cell measurement', measurementId);
  assertSameOrganization(ctx.caller, m.organization_id, 'cell measurement');
  return m;
}

/**
 * Data exists once processing is ready; 409 says which state it is in. While an extend is
 * processing, the stored series (the version before it, kept whole until the switch) is read.
 */
async function readable(
  ctx: RequestContext,
  measurementId: string,
  type: 'time_series' | 'file',
): Promise<repo.MeasurementDataRow> {
  const m = await loadMeasurement(ctx, measurementId);
  if (m.measurement_type !== type) {
    throw conflict(
      `cell measurement ${m.id} holds ${m.measurement_type} data, not ${type === 'file' ? 'files' : 'a time series'}`,
      {
        measurement_type: m.measurement_type,
      },
    );
  }
  const extending = m.extending_version !== null && m.time_series_key !== null;
  if (m.processing_status !== 'ready' && !extending) {
    const why =
      m.processing_status === 'failed'
        ? `its data failed processing: ${m.processing_error}`
        : `its data is still processing (${m.processing_status})`;
    throw conflict(`cell measurement ${m.id} has no data to read yet: ${why}`, {
      processing_status: m.processing_status,
      processing_error: m.processing_error,
    });
  }
  return m;
}

const asciiName = (s: string) => s.replace(/[^\x20-\x7e]+/g, '_').replaceAll('"', '');

async function signedDownload(ctx: RequestContext, key: string, filename: string): Promise<string> {
  return (
    await ctx.storage.signedGetUrl(key, { expiresInSeconds: DOWNLOAD_TTL_SECONDS, filename: asciiName(filename) })
  ).url;
}

export async function timeSeriesDownload(ctx: RequestContext, measurementId: string): Promise<string> {
  const m = await readable(ctx, measurementId, 'time_series');
  return signedDownload(ctx, m.time_series_key!, `${m.name}-time_series.parquet`);
}

export async function stepsDownload(ctx: RequestContext, measurementId: string): Promise<string> {
  const m = await readable(ctx, measurementId, 'time_series');
  return signedDownload(ctx, m.steps_key!, `${m.name}-steps.parquet`);
}

export async function stepsAndCycles(ctx: RequestContext, measurementId: string) {
  const m = await readable(ctx, measurementId, 'time_series');
  const [steps, cycles] = await Promise.all([
    readTable(ctx.storage, m.steps_key!),
    readTable(ctx.storage, m.cycles_key!),
  ]);
  return { steps, cycles };
}

/** Under `cycles`, where the Python client reads the table. */
export async function cycles(ctx: RequestContext, measurementId: string) {
  const m = await readable(ctx, measurementId, 'time_series');
  return { cycles: await readTable(ctx.storage, m.cycles_key!) };
}

export async function files(ctx: RequestContext, measurementId: string) {
  const m = await readable(ctx, measurementId, 'file');
  return { filenames: m.filenames ?? [] };
}

export async function fileDownload(ctx: RequestContext, measurementId: string, filename: string): Promise<string> {
  const m = await readable(ctx, measurementId, 'file');
  const index = (m.filenames ?? []).indexOf(filename);
  if (index < 0) throw notFound(`file "${filename}" of cell measurement ${measurementId}`);
  return signedDownload(
    ctx,
    fileKey(measurementPrefix(m.organization_id, m.project_id, m.id), index, filename),
    filename,
  );
}

function listParam(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const parts = (Array.isArray(v) ? v : [v])
    .flatMap((s) => String(s).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length ? parts : undefined;
}

/**
 * The plot overview processing stored for a long series (its LTTB rows at 20,000 points, every
 * column), when it has more rows than asked for: downsampling it instead of the series takes
 * milliseconds instead of seconds. Null for series processed before overviews and larger requests.
 */
async function overviewFor(
  storage: ObjectStorage,
  timeSeriesKey: string,
  maxPoints: number,
): Promise<ParquetObject | null> {
  try {
    const overview = await openParquet(storage, overviewKey(timeSeriesKey));
    return overview.rowCount > maxPoints ? overview : null;
  } catch (err) {
    if (err instanceof ObjectNotFound) return null;
    throw err;
  }
}

export async function timeSeries(
  ctx: RequestContext,
  measurementId: string,
  query: { columns?: unknown; max_points?: number },
) {
  const m = await readable(ctx, measurementId, 'time_series');
  const p = await openParquet(ctx.storage, m.time_series_key!);
  const columns = listParam(query.columns) ?? p.columns;
  const unknown = columns.filter((c) => !p.columns.includes(c));
  if (unknown.length) {
    throw invalid(
      ['query', 'columns'],
      `unknown column(s) ${unknown.map((c) => JSON.stringify(c)).join(', ')}; stored columns: ${p.columns.join(', ')}`,
      'value_error',
      query.columns,
    );
  }
  const maxPoints = query.max_points ?? 5000;
  // The answer is built whole in memory (as numbers, then as JSON text): its size is bounded.
  const unique = new Set(columns).size;
  const cells = Math.min(maxPoints, p.rowCount) * unique;
  if (cells > MAX_SERIES_CELLS) {
    throw invalid(
      ['query', 'max_points'],
      `${unique} columns of ${Math.min(maxPoints, p.rowCount)} rows are ${cells} values; ` +
        `at most ${MAX_SERIES_CELLS} per answer: ask for fewer points or columns (or download the series)`,
      'less_than_equal',
      maxPoints,
      { le: Math.floor(MAX_SERIES_CELLS / unique) },
    );
  }
  // Only a long series can have an overview: shorter ones cost no storage lookup for it.
  const mayHaveOverview = p.rowCount > maxPoints && p.rowCount >= OVERVIEW_MIN_ROWS;
  const source = mayHaveOverview ? ((await overviewFor(ctx.storage, m.time_series_key!, maxPoints)) ?? p) : p;
  const result = await downsample(source, [...new Set(columns)], maxPoints, { x: 'Time [s]', y: 'Voltage [V]' });
  return {
    measurement_id: m.id,
    row_count: p.rowCount,
    point_count: result.columns[columns[0]!]?.length ?? 0,
    downsampled: result.downsampled,
    method: result.downsampled ? 'lttb' : 'none',
    columns: result.columns,
  };
}

export async function validationReport(ctx: RequestContext, measurementId: string) {
  const m = await loadMeasurement(ctx, measurementId);
  const issues = (m.validation_report?.issues ?? []) as { severity?: string }[];
  return {
    measurement_id: m.id,
    processing_status: m.processing_status,
    processing_error: m.processing_error,
    mode: m.validation_report?.mode ?? null,
    version: m.validation_report?.version ?? null,
    processed_at: m.processed_at?.toISOString() ?? null,
    error_count: issues.filter((i) => i.severity === 'error').length,
    warning_count: issues.filter((i) => i.severity === 'warning').length,
    issues,
  };
}
