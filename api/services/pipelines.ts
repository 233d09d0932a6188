// Rules for pipelines and simple pipelines: element validation (nothing starts on bad input),
// creation with one job per element, reads, edits, deletion, and cancellation — in bulk in one
// transaction, with the Temporal terminations handed to one background workflow.
import { createHash, randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { RequestContext } from '../context.ts';
import { AppError, ValidationFailed, conflict, forbidden, notFound, type ValidationIssue } from '../errors.ts';
import { parseList } from '../listQuery.ts';
import * as repo from '../repositories/pipelines.ts';
import { assertSameOrganization, holdsInProject, readableProjectsSql, requireProjectPermission } from './access.ts';
import { isPlainObject, UUID } from '../values.ts';
import { indexEntity, unindexEntity } from './searchIndex.ts';
import { pipelineWorkflowStart } from '../../activities/pipelines.ts';
import { recordStarts, startRecorded } from './workflowStarts.ts';
import { varPtsIssue, workerArgIssue } from './workLimits.ts';
import { isTemporalUnavailable } from '../temporal.ts';
import { logger } from '../logger.ts';
import { checkCalculation } from '../../workflows/calculations.ts';
import { ELEMENT_TYPES, RENAME_SIGNAL, TERMINAL_STATUSES, WORKER_ELEMENT_TYPES, pipelineWorkflowIds } from '../../workflows/pipelineIds.ts';

export type PipelineKind = 'pipeline' | 'simple';

export const MAX_INLINE_ROWS = 1000;
const COSTS = ['RMSE', 'MAE', 'Max', 'SSE'];
const ARRAY_FIT_MODES = ['joint', 'per_dataset'];
const isTerminal = (status: string) => (TERMINAL_STATUSES as readonly string[]).includes(status);
const isFailed = (status: string) => status === 'failed' || status === 'canceled';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function presentPipeline(p: repo.PipelineRow) {
  const { kind: _k, started_at, finished_at, canceled_at, ...rest } = p;
  return {
    ...rest, started_at: iso(started_at), finished_at: iso(finished_at), canceled_at: iso(canceled_at),
    is_terminal: isTerminal(p.status), is_failed: isFailed(p.status), ...errorStrings(p.error_detail),
  };
}

/**
 * The Python client reports a failure with `error` and `error_code` strings: what failed and
 * where its diagnostic is (like error_detail, never the exception's message).
 */
function errorStrings(detail: unknown): { error: string | null; error_code: string | null } {
  if (!detail || typeof detail !== 'object') return { error: null, error_code: null };
  const d = detail as { exception_type?: string; error_code?: string; element_name?: string | null; diagnostic_url?: string };
  const where = d.element_name ? ` in element ${d.element_name}` : '';
  const diagnostic = d.diagnostic_url ? ` (diagnostic: ${d.diagnostic_url})` : '';
  return { error: `${d.exception_type ?? 'error'}${where}${diagnostic}`, error_code: d.error_code ?? null };
}

function presentElement(e: repo.ElementRow) {
  return { ...e, started_at: iso(e.started_at), finished_at: iso(e.finished_at), is_terminal: isTerminal(e.status), is_failed: isFailed(e.status) };
}

type Json = Record<string, unknown>;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

interface Refs {
  /** `windowed`: a time_range picks the rows the fit uses. */
  measurements: { id: string; loc: (string | number)[]; windowed: boolean; needs: string[] }[];
  pipelines: { id: string; loc: (string | number)[] }[];
}

// Parameter values travel from element to element in the workflows' inputs, which Temporal
// limits to 2 MB: a pipeline with 180,000 entry values was accepted, then terminated by the
// server with its record left running. Names are PyBaMM's, a few dozen characters.
const MAX_PARAMETER_VALUES = 2_000;
const MAX_PARAMETER_NAME = 200;

function checkNumberMap(v: unknown, loc: (string | number)[], issues: ValidationIssue[], required: boolean) {
  if (v === undefined && !required) return;
  if (!isPlainObject(v) || (required && Object.keys(v).length === 0)) {
    issues.push({ loc, msg: required ? 'must be a non-empty object of parameter values' : 'must be an object of parameter values', type: 'value_error', input: v });
    return;
  }
  const count = Object.keys(v).length;
  if (count > MAX_PARAMETER_VALUES) {
    issues.push({ loc, msg: `holds ${count} parameter values; at most ${MAX_PARAMETER_VALUES}`, type: 'too_long', ctx: { max_length: MAX_PARAMETER_VALUES } });
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    if (k.length > MAX_PARAMETER_NAME) issues.push({ loc: [...loc, k], msg: `a parameter name has at most ${MAX_PARAMETER_NAME} characters`, type: 'too_long' });
    else if (!isNum(x)) issues.push({ loc: [...loc, k], msg: 'must be a number', type: 'float_type', input: x });
  }
}

/** An optional [start_s, end_s] window of the data a fit or validation uses (beside `data`). */
function checkTimeRange(v: unknown, loc: (string | number)[], issues: ValidationIssue[]): boolean {
  if (v === undefined || v === null) return false;
  const [start, end] = Array.isArray(v) && v.length === 2 && v.every(isNum) ? (v as [number, number]) : [NaN, NaN];
  if (!(start >= 0 && start < end)) {
    issues.push({ loc, msg: 'must be [start_s, end_s]: two numbers of seconds, 0 <= start_s < end_s', type: 'value_error', input: v });
  }
  return true;
}

const TIME = 'Time [s]';

/**
 * The columns a fit's or validation's data must hold, as the worker reads it (fitting/data.py):
 * time, the target (Voltage [V] unless named), and the current that drives the model when no
 * protocol does.
 */
function neededColumns(target: unknown, protocol: unknown): string[] {
  const targets = typeof target === 'string' && target ? [target] : Array.isArray(target) ? target.filter((t): t is string => typeof t === 'string') : ['Voltage [V]'];
  return [...new Set([TIME, ...targets, ...(protocol == null ? ['Current [A]'] : [])])];
}

/** "db:<measurement_id>" or an inline column dict of at most 1,000 rows; `windowed` when a time_range goes with it. */
function checkData(v: unknown, loc: (string | number)[], issues: ValidationIssue[], refs: Refs, windowed: boolean, needs: string[]) {
  if (typeof v === 'string') {
    const id = v.startsWith('db:') ? v.slice(3) : '';
    if (!UUID.test(id)) issues.push({ loc, msg: 'must be "db:<measurement_id>" or an object of columns', type: 'value_error', input: v });
    else refs.measurements.push({ id: id.toLowerCase(), loc, windowed, needs });
    return;
  }
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    issues.push({ loc, msg: 'must be "db:<measurement_id>" or an object of columns (name → array of values)', type: 'value_error', input: v });
    return;
  }
  let rows: number | undefined;
  for (const [name, col] of Object.entries(v)) {
    if (!Array.isArray(col) || col.some((x) => x !== null && !isNum(x))) {
      issues.push({ loc: [...loc, name], msg: 'must be an array of numbers', type: 'list_type' });
      return;
    }
    if (rows !== undefined && col.length !== rows) {
      issues.push({ loc: [...loc, name], msg: `has ${col.length} rows; every column must have ${rows}`, type: 'value_error' });
      return;
    }
    rows = col.length;
  }
  if (rows! > MAX_INLINE_ROWS) {
    issues.push({ loc, msg: `inline data has ${rows} rows; at most ${MAX_INLINE_ROWS} (store larger data as a measurement and use "db:<id>")`, type: 'too_long', ctx: { max_rows: MAX_INLINE_ROWS } });
  } else if (rows! < 3) {
    // As the worker counts them (fitting/data.py MIN_ROWS).
    issues.push({ loc, msg: 'inline data needs at least 3 rows', type: 'too_short' });
  } else {
    const missing = needs.filter((name) => !(name in v));
    for (const name of missing) {
      issues.push({
        loc: [...loc, name], type: 'missing',
        msg: name === TIME ? 'inline data needs a "Time [s]" column'
          : name === 'Current [A]' ? 'inline data needs a "Current [A]" column: without a protocol, the measured current drives the model'
            : `inline data needs a ${JSON.stringify(name)} column: the target the model is compared with`,
      });
    }
    // With a time_range the worker checks only the rows inside it: left to it then.
    if (!missing.length && !windowed) checkTimeOrder(v as Record<string, (number | null)[]>, needs, loc, issues);
  }
}

