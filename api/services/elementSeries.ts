// The model-vs-data series of a pipeline's fits and validations (stored by the Python worker,
// pyworker fitting/series.py), read by job as the Python client does: GET /jobs/{id}/series/channels
// names them, GET /jobs/{id}/series reads one objective and source, windowed and downsampled.
import type { RequestContext } from '../context.ts';
import { ValidationFailed, notFound } from '../errors.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { Lttb, openParquet, readRows, type Cell } from './parquetColumns.ts';
import { pipelineSeriesPrefix } from '../../storage/projectKeys.ts';

const SOURCES = ['optimal', 'baseline'] as const;
const TIME = 'Time [s]';

interface ElementOfJob {
  name: string;
  element_type: string;
  config: Record<string, unknown>;
  pipeline_id: string;
  organization_id: string;
  project_id: string;
}

/** The pipeline element the job runs, readable by the caller; 404 for any other job. */
async function elementOf(ctx: RequestContext, jobId: string): Promise<ElementOfJob> {
  const [el] = await ctx.em.execute<ElementOfJob[]>(
    `select e.name, e.element_type, e.config, e.pipeline_id, p.organization_id, p.project_id
       from pipeline_elements e join pipelines p on p.id = e.pipeline_id where e.job_id = ?`,
    [jobId],
  );
  if (!el) throw notFound('job with a series', jobId);
  assertSameOrganization(ctx.caller, el.organization_id, 'job');
  await requireProjectPermission(ctx, el.project_id, 'pipeline:read');
  return el;
}

const objectiveOf = (el: ElementOfJob) => (typeof el.config.objective === 'string' ? el.config.objective : el.name);
const keyOf = (el: ElementOfJob, jobId: string, source: string) =>
  `${pipelineSeriesPrefix(el.organization_id, el.project_id, el.pipeline_id, jobId)}${source}.parquet`;

/** {objective: {source: [channel, ...]}}; empty when the job stored none (yet). */
export async function seriesChannels(ctx: RequestContext, jobId: string) {
  const el = await elementOf(ctx, jobId);
  const sources: Record<string, string[]> = {};
  for (const source of SOURCES) {
    if (await ctx.storage.head(keyOf(el, jobId, source)))
      sources[source] = (await openParquet(ctx.storage, keyOf(el, jobId, source))).columns;
  }
  return Object.keys(sources).length ? { [objectiveOf(el)]: sources } : {};
}

export interface SeriesQuery {
  objective: string;
  source?: string;
  columns?: string;
  x_column?: string;
  max_points?: number;
  x_min?: number;
  x_max?: number;
}

/** One objective's series: {channel: [values]}, rows with x in [x_min, x_max], at most max_points (LTTB). */
export async function readSeries(ctx: RequestContext, jobId: string, q: SeriesQuery) {
  const el = await elementOf(ctx, jobId);
  const source = q.source ?? 'optimal';
  if (q.objective !== objectiveOf(el))
    throw invalidQuery('objective', `this job's objective is ${JSON.stringify(objectiveOf(el))}`, q.objective);
  const key = keyOf(el, jobId, source);
  if (!(await ctx.storage.head(key))) throw invalidQuery('source', `this job has no ${source} series`, source);
  const p = await openParquet(ctx.storage, key);
  const x = q.x_column ?? TIME;
  if (!p.columns.includes(x))
    throw invalidQuery('x_column', `no channel ${JSON.stringify(x)}; channels: ${p.columns.join(', ')}`, x);
  const wanted = q.columns ? q.columns.split(',') : p.columns.filter((c) => c !== x);
  const missing = wanted.find((c) => !p.columns.includes(c));
  if (missing !== undefined)
    throw invalidQuery('columns', `no channel ${JSON.stringify(missing)}; channels: ${p.columns.join(', ')}`, missing);
  const names = [x, ...wanted.filter((c) => c !== x)];
  // Bounded by the rows a fit may use (FIT_MAX_ROWS): the series has one row per data point.
  const cols = await readRows(p, names, 0, p.rowCount);
  const xs = cols[0]!;
  const rows: number[] = [];
  for (let r = 0; r < p.rowCount; r++) {
    const v = Number(xs[r]);
    if ((q.x_min === undefined || v >= q.x_min) && (q.x_max === undefined || v <= q.x_max)) rows.push(r);
  }
  let picked = rows;
  if (q.max_points !== undefined && rows.length > q.max_points) {
    picked = [];
    const ys = cols[1] ?? xs;
    const lttb = new Lttb(rows.length, q.max_points, (i) => picked.push(rows[i]!));
    rows.forEach((r, i) => lttb.push(i, xs[r], ys[r]));
  }
  const cell = (v: unknown): Cell => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return Object.fromEntries(names.map((name, k) => [name, picked.map((r) => cell(cols[k]![r]))]));
}

