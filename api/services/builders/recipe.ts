// A model builder's recipe: ionworks-schema entry elements that read a cell specification
// through a `mapping` (parameter name → dotted path) and calculations, run in order on the
// values so far. Entries and calculations are arithmetic, so a build runs here, in the API,
// with the pipeline engine's calculations (workflows/calculations.ts) and the client-form
// translation of pipelines (clientElements.ts).
import type { ValidationIssue } from '../../errors.ts';
import { isPlainObject } from '../../values.ts';
import { fromClientForm, isClientForm } from '../clientElements.ts';
import { CalculationError, checkCalculation, runCalculation } from '../../../workflows/calculations.ts';
import { calculationOutputs } from './calculationCatalog.ts';
import { convert, parameterUnit, pyNumber } from './units.ts';

type Json = Record<string, unknown>;
type Loc = (string | number)[];

export interface ReadinessIssue {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  parameter?: string;
  path?: string;
  element?: string;
}

/** One element of a checked recipe, in the engine's form for calculations. */
export type RecipeElement =
  | { name: string; kind: 'entry'; mapping: Record<string, string>; values: Record<string, number> }
  | { name: string; kind: 'calculation'; config: Json };

const MAX_ELEMENTS = 100;
const MAX_MAPPING = 500;

/** The recipe's elements, or the 422 issues naming each field at fault (under `loc`). */
export function checkRecipe(config: unknown, loc: Loc, issues: ValidationIssue[]): RecipeElement[] {
  const elements = isPlainObject(config) ? config.elements : undefined;
  if (!isPlainObject(elements) || Object.keys(elements).length === 0) {
    issues.push({
      loc: [...loc, 'elements'],
      msg: 'must be an object of named elements, at least one',
      type: 'dict_type',
    });
    return [];
  }
  if (Object.keys(elements).length > MAX_ELEMENTS) {
    issues.push({ loc: [...loc, 'elements'], msg: `at most ${MAX_ELEMENTS} elements`, type: 'too_long' });
    return [];
  }
  const out: RecipeElement[] = [];
  for (const [name, el] of Object.entries(elements)) {
    const at = [...loc, 'elements', name];
    if (!isPlainObject(el)) {
      issues.push({ loc: at, msg: 'must be an element object', type: 'dict_type' });
      continue;
    }
    if (el.element_type === 'entry') {
      const entry = checkEntry(el, at, issues);
      if (entry) out.push({ name, kind: 'entry', ...entry });
    } else if (el.element_type === 'calculation') {
      const before = issues.length;
      const cfg = isClientForm(el) ? fromClientForm(el, at, issues)?.element : el;
      if (cfg && issues.length === before) {
        for (const i of checkCalculation(cfg))
          issues.push({ loc: [...at, ...i.loc], msg: i.msg, type: i.loc[0] === 'type' ? 'enum' : 'value_error' });
        if (issues.length === before) out.push({ name, kind: 'calculation', config: cfg });
      }
    } else {
      issues.push({
        loc: [...at, 'element_type'],
        msg:
          `a model builder runs entry and calculation elements only, not ${JSON.stringify(el.element_type)} ` +
          '(fits and validations belong in a pipeline)',
        type: 'value_error',
        input: el.element_type,
      });
    }
  }
  return out;
}

function checkEntry(el: Json, at: Loc, issues: ValidationIssue[]) {
  const before = issues.length;
  if (el.cell_spec_id !== undefined && el.cell_spec_id !== null)
    issues.push({
      loc: [...at, 'cell_spec_id'],
      msg: 'a builder reads the cell specification it builds from: leave cell_spec_id out',
      type: 'extra_forbidden',
    });
  for (const key of Object.keys(el))
    if (!['element_type', 'mapping', 'values', 'parameters', 'source', 'cell_spec_id'].includes(key))
      issues.push({ loc: [...at, key], msg: 'unknown field of an entry', type: 'extra_forbidden' });
  const mapping = el.mapping ?? {};
  if (!isPlainObject(mapping) || Object.keys(mapping).length > MAX_MAPPING)
    issues.push({
      loc: [...at, 'mapping'],
      msg: `must be an object of at most ${MAX_MAPPING} parameter paths`,
      type: 'dict_type',
    });
  else
    for (const [p, path] of Object.entries(mapping))
      if (typeof path !== 'string' || !/^[^.\s][^\s]*$/.test(path) || path.length > 300)
        issues.push({
          loc: [...at, 'mapping', p],
          msg: 'must be a dotted path such as cathode.properties.thickness',
          type: 'string_type',
          input: path,
        });
  const values: Record<string, number> = {};
  for (const field of ['values', 'parameters'] as const) {
    const given = el[field] ?? {};
    if (!isPlainObject(given))
      issues.push({ loc: [...at, field], msg: 'must be an object of numbers', type: 'dict_type' });
    else
      for (const [p, v] of Object.entries(given)) {
        if (typeof v === 'number' && Number.isFinite(v)) values[p] = v;
        else issues.push({ loc: [...at, field, p], msg: 'must be a number', type: 'float_type', input: v });
      }
  }
  if (issues.length > before) return null;
  if (Object.keys(mapping as Json).length + Object.keys(values).length === 0) {
    issues.push({ loc: [...at, 'mapping'], msg: 'an entry needs a mapping or values', type: 'missing' });
    return null;
  }
  return { mapping: mapping as Record<string, string>, values };
}