/** Time must not decrease over the rows the worker uses (those with every needed column set). */
function checkTimeOrder(columns: Record<string, (number | null)[]>, needs: string[], loc: (string | number)[], issues: ValidationIssue[]) {
  const time = columns[TIME]!;
  let previous = -Infinity;
  for (let row = 0; row < time.length; row++) {
    if (needs.some((name) => columns[name]![row] === null)) continue;
    if (time[row]! < previous) {
      issues.push({ loc: [...loc, TIME, row], msg: `"Time [s]" decreases at row ${row}; time must be non-decreasing`, type: 'value_error', input: time[row] });
      return;
    }
    previous = time[row]!;
  }
}

function checkModel(v: unknown, loc: (string | number)[], issues: ValidationIssue[]) {
  // The Python worker checks the model itself (built-in type, quick model or stored spec), but
  // builds its mesh first: the mesh size is bounded here.
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    issues.push({ loc, msg: 'is required: a PyBaMM model such as {"type": "SPMe"}', type: 'value_error', input: v });
    return;
  }
  const varPts = isPlainObject(v.simulation_settings) ? v.simulation_settings.var_pts : undefined;
  const issue = isPlainObject(varPts) ? varPtsIssue(varPts, [...loc, 'simulation_settings', 'var_pts']) : null;
  if (issue) issues.push(issue);
}

