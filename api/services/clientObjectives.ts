// A client-form DataFit with several objectives (or objective_weights): ionworks-schema's cost is
// the sum over objectives of each objective's cost times its weight (cost.objective_weights, 1 when
// absent). The engine's joint array fit computes exactly that over its data sets, so each objective
// becomes one data set, labelled by its position ("objective" is a label, not a model parameter).
// The engine fits one model to one target, so the objectives must agree on everything but their data.
import type { ValidationIssue } from '../errors.ts';
import { isPlainObject } from '../values.ts';

type Json = Record<string, unknown>;
type Loc = (string | number)[];

/** The label of the engine's array fit: the objective's position in `objectives`. */
export const OBJECTIVE_LABEL = 'objective';

export interface ObjectiveDatasets {
  /** The objectives' names, in order (dataset i is objective names[i]). */
  names: string[];
  datasets: { value: number; data: unknown; weight?: number }[];
}

/** JSON with object keys sorted, to compare what the objectives must share. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** True when the DataFit needs the joint form: several objectives, or weights on them. */
export function needsJointFit(el: Json): boolean {
  const weighted =
    isPlainObject(el.cost) && el.cost.objective_weights !== undefined && el.cost.objective_weights !== null;
  return (isPlainObject(el.objectives) && Object.keys(el.objectives).length > 1) || weighted;
}

/**
 * The objectives as the engine's data sets, with their weights; null with issues when they
 * differ in more than their data, or a weight is not a positive number of a known objective.
 * `objectives` has been checked to be a non-empty object of CurrentDriven objectives.
 */
export function objectiveDatasets(
  objectives: Record<string, Json>,
  cost: unknown,
  loc: Loc,
  costLoc: Loc,
  issues: ValidationIssue[],
): ObjectiveDatasets | null {
  const before = issues.length;
  const names = Object.keys(objectives);
  const first = objectives[names[0]!]!;
  for (const name of names.slice(1)) {
    const obj = objectives[name]!;
    for (const key of ['options', 'parameters'] as const) {
      if (canonical(obj[key] ?? null) !== canonical(first[key] ?? null))
        issues.push({
          loc: [...loc, name, key],
          msg:
            `must be the same as objective ${JSON.stringify(names[0])}'s: Cellar's engine fits the objectives ` +
            'of one DataFit jointly with one model and one target (they may differ in their data)',
          type: 'value_error',
        });
    }
  }
  const weights = isPlainObject(cost) ? cost.objective_weights : undefined;
  const weightOf: Record<string, number> = {};
  if (weights !== undefined && weights !== null) {
    if (!isPlainObject(weights))
      issues.push({ loc: [...costLoc, 'objective_weights'], msg: 'must be an object', type: 'dict_type' });
    else
      for (const [name, w] of Object.entries(weights)) {
        const at = [...costLoc, 'objective_weights', name];
        if (!names.includes(name))
          issues.push({ loc: at, msg: `no objective ${JSON.stringify(name)} in this DataFit`, type: 'value_error' });
        else if (typeof w !== 'number' || !Number.isFinite(w) || w <= 0)
          issues.push({ loc: at, msg: 'must be a number greater than 0', type: 'greater_than', input: w });
        else weightOf[name] = w;
      }
  }
  if (issues.length > before) return null;
  return {
    names,
    datasets: names.map((name, i) => ({
      value: i,
      data: objectives[name]!.data,
      ...(weightOf[name] !== undefined ? { weight: weightOf[name] } : {}),
    })),
  };
}
