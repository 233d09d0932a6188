// The rules of the fitting elements (data_fit, array_data_fit, validation) that openapi.yaml
// cannot state: bounds that must bracket the initial value, optimizer and cost combinations, and
// the model's mesh size.
import { type ValidationIssue } from '../../errors.ts';
import { isPlainObject } from '../../values.ts';
import {
  COSTS,
  DEFAULT_COST,
  DEFAULT_OPTIMIZER_METHOD,
  LEAST_SQUARES_COSTS,
  OPTIMIZER_METHODS as FIT_METHODS,
} from '../../../tables/index.ts';
import { type Json, isNum } from './dataChecks.ts';
import { varPtsIssue } from '../workLimits.ts';

export function checkModel(v: unknown, loc: (string | number)[], issues: ValidationIssue[]) {
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

export function checkFitParameters(v: unknown, loc: (string | number)[], issues: ValidationIssue[]) {
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    issues.push({
      loc,
      msg: 'a fit needs at least one parameter: {name: {"bounds": [lo, hi], "initial_value"}}',
      type: 'value_error',
      input: v,
    });
    return;
  }
  for (const [name, spec] of Object.entries(v)) {
    const at = [...loc, name];
    if (!isPlainObject(spec) || !Array.isArray(spec.bounds) || spec.bounds.length !== 2 || !spec.bounds.every(isNum)) {
      issues.push({
        loc: [...at, 'bounds'],
        msg: 'must be [lo, hi], two numbers',
        type: 'value_error',
        input: isPlainObject(spec) ? spec.bounds : spec,
      });
      continue;
    }
    const [lo, hi] = spec.bounds as [number, number];
    if (lo >= hi)
      issues.push({
        loc: [...at, 'bounds'],
        msg: `lower bound ${lo} must be below upper bound ${hi}`,
        type: 'value_error',
        input: spec.bounds,
      });
    else if (spec.scale === 'log' && lo <= 0)
      issues.push({
        loc: [...at, 'bounds'],
        msg: `scale 'log' needs a positive lower bound, not ${lo}`,
        type: 'value_error',
        input: spec.bounds,
      });
    if (!isNum(spec.initial_value) || spec.initial_value < lo || spec.initial_value > hi) {
      issues.push({
        loc: [...at, 'initial_value'],
        msg: 'is required: a number within the bounds',
        type: 'value_error',
        input: spec.initial_value,
      });
    }
    if (spec.scale !== undefined && spec.scale !== 'linear' && spec.scale !== 'log') {
      issues.push({ loc: [...at, 'scale'], msg: 'must be linear or log', type: 'enum', input: spec.scale });
    }
    const unknown = Object.keys(spec).filter((k) => !['bounds', 'initial_value', 'scale'].includes(k));
    if (unknown.length)
      issues.push({
        loc: [...at, unknown[0]!],
        msg: 'unknown field; allowed: bounds, initial_value, scale',
        type: 'extra_forbidden',
      });
  }
}

// The worker's optimizers (tables/optimizers.json) are checked here too, so a mistake is a 422, not a failed run.
const OPTIMIZER_FIELDS = ['method', 'max_iterations', 'max_evaluations', 'tolerance'];
const MAX_ITERATIONS_LIMIT = 100_000;

/** The issue of a value outside its allowed list, at `loc`. */
export function enumIssue(loc: (string | number)[], input: unknown, allowed: readonly string[]): ValidationIssue {
  return { loc, msg: `must be one of ${allowed.join(', ')}`, type: 'enum', input, ctx: { expected: allowed } };
}

export function checkFitOptions(el: Json, loc: (string | number)[], issues: ValidationIssue[], datasets = 1) {
  if (el.cost !== undefined && !COSTS.includes(el.cost as string)) {
    issues.push(enumIssue([...loc, 'cost'], el.cost, COSTS));
  }
  checkOptimizer(
    el.optimizer,
    (el.cost as string | undefined) ?? DEFAULT_COST,
    datasets,
    [...loc, 'optimizer'],
    issues,
  );
  checkTarget(el, loc, issues);
}

function checkOptimizer(
  raw: unknown,
  cost: string,
  datasets: number,
  loc: (string | number)[],
  issues: ValidationIssue[],
) {
  if (raw === undefined || raw === null) return;
  const o = typeof raw === 'string' ? { method: raw } : raw;
  if (!isPlainObject(o)) {
    issues.push({
      loc,
      msg: 'must be an object such as {"method": "Nelder-Mead", "max_iterations": 100}',
      type: 'dict_type',
    });
    return;
  }
  for (const key of Object.keys(o)) {
    if (!OPTIMIZER_FIELDS.includes(key))
      issues.push({
        loc: [...loc, key],
        msg: `unknown field; allowed: ${OPTIMIZER_FIELDS.join(', ')}`,
        type: 'extra_forbidden',
      });
  }
  const method = (o.method as string | undefined) || DEFAULT_OPTIMIZER_METHOD;
  if (!FIT_METHODS.includes(method)) {
    issues.push(enumIssue([...loc, 'method'], o.method, FIT_METHODS));
  } else if (method === 'least_squares' && !LEAST_SQUARES_COSTS.includes(cost)) {
    issues.push({
      loc: [...loc, 'method'],
      msg:
        `least_squares minimizes squared residuals, so the cost must be ${LEAST_SQUARES_COSTS.join(' or ')}, ` +
        `not ${cost}`,
      type: 'value_error',
      input: method,
    });
  } else if (method === 'least_squares' && cost === 'RMSE' && datasets > 1) {
    // The sum of several data sets' RMSEs is not a sum of squares: least_squares would minimize another objective than
    // the one reported.
    issues.push({
      loc: [...loc, 'method'],
      msg:
        'least_squares over several data sets needs cost SSE (a sum of RMSEs is not a sum of squares); ' +
        'or choose another method',
      type: 'value_error',
      input: method,
    });
  }
  for (const key of ['max_iterations', 'max_evaluations']) {
    const v = o[key];
    if (
      v !== undefined &&
      v !== null &&
      !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_ITERATIONS_LIMIT)
    ) {
      issues.push({
        loc: [...loc, key],
        msg: `must be an integer between 1 and ${MAX_ITERATIONS_LIMIT}`,
        type: 'int_type',
        input: v,
      });
    }
  }
  if (o.tolerance !== undefined && o.tolerance !== null && !(isNum(o.tolerance) && o.tolerance > 0)) {
    issues.push({
      loc: [...loc, 'tolerance'],
      msg: 'must be a number greater than 0',
      type: 'greater_than',
      input: o.tolerance,
    });
  }
}

export function checkTarget(el: Json, loc: (string | number)[], issues: ValidationIssue[]) {
  const t = el.target;
  const name = (x: unknown) => typeof x === 'string' && x.trim() !== '';
  if (t !== undefined && !name(t) && !(Array.isArray(t) && t.length > 0 && t.every(name))) {
    issues.push({
      loc: [...loc, 'target'],
      msg: 'must be a variable name or a list of them',
      type: 'value_error',
      input: t,
    });
  }
}