/** The element goes to the worker as one activity argument: it must fit (named at its largest field). */
function checkElementSize(el: Json, loc: (string | number)[], issues: ValidationIssue[]) {
  const issue = workerArgIssue(el, loc, 'the element');
  if (!issue) return;
  const sizes = Object.entries(el).map(([k, v]) => [k, JSON.stringify(v)?.length ?? 0] as const);
  const largest = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
  issues.push({ ...issue, loc: [...loc, largest[0]], msg: `${issue.msg} (${largest[0]} is the largest part)` });
}

function checkFitParameters(v: unknown, loc: (string | number)[], issues: ValidationIssue[]) {
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    issues.push({ loc, msg: 'a fit needs at least one parameter: {name: {"bounds": [lo, hi], "initial_value"}}', type: 'value_error', input: v });
    return;
  }
  for (const [name, spec] of Object.entries(v)) {
    const at = [...loc, name];
    if (!isPlainObject(spec) || !Array.isArray(spec.bounds) || spec.bounds.length !== 2 || !spec.bounds.every(isNum)) {
      issues.push({ loc: [...at, 'bounds'], msg: 'must be [lo, hi], two numbers', type: 'value_error', input: isPlainObject(spec) ? spec.bounds : spec });
      continue;
    }
    const [lo, hi] = spec.bounds as [number, number];
    if (lo >= hi) issues.push({ loc: [...at, 'bounds'], msg: `lower bound ${lo} must be below upper bound ${hi}`, type: 'value_error', input: spec.bounds });
    else if (spec.scale === 'log' && lo <= 0) issues.push({ loc: [...at, 'bounds'], msg: `scale 'log' needs a positive lower bound, not ${lo}`, type: 'value_error', input: spec.bounds });
    if (!isNum(spec.initial_value) || spec.initial_value < lo || spec.initial_value > hi) {
      issues.push({ loc: [...at, 'initial_value'], msg: 'is required: a number within the bounds', type: 'value_error', input: spec.initial_value });
    }
    if (spec.scale !== undefined && spec.scale !== 'linear' && spec.scale !== 'log') {
      issues.push({ loc: [...at, 'scale'], msg: 'must be linear or log', type: 'enum', input: spec.scale });
    }
    const unknown = Object.keys(spec).filter((k) => !['bounds', 'initial_value', 'scale'].includes(k));
    if (unknown.length) issues.push({ loc: [...at, unknown[0]!], msg: 'unknown field; allowed: bounds, initial_value, scale', type: 'extra_forbidden' });
  }
}

// The worker's optimizers (pyworker fitting/spec.py): checked here too, so a mistake is a 422, not a failed run.
const FIT_METHODS = ['L-BFGS-B', 'Nelder-Mead', 'Powell', 'TNC', 'SLSQP', 'least_squares', 'differential_evolution'];
const OPTIMIZER_FIELDS = ['method', 'max_iterations', 'max_evaluations', 'tolerance'];
const MAX_ITERATIONS_LIMIT = 100_000;

function checkFitOptions(el: Json, loc: (string | number)[], issues: ValidationIssue[], datasets = 1) {
  if (el.cost !== undefined && !COSTS.includes(el.cost as string)) {
    issues.push({ loc: [...loc, 'cost'], msg: `must be one of ${COSTS.join(', ')}`, type: 'enum', input: el.cost, ctx: { expected: COSTS } });
  }
  checkOptimizer(el.optimizer, (el.cost as string | undefined) ?? 'RMSE', datasets, [...loc, 'optimizer'], issues);
  checkTarget(el, loc, issues);
}