function invalidQuery(field: string, msg: string, input: unknown) {
  return new ValidationFailed([{ loc: ['query', field], msg, type: 'value_error', input }]);
}

/**
 * The stored sources of a fit's or validation's series; 404 when it stored none (the client reads that as "no
 * metadata").
 */
async function storedSources(ctx: RequestContext, el: ElementOfJob, jobId: string) {
  const found = [];
  for (const source of SOURCES) if (await ctx.storage.head(keyOf(el, jobId, source))) found.push(source);
  if (!found.length) throw notFound('metadata of job', jobId);
  return found;
}

// Plots per objective: the measured and fitted curves, then the model's error (as ionworks-schema's fit_panels).
const PLOTS = 2;

/**
 * GET /jobs/{id}/metadata: the plot manifest the client assembles a result's overlay from, the
 * validation statistics, and a fit's optimizer trace (a validation has none: empty).
 */
export async function jobMetadata(ctx: RequestContext, jobId: string) {
  const el = await elementOf(ctx, jobId);
  // A design optimization compares with no data: it has a trace but no series, once it has a result.
  const design = el.element_type === 'design_optimization';
  if (!design) await storedSources(ctx, el, jobId);
  const [row] = await ctx.em.execute<{ result: Record<string, unknown> | null }[]>(
    `select result from pipeline_elements where job_id = ?`,
    [jobId],
  );
  const result = row?.result ?? {};
  if (design) {
    if (!row?.result) throw notFound('metadata of job', jobId);
    return { validation_plot_config: { objectives: {} }, validation_results: {}, intermediate_results: trace(result) };
  }
  const objective = objectiveOf(el);
  return {
    validation_plot_config: { objectives: { [objective]: { plot_count: PLOTS, type: 'CurrentDriven' } } },
    validation_results: {
      [objective]: {
        summary_stats: result.summary_stats ?? null,
        n_points: result.n_points ?? null,
        coverage: result.coverage ?? null,
      },
    },
    intermediate_results: trace(result),
  };
}

/** The optimizer's trace the run recorded (a fit from before the trace was kept has none). */
const trace = (result: Record<string, unknown>) =>
  Array.isArray(result.intermediate_results) ? result.intermediate_results : [];

export interface PlotQuery {
  objective_name: string;
  plot_index?: number;
  max_points?: number;
  x_min?: number;
  x_max?: number;
}

/** GET /pipelines/datafits/{id}/plot_data: one plot of an objective, plotly-style {traces: [{name, x, y}], layout}. */
export async function plotData(ctx: RequestContext, jobId: string, q: PlotQuery) {
  const el = await elementOf(ctx, jobId);
  await storedSources(ctx, el, jobId);
  const index = q.plot_index ?? 0;
  if (index >= PLOTS) throw notFound(`plot ${index} of objective`, q.objective_name);
  const series = await readSeries(ctx, jobId, {
    objective: q.objective_name,
    max_points: q.max_points ?? 2000,
    x_min: q.x_min,
    x_max: q.x_max,
  });
  const dataColumn = Object.keys(series).find((c) => c.endsWith(' (data)'))!;
  const target = dataColumn.slice(0, -' (data)'.length);
  const x = series[TIME]!;
  const data = series[dataColumn]!;
  const model = series[`${target} (model)`]!;
  const axis = (text: string) => ({ title: { text } });
  if (index === 0) {
    return {
      type: 'scatter',
      traces: [
        { name: 'Data', x, y: data },
        { name: 'Fit', x, y: model },
      ],
      layout: { xaxis: axis(TIME), yaxis: axis(target) },
    };
  }
  const unit = /\[(.*)\]/.exec(target)?.[1];
  const error = model.map((m, i) => (m === null || data[i] === null ? null : (m as number) - (data[i] as number)));
  return {
    type: 'scatter',
    traces: [{ name: 'Error', x, y: error }],
    layout: { xaxis: axis(TIME), yaxis: axis(unit ? `Error [${unit}]` : 'Error') },
  };
}