/** What a dotted path reads in the resolved cell specification (undefined when absent). */
export function readPath(spec: unknown, path: string): unknown {
  let cur = spec;
  for (const key of path.split('.')) {
    if (!isPlainObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

export interface Preview {
  found: string | null;
  converted: string | null;
  curve: Json | null;
  issue: string | null;
  value?: number;
  warning?: string;
  /** Nothing at the path (rather than something unusable there). */
  absent?: boolean;
}

/** One mapping line: the spec's value with its own unit, then in the parameter's unit. */
export function previewOne(spec: unknown, parameter: string, path: string): Preview {
  const raw = readPath(spec, path);
  const unit = parameterUnit(parameter);
  const shown = (n: number, u: string) => (u ? `${pyNumber(n)} ${u}` : pyNumber(n));
  if (raw === undefined || raw === null)
    return {
      found: null,
      converted: null,
      curve: null,
      issue: `${path} is not set in the cell specification`,
      absent: true,
    };
  const curve = curveOf(raw);
  if (curve) return { found: null, converted: null, curve, issue: 'a table cannot be a scalar parameter' };
  const q = quantity(raw);
  if (typeof q === 'string') return { found: null, converted: null, curve: null, issue: `${path}: ${q}` };
  const found = shown(q.value, q.unit ?? '');
  if (q.unit === undefined)
    return {
      found,
      converted: shown(q.value, unit),
      curve: null,
      issue: null,
      value: q.value,
      warning: `${path} has no unit; taken as ${unit || 'dimensionless'}`,
    };
  const value = convert(q.value, q.unit, unit);
  if (typeof value === 'string') return { found, converted: null, curve: null, issue: value };
  return { found, converted: shown(value, unit), curve: null, issue: null, value };
}

/** {value, unit}, "75.6 um", or a bare number (no unit). */
function quantity(raw: unknown): { value: number; unit?: string } | string {
  if (typeof raw === 'number' && Number.isFinite(raw)) return { value: raw };
  if (isPlainObject(raw) && typeof raw.value === 'number' && Number.isFinite(raw.value))
    return typeof raw.unit === 'string' ? { value: raw.value, unit: raw.unit } : { value: raw.value };
  if (typeof raw === 'string') {
    const m = /^\s*([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)\s*(.*)$/.exec(raw);
    if (m) return { value: Number(m[1]), unit: m[2]!.trim() };
  }
  return 'is not a number or a {value, unit}';
}

/** A sketch of a table (columns of numbers of one length): its columns, length and ranges. */
function curveOf(raw: unknown): Json | null {
  const table = isPlainObject(raw) && isPlainObject(raw.data) ? raw.data : raw;
  if (!isPlainObject(table)) return null;
  const cols = Object.entries(table).filter(([, v]) => Array.isArray(v) && v.every((x) => typeof x === 'number'));
  if (cols.length < 2) return null;
  return {
    columns: cols.map(([k]) => k),
    points: (cols[0]![1] as number[]).length,
    // A loop, not Math.min(...column): a long column would overflow the call stack.
    ranges: Object.fromEntries(
      cols.map(([k, v]) => [
        k,
        (v as number[]).reduce<[number, number]>(
          ([lo, hi], x) => [Math.min(lo, x), Math.max(hi, x)],
          [Infinity, -Infinity],
        ),
      ]),
    ),
  };
}

export interface RunOutcome {
  parameters: Record<string, number>;
  issues: ReadinessIssue[];
  resolved: number;
  total: number;
  /** Parameters the recipe is meant to produce (its mapping, values and calculations' outputs). */
  targets: string[];
  /** The first calculation's failure, when one failed. */
  error: string | null;
}

/** Runs the recipe on a resolved cell specification; every problem is an issue, nothing throws. */
export function runRecipe(elements: RecipeElement[], spec: unknown): RunOutcome {
  const parameters: Record<string, number> = {};
  const issues: ReadinessIssue[] = [];
  const targets = new Set<string>();
  let resolved = 0;
  let total = 0;
  let error: string | null = null;
  for (const el of elements) {
    if (el.kind === 'entry') {
      for (const [p, v] of Object.entries(el.values)) {
        parameters[p] = v;
        targets.add(p);
      }
      for (const [parameter, path] of Object.entries(el.mapping)) {
        total++;
        targets.add(parameter);
        const pv = previewOne(spec, parameter, path);
        const where = { parameter, path, element: el.name };
        if (pv.value === undefined) {
          const code = pv.absent ? 'missing_value' : 'unusable_value';
          issues.push({ severity: 'error', code, message: pv.issue ?? 'unreadable', ...where });
          continue;
        }
        if (pv.warning) issues.push({ severity: 'warning', code: 'no_unit', message: pv.warning, ...where });
        parameters[parameter] = pv.value;
        resolved++;
      }
    } else {
      total++;
      for (const out of calculationOutputs(el.config)) targets.add(out);
      try {
        Object.assign(parameters, runCalculation(el.config, parameters));
        resolved++;
      } catch (err) {
        if (!(err instanceof CalculationError)) throw err;
        error ??= `${el.name}: ${err.message}`;
        issues.push({ severity: 'error', code: 'calculation_failed', message: err.message, element: el.name });
      }
    }
  }
  return { parameters, issues, resolved, total, targets: [...targets], error };
}
