// The data a fit or validation element names or carries: stored measurements, inline columns,
// number maps and time ranges, checked before anything starts (Temporal payloads are capped).
import { type ValidationIssue } from '../../errors.ts';
import { isPlainObject, UUID } from '../../values.ts';

export const MAX_INLINE_ROWS = 1000;

export type Json = Record<string, unknown>;
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export interface Refs {
  /** `windowed`: a time_range picks the rows the fit uses. */
  measurements: { id: string; loc: (string | number)[]; windowed: boolean; needs: string[] }[];
  pipelines: { id: string; loc: (string | number)[] }[];
}

// Parameter values travel from element to element in the workflows' inputs, which Temporal
// limits to 2 MB: a pipeline with 180,000 entry values was accepted, then terminated by the
// server with its record left running. Names are PyBaMM's, a few dozen characters.
export const MAX_PARAMETER_VALUES = 2_000;
const MAX_PARAMETER_NAME = 200;

export function checkNumberMap(v: unknown, loc: (string | number)[], issues: ValidationIssue[], required: boolean) {
  if (v === undefined && !required) return;
  if (!isPlainObject(v) || (required && Object.keys(v).length === 0)) {
    issues.push({
      loc,
      msg: required ? 'must be a non-empty object of parameter values' : 'must be an object of parameter values',
      type: 'value_error',
      input: v,
    });
    return;
  }
  const count = Object.keys(v).length;
  if (count > MAX_PARAMETER_VALUES) {
    issues.push({
      loc,
      msg: `holds ${count} parameter values; at most ${MAX_PARAMETER_VALUES}`,
      type: 'too_long',
      ctx: { max_length: MAX_PARAMETER_VALUES },
    });
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    if (k.length > MAX_PARAMETER_NAME)
      issues.push({
        loc: [...loc, k],
        msg: `a parameter name has at most ${MAX_PARAMETER_NAME} characters`,
        type: 'too_long',
      });
    else if (!isNum(x)) issues.push({ loc: [...loc, k], msg: 'must be a number', type: 'float_type', input: x });
  }
}

/** An optional [start_s, end_s] window of the data a fit or validation uses (beside `data`). */
export function checkTimeRange(v: unknown, loc: (string | number)[], issues: ValidationIssue[]): boolean {
  if (v === undefined || v === null) return false;
  const [start, end] = Array.isArray(v) && v.length === 2 && v.every(isNum) ? (v as [number, number]) : [NaN, NaN];
  if (!(start >= 0 && start < end)) {
    issues.push({
      loc,
      msg: 'must be [start_s, end_s]: two numbers of seconds, 0 <= start_s < end_s',
      type: 'value_error',
      input: v,
    });
  }
  return true;
}

const TIME = 'Time [s]';

/**
 * The columns a fit's or validation's data must hold, as the worker reads it (fitting/data.py):
 * time, the target (Voltage [V] unless named), and the current that drives the model when no
 * protocol does.
 */
export function neededColumns(target: unknown, protocol: unknown): string[] {
  const targets =
    typeof target === 'string' && target
      ? [target]
      : Array.isArray(target)
        ? target.filter((t): t is string => typeof t === 'string')
        : ['Voltage [V]'];
  return [...new Set([TIME, ...targets, ...(protocol == null ? ['Current [A]'] : [])])];
}

/** "db:<measurement_id>" or an inline column dict of at most 1,000 rows; `windowed` when a time_range goes with it. */
export function checkData(
  v: unknown,
  loc: (string | number)[],
  issues: ValidationIssue[],
  refs: Refs,
  windowed: boolean,
  needs: string[],
) {
  if (typeof v === 'string') {
    const id = v.startsWith('db:') ? v.slice(3) : '';
    if (!UUID.test(id))
      issues.push({ loc, msg: 'must be "db:<measurement_id>" or an object of columns', type: 'value_error', input: v });
    else refs.measurements.push({ id: id.toLowerCase(), loc, windowed, needs });
    return;
  }
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    issues.push({
      loc,
      msg: 'must be "db:<measurement_id>" or an object of columns (name → array of values)',
      type: 'value_error',
      input: v,
    });
    return;
  }
  let rows: number | undefined;
  for (const [name, col] of Object.entries(v)) {
    if (!Array.isArray(col) || col.some((x) => x !== null && !isNum(x))) {
      issues.push({ loc: [...loc, name], msg: 'must be an array of numbers', type: 'list_type' });
      return;
    }
    if (rows !== undefined && col.length !== rows) {
      issues.push({
        loc: [...loc, name],
        msg: `has ${col.length} rows; every column must have ${rows}`,
        type: 'value_error',
      });
      return;
    }
    rows = col.length;
  }
  if (rows! > MAX_INLINE_ROWS) {
    issues.push({
      loc,
      msg:
        `inline data has ${rows} rows; ` +
        `at most ${MAX_INLINE_ROWS} (store larger data as a measurement and use "db:<id>")`,
      type: 'too_long',
      ctx: { max_rows: MAX_INLINE_ROWS },
    });
  } else if (rows! < 3) {
    // As the worker counts them (fitting/data.py MIN_ROWS).
    issues.push({ loc, msg: 'inline data needs at least 3 rows', type: 'too_short' });
  } else {
    const missing = needs.filter((name) => !(name in v));
    for (const name of missing) {
      issues.push({
        loc: [...loc, name],
        type: 'missing',
        msg:
          name === TIME
            ? 'inline data needs a "Time [s]" column'
            : name === 'Current [A]'
              ? 'inline data needs a "Current [A]" column: without a protocol, the measured current drives the model'
              : `inline data needs a ${JSON.stringify(name)} column: the target the model is compared with`,
      });
    }
    // With a time_range the worker checks only the rows inside it: left to it then.
    if (!missing.length && !windowed) checkTimeOrder(v as Record<string, (number | null)[]>, needs, loc, issues);
  }
}

/** Time must not decrease over the rows the worker uses (those with every needed column set). */
function checkTimeOrder(
  columns: Record<string, (number | null)[]>,
  needs: string[],
  loc: (string | number)[],
  issues: ValidationIssue[],
) {
  const time = columns[TIME]!;
  let previous = -Infinity;
  for (let row = 0; row < time.length; row++) {
    if (needs.some((name) => columns[name]![row] === null)) continue;
    if (time[row]! < previous) {
      issues.push({
        loc: [...loc, TIME, row],
        msg: `"Time [s]" decreases at row ${row}; time must be non-decreasing`,
        type: 'value_error',
        input: time[row],
      });
      return;
    }
    previous = time[row]!;
  }
}