function checkOptimizer(raw: unknown, cost: string, datasets: number, loc: (string | number)[], issues: ValidationIssue[]) {
  if (raw === undefined || raw === null) return;
  const o = typeof raw === 'string' ? { method: raw } : raw;
  if (!isPlainObject(o)) {
    issues.push({ loc, msg: 'must be an object such as {"method": "Nelder-Mead", "max_iterations": 100}', type: 'dict_type' });
    return;
  }
  for (const key of Object.keys(o)) {
    if (!OPTIMIZER_FIELDS.includes(key)) issues.push({ loc: [...loc, key], msg: `unknown field; allowed: ${OPTIMIZER_FIELDS.join(', ')}`, type: 'extra_forbidden' });
  }
  const method = (o.method as string | undefined) || 'Nelder-Mead';
  if (!FIT_METHODS.includes(method)) {
    issues.push({ loc: [...loc, 'method'], msg: `must be one of ${FIT_METHODS.join(', ')}`, type: 'enum', input: o.method, ctx: { expected: FIT_METHODS } });
  } else if (method === 'least_squares' && !['RMSE', 'SSE'].includes(cost)) {
    issues.push({ loc: [...loc, 'method'], msg: `least_squares minimizes squared residuals, so the cost must be RMSE or SSE, not ${cost}`, type: 'value_error', input: method });
  } else if (method === 'least_squares' && cost === 'RMSE' && datasets > 1) {
    // The sum of several data sets' RMSEs is not a sum of squares: least_squares would minimize another objective than the one reported.
    issues.push({ loc: [...loc, 'method'], msg: 'least_squares over several data sets needs cost SSE (a sum of RMSEs is not a sum of squares); or choose another method', type: 'value_error', input: method });
  }
  for (const key of ['max_iterations', 'max_evaluations']) {
    const v = o[key];
    if (v !== undefined && v !== null && !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_ITERATIONS_LIMIT)) {
      issues.push({ loc: [...loc, key], msg: `must be an integer between 1 and ${MAX_ITERATIONS_LIMIT}`, type: 'int_type', input: v });
    }
  }
  if (o.tolerance !== undefined && o.tolerance !== null && !(isNum(o.tolerance) && o.tolerance > 0)) {
    issues.push({ loc: [...loc, 'tolerance'], msg: 'must be a number greater than 0', type: 'greater_than', input: o.tolerance });
  }
}

function checkTarget(el: Json, loc: (string | number)[], issues: ValidationIssue[]) {
  const t = el.target;
  const name = (x: unknown) => typeof x === 'string' && x.trim() !== '';
  if (t !== undefined && !name(t) && !(Array.isArray(t) && t.length > 0 && t.every(name))) {
    issues.push({ loc: [...loc, 'target'], msg: 'must be a variable name or a list of them', type: 'value_error', input: t });
  }
}

/** Checks every element; collects the measurements and pipelines they refer to. */
function checkElements(elements: Json, kind: PipelineKind): { issues: ValidationIssue[]; refs: Refs } {
  const issues: ValidationIssue[] = [];
  const refs: Refs = { measurements: [], pipelines: [] };
  let workerElements = 0;
  const passedOn = new Set<string>();
  const names = Object.keys(elements);
  for (const [name, el] of Object.entries(elements)) {
    const loc = ['body', 'elements', name];
    // JSON object order puts names that are whole numbers first: the running order would not be the one written.
    if (names.length > 1 && /^(0|[1-9]\d{0,8})$/.test(name)) {
      issues.push({ loc, msg: 'a name that is a whole number runs before the other elements whatever its place; use a name such as "step-1"', type: 'value_error', input: name });
      continue;
    }
    if (!isPlainObject(el)) {
      issues.push({ loc, msg: 'must be an object with element_type', type: 'dict_type' });
      continue;
    }
    const type = el.element_type as string;
    if (!(ELEMENT_TYPES as readonly string[]).includes(type)) {
      issues.push({ loc: [...loc, 'element_type'], msg: `unknown element type; known: ${ELEMENT_TYPES.join(', ')}`, type: 'enum', input: type, ctx: { expected: ELEMENT_TYPES } });
      continue;
    }
    if (WORKER_ELEMENT_TYPES.includes(type)) {
      workerElements++;
      checkElementSize(el, loc, issues);
    }
    switch (type) {
      case 'entry':
        if ((el.values === undefined) === (el.pipeline_id === undefined)) {
          issues.push({ loc, msg: 'an entry gives either "values" or "pipeline_id" (of a completed pipeline)', type: 'value_error' });
        } else if (el.values !== undefined) {
          const before = issues.length;
          checkNumberMap(el.values, [...loc, 'values'], issues, true);
          // The values of all entries are passed on together (counted once this entry's are valid).
          if (issues.length === before) for (const k of Object.keys(el.values as Json)) passedOn.add(k);
          if (issues.length === before && passedOn.size > MAX_PARAMETER_VALUES) {
            issues.push({ loc: [...loc, 'values'], msg: `the entries give ${passedOn.size} parameter values in all; at most ${MAX_PARAMETER_VALUES}`, type: 'too_long', ctx: { max_length: MAX_PARAMETER_VALUES } });
          }
        } else if (typeof el.pipeline_id !== 'string' || !UUID.test(el.pipeline_id)) {
          issues.push({ loc: [...loc, 'pipeline_id'], msg: 'must be a pipeline id (UUID)', type: 'uuid_parsing', input: el.pipeline_id });
        } else refs.pipelines.push({ id: el.pipeline_id.toLowerCase(), loc: [...loc, 'pipeline_id'] });
        break;
      case 'calculation':
        for (const i of checkCalculation(el)) issues.push({ loc: [...loc, ...i.loc], msg: i.msg, type: 'value_error' });
        break;
      case 'data_fit':
        checkModel(el.model, [...loc, 'model'], issues);
        checkFitParameters(el.parameters, [...loc, 'parameters'], issues);
        checkNumberMap(el.fixed_parameters, [...loc, 'fixed_parameters'], issues, false);
        checkData(el.data, [...loc, 'data'], issues, refs, checkTimeRange(el.time_range, [...loc, 'time_range'], issues), neededColumns(el.target, el.protocol));
        checkFitOptions(el, loc, issues);
        break;
      case 'array_data_fit':
        checkModel(el.model, [...loc, 'model'], issues);
        checkFitParameters(el.parameters, [...loc, 'parameters'], issues);
        checkNumberMap(el.fixed_parameters, [...loc, 'fixed_parameters'], issues, false);
        if (typeof el.independent_variable !== 'string' || !el.independent_variable) {
          issues.push({ loc: [...loc, 'independent_variable'], msg: 'is required: the parameter the data sets differ in, e.g. "Ambient temperature [K]"', type: 'missing' });
        }
        if (!Array.isArray(el.datasets) || el.datasets.length === 0 || el.datasets.length > 50) {
          issues.push({ loc: [...loc, 'datasets'], msg: 'must be a list of 1 to 50 {"value", "data"} items', type: 'value_error' });
        } else {
          el.datasets.forEach((d: unknown, i: number) => {
            if (!isPlainObject(d) || !isNum(d.value)) issues.push({ loc: [...loc, 'datasets', i, 'value'], msg: 'must be a number (the independent variable)', type: 'float_type' });
            else checkData(d.data, [...loc, 'datasets', i, 'data'], issues, refs, checkTimeRange(d.time_range, [...loc, 'datasets', i, 'time_range'], issues), neededColumns(el.target, d.protocol));
          });
        }
        if (el.mode !== undefined && !ARRAY_FIT_MODES.includes(el.mode as string)) {
          issues.push({ loc: [...loc, 'mode'], msg: `must be one of ${ARRAY_FIT_MODES.join(', ')}`, type: 'enum', input: el.mode, ctx: { expected: ARRAY_FIT_MODES } });
        }
        checkFitOptions(el, loc, issues, Array.isArray(el.datasets) ? el.datasets.length : 1);
        break;
      case 'validation':
        checkModel(el.model, [...loc, 'model'], issues);
        checkData(el.data, [...loc, 'data'], issues, refs, checkTimeRange(el.time_range, [...loc, 'time_range'], issues), neededColumns(el.target, el.protocol));
        checkNumberMap(el.parameter_values, [...loc, 'parameter_values'], issues, false);
        checkTarget(el, loc, issues);
        break;
    }
  }
  if (kind === 'simple' && workerElements > 1) {
    issues.push({ loc: ['body', 'elements'], msg: 'a simple pipeline has at most one data_fit, array_data_fit or validation element', type: 'value_error' });
  }
  return { issues, refs };
}

/** Measurements must be the caller's organization's, with a ready time series; source pipelines completed. */
async function checkRefs(ctx: RequestContext, refs: Refs) {
  const issues: ValidationIssue[] = [];
  const found = new Map((await repo.findMeasurements(ctx.em, [...new Set(refs.measurements.map((r) => r.id))])).map((m) => [m.id, m]));
  for (const ref of refs.measurements) {
    const m = found.get(ref.id);
    if (!m) issues.push({ loc: ref.loc, msg: `no measurement ${ref.id}`, type: 'value_error', input: `db:${ref.id}` });
    else if (m.organization_id !== ctx.caller.organizationId) throw forbidden(`measurement ${ref.id} belongs to another organization`, { loc: ref.loc });
    // A fit reads the series: that needs what GET /cell_measurements/{id} needs, in the measurement's project.
    else if (!(await holdsInProject(ctx, m.project_id, 'cell_measurement:read'))) {
      throw forbidden(`measurement ${ref.id} is in a project where you lack cell_measurement:read`, { loc: ref.loc, permission: 'cell_measurement:read' });
    }
    else if (m.measurement_type !== 'time_series') issues.push({ loc: ref.loc, msg: `measurement ${ref.id} is a ${m.measurement_type} measurement, not a time series`, type: 'value_error' });
    else if (!ref.windowed && m.row_count !== null && m.row_count > ctx.config.fitMaxRows) {
      // The worker uses at most FIT_MAX_ROWS rows of a stored series (each solve interpolates the measured current).
      issues.push({
        loc: ref.loc, type: 'too_long', input: `db:${ref.id}`, ctx: { max_rows: ctx.config.fitMaxRows, rows: m.row_count },
        msg: `measurement ${ref.id} has ${m.row_count} rows; a fit or validation uses at most ${ctx.config.fitMaxRows}: give "time_range": [start_s, end_s] beside data to use a part of it`,
      });
    }
  }
  for (const ref of refs.pipelines) {
    const p = await repo.findPipeline(ctx.em, ref.id);
    if (!p) issues.push({ loc: ref.loc, msg: `no pipeline ${ref.id}`, type: 'value_error', input: ref.id });
    else if (p.organization_id !== ctx.caller.organizationId) throw forbidden(`pipeline ${ref.id} belongs to another organization`, { loc: ref.loc });
    // An entry copies the source's results: reading them needs what GET /pipelines/{id} needs.
    else if (!(await holdsInProject(ctx, p.project_id, 'pipeline:read'))) {
      throw forbidden(`pipeline ${ref.id} is in a project where you lack pipeline:read`, { loc: ref.loc, permission: 'pipeline:read' });
    }
  }
  if (issues.length) throw new ValidationFailed(issues);
  for (const ref of refs.measurements) {
    const m = found.get(ref.id)!;
    // A failed one never becomes usable: that is invalid input, not a wait.
    if (m.processing_status === 'failed') {
      issues.push({ loc: ref.loc, msg: `measurement ${ref.id} failed processing (GET /cell_measurements/${ref.id}/validation says why); it has no series to use`, type: 'value_error', input: `db:${ref.id}` });
      continue;
    }
    const missing = m.data_columns ? ref.needs.filter((name) => !m.data_columns!.includes(name)) : [];
    if (missing.length) {
      issues.push({
        loc: ref.loc, type: 'value_error', input: `db:${ref.id}`, ctx: { missing, available: m.data_columns },
        msg: `measurement ${ref.id} has no ${missing.map((c) => JSON.stringify(c)).join(', ')} column (it has ${m.data_columns!.map((c) => JSON.stringify(c)).join(', ')})`,
      });
    }
  }
  if (issues.length) throw new ValidationFailed(issues);
  for (const ref of refs.measurements) {
    const m = found.get(ref.id)!;
    if (m.processing_status !== 'ready' || !m.time_series_key) {
      throw conflict(`measurement ${ref.id} is still processing (${m.processing_status}); use it once it is ready`, { measurement_id: ref.id, processing_status: m.processing_status, loc: ref.loc });
    }
  }
  for (const ref of refs.pipelines) {
    const p = (await repo.findPipeline(ctx.em, ref.id))!;
    if (p.status !== 'completed') throw conflict(`pipeline ${ref.id} is ${p.status}, not completed`, { pipeline_id: ref.id, status: p.status, loc: ref.loc });
  }
}

export interface PipelineCreate {
  project_id: string;
  name?: string;
  description?: string | null;
  elements?: Json;
  /** The Python client's simple-pipeline form: the elements inside config. */
  config?: { elements: Json };
  options?: Json;
}

// The Python client makes the name optional.
const DEFAULT_NAME: Record<PipelineKind, string> = { pipeline: 'Pipeline', simple: 'Simple pipeline' };

export async function createPipeline(ctx: RequestContext, input: PipelineCreate, kind: PipelineKind) {
  // openapi.yaml lets exactly one of elements and config.elements through.
  const body = { ...input, elements: (input.elements ?? input.config!.elements), name: input.name ?? DEFAULT_NAME[kind] };
  await requireProjectPermission(ctx, body.project_id, 'pipeline:create');
  const { issues, refs } = checkElements(body.elements, kind);
  if (issues.length) throw new ValidationFailed(issues);
  await checkRefs(ctx, refs);
  const id = randomUUID();
  const elements = Object.entries(body.elements).map(([name, el]) => {
    const { element_type, ...config } = el as Json;
    return { id: randomUUID(), name, element_type: element_type as string, config, job_id: randomUUID(), workflow_id: pipelineWorkflowIds.element(id, name) };
  });
  const row = await ctx.em.transactional(async (em) => {
    const p = await repo.insertPipeline(
      em,
      {
        id, organization_id: ctx.caller.organizationId, project_id: body.project_id, kind, name: body.name,
        description: body.description ?? null, options: body.options ?? {}, workflow_id: pipelineWorkflowIds.pipeline(id), created_by: ctx.caller.userId,
      },
      elements,
    );
    await index(em, p);
    // Its first run: a later run of the same id is the retry's to start.
    return { p, recorded: await recordStarts(em, [pipelineWorkflowStart(ctx.config, p, 'REJECT_DUPLICATE')]) };
  });
  await startRecorded(ctx, row.recorded);
  return presentPipeline(row.p);
}

function index(em: RequestContext['em'], p: repo.PipelineRow) {
  return indexEntity(em, {
    entity_type: 'pipeline', entity_id: p.id, organization_id: p.organization_id, project_id: p.project_id, name: p.name, body: p.description,
  });
}

/** The pipeline, checked for the caller's organization and permission (and its kind under /simple_pipelines). */
async function loadPipeline(ctx: RequestContext, id: string, permission: string, kind?: PipelineKind): Promise<repo.PipelineRow> {
  const p = await repo.findPipeline(ctx.em, id);
  if (!p || (kind && p.kind !== kind)) throw notFound(kind === 'simple' ? 'simple pipeline' : 'pipeline', id);
  assertSameOrganization(ctx.caller, p.organization_id, 'pipeline');
  await requireProjectPermission(ctx, p.project_id, permission);
  return p;
}

export async function getPipeline(ctx: RequestContext, id: string, kind?: PipelineKind) {
  return presentPipeline(await loadPipeline(ctx, id, 'pipeline:read', kind));
}

export async function listElements(ctx: RequestContext, id: string) {
  await loadPipeline(ctx, id, 'pipeline:read');
  return (await repo.listElements(ctx.em, id)).map(presentElement);
}

export async function getResult(ctx: RequestContext, id: string) {
  const p = await loadPipeline(ctx, id, 'pipeline:read');
  const elements = await repo.listElements(ctx.em, id);
  // No pipeline_id: the Python client adds its own (a second one is a TypeError there), and
  // result is an object even before the pipeline completes (the client requires one).
  return {
    status: p.status,
    result: p.result ?? {},
    element_results: Object.fromEntries(elements.filter((e) => e.status === 'completed').map((e) => [e.name, e.result ?? {}])),
  };
}

export async function updatePipeline(ctx: RequestContext, id: string, body: { name?: string; description?: string | null }, kind?: PipelineKind) {
  await loadPipeline(ctx, id, 'pipeline:update', kind);
  const row = await ctx.em.transactional(async (em) => {
    const p = await repo.updatePipeline(em, id, body);
    await index(em, p);
    return p;
  });
  // The workflow's memo names the pipeline in the Web UI; a repeated PATCH sends it again.
  if (body.name !== undefined && !isTerminal(row.status)) {
    await ctx.temporal.workflow.getHandle(row.workflow_id).signal(RENAME_SIGNAL, row.name).catch((err: unknown) => {
      // The workflow has just ended: its memo stays as it was. Temporal is down: the rename is
      // stored all the same, and the Web UI shows the old name until the next PATCH.
      if (isTemporalUnavailable(err)) logger.warn({ pipeline_id: row.id }, 'pipeline renamed; its workflow memo was not updated (Temporal unavailable)');
      else if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
  }
  return presentPipeline(row);
}

export async function deletePipeline(ctx: RequestContext, id: string, kind?: PipelineKind) {
  const p = await loadPipeline(ctx, id, 'pipeline:delete', kind);
  // Running work is stopped first, the same way a cancellation does it.
  if (!isTerminal(p.status)) await cancelPipelines(ctx, [id]);
  await ctx.em.transactional(async (em) => {
    await unindexEntity(em, 'pipeline', id);
    await repo.deletePipeline(em, id);
  });
  return { id, deleted: true };
}

/** The cancel workflow's id: a hash of the request's sorted ids, so a retried request finds the first. */
export function cancelWorkflowId(ids: string[]): string {
  const sorted = [...new Set(ids.map((i) => i.toLowerCase()))].sort();
  return pipelineWorkflowIds.cancel(createHash('sha256').update(sorted.join(',')).digest('hex').slice(0, 32));
}

/**
 * Cancels the selected pipelines of the caller's organization in one transaction (pipelines
 * from any state; only non-terminal elements), then hands the Temporal side to one workflow.
 * Unknown ids and other organizations' are reported and never touched; so are pipelines in
 * projects where the caller may not update pipelines.
 */
export async function cancelPipelines(ctx: RequestContext, requested: string[]) {
  const ids = [...new Set(requested.map((i) => i.toLowerCase()))];
  const { outcome, recorded } = await ctx.em.transactional(async (em) => {
    const rows = await repo.findPipelines(em, ids, true);
    const own = rows.filter((r) => r.organization_id === ctx.caller.organizationId);
    const allowed = ctx.caller.isOwner
      ? new Set(own.map((r) => r.project_id))
      : await repo.projectsWithPermission(em, ctx.caller.userId, [...new Set(own.map((r) => r.project_id))], 'pipeline:update');
    const selected = own.filter((r) => allowed.has(r.project_id)).map((r) => r.id);
    if (selected.length) await repo.markCanceled(em, selected);
    // Another organization's pipeline is not found, as GET /pipelines/{id} answers it: its
    // existence is not told.
    const foundIds = new Set(own.map((r) => r.id));
    return {
      outcome: {
        canceled_pipeline_ids: selected,
        not_found_pipeline_ids: ids.filter((i) => !foundIds.has(i)),
        forbidden_pipeline_ids: own.filter((r) => !selected.includes(r.id)).map((r) => r.id),
      },
      // The Temporal side of the cancellation: the same request sent again finds this one.
      recorded: selected.length
        ? await recordStarts(em, [{
          workflowType: 'cancelPipelines', workflowId: cancelWorkflowId(ids), taskQueue: ctx.config.taskQueue,
          args: [{ pipelineIds: selected }], reusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        }])
        : [],
    };
  });
  await startRecorded(ctx, recorded);
  return outcome;
}

export async function cancelPipeline(ctx: RequestContext, id: string, kind?: PipelineKind) {
  await loadPipeline(ctx, id, 'pipeline:update', kind);
  await cancelPipelines(ctx, [id]);
  return presentPipeline((await repo.findPipeline(ctx.em, id))!);
}

const LIST_COLUMNS = {
  project_id: { kind: 'id' },
  name: { kind: 'text' },
  description: { kind: 'text' },
  status: { kind: 'enum', values: ['pending', 'running', 'completed', 'failed', 'canceled'] },
  created_by: { kind: 'id' },
  created_by_email: { kind: 'text', sql: '(select u.email from users u where u.id = created_by)' },
  // The Python client's pipeline lookup by id.
  id: { kind: 'id' },
  created_at: { kind: 'date' },
  updated_at: { kind: 'date' },
  finished_at: { kind: 'date' },
} as const;
const SORTABLE = ['name', 'status', 'created_at', 'updated_at', 'finished_at'];

function scopeOf(ctx: RequestContext, kind: PipelineKind) {
  return [readableProjectsSql(ctx.caller, 'project_id'), { sql: 'kind = ?', params: [kind] }, { sql: 'organization_id = ?', params: [ctx.caller.organizationId] }];
}

/** GET /pipelines: `limit`/`skip`, answered as {pipelines, total}. */
export async function listPipelines(ctx: RequestContext, query: Record<string, unknown>) {
  const { skip, offset: _o, ...rest } = query;
  const list = parseList({ ...rest, ...(skip !== undefined ? { offset: skip } : {}) }, {
    columns: LIST_COLUMNS, sortable: SORTABLE, defaultOrderBy: 'created_at', defaultOrder: 'desc', defaultLimit: 50, maxLimit: 1000,
  });
  const { items, total } = await repo.listPipelines(ctx.em, scopeOf(ctx, 'pipeline'), list);
  return { pipelines: items.map(presentPipeline), total };
}

/** GET /simple_pipelines: a page, newest first, 10 by default. */
export async function listSimplePipelines(ctx: RequestContext, query: Record<string, unknown>) {
  const list = parseList(query, { columns: LIST_COLUMNS, sortable: SORTABLE, defaultOrderBy: 'created_at', defaultOrder: 'desc', defaultLimit: 10, maxLimit: 100 });
  const { items, count, total } = await repo.listPipelines(ctx.em, scopeOf(ctx, 'simple'), list);
  return { items: items.map(presentPipeline), count, total };
}

export async function getDiagnostic(ctx: RequestContext, id: string) {
  const d = await repo.findDiagnostic(ctx.em, id);
  if (!d) throw notFound('diagnostic event', id);
  assertSameOrganization(ctx.caller, d.organization_id, 'diagnostic event');
  if (!d.project_id) throw new AppError('FORBIDDEN', 'diagnostic events outside a project are for operators');
  await requireProjectPermission(ctx, d.project_id, 'diagnostic:read');
  return d;
}
