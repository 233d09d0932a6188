// Design of experiments: a DOE request → the list of design points (one simulation each).
// Pure logic; problems are ValidationIssues located under `loc`.
import type { ValidationIssue } from '../errors.ts';
import type { Schema } from '../schemas.ts';

export const MAX_DESIGN_POINTS = 10_000;

/** A DOE as openapi.yaml describes it (`DOERequest`), and one of its rows. */
export type DoeRequest = NonNullable<Schema<'DOERequest'>>;
export type DoeRow = DoeRequest['rows'][number];
export type DesignPoint = Record<string, number>;

export class DoeError extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.issues = issues;
  }
}

/** Deterministic generator (mulberry32), so a seeded DOE gives the same points every time. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  const q = Math.min(Math.max(p, 1e-12), 1 - 1e-12);
  if (q < lo) {
    const r = Math.sqrt(-2 * Math.log(q));
    return (
      (((((c[0]! * r + c[1]!) * r + c[2]!) * r + c[3]!) * r + c[4]!) * r + c[5]!) /
      ((((d[0]! * r + d[1]!) * r + d[2]!) * r + d[3]!) * r + 1)
    );
  }
  if (q > 1 - lo) return -normalQuantile(1 - q);
  const r0 = q - 0.5;
  const r = r0 * r0;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * r0) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

interface CheckedRow {
  name: string;
  /**
   * Grid levels (discrete values, or evenly spaced range points), counted and computed on
   * demand: a range row's count is whatever the request says, so nothing is allocated for it
   * before the grid's size is known to be within the limit.
   */
  levels?: { count: number; at: (k: number) => number };
  /** u in [0, 1) → a value, for random and Latin hypercube sampling. */
  at: (u: number) => number;
}

/** A row as the spec's DOE rows describe it; only max below min is left to check here. */
function checkRow(row: DoeRow, i: number, loc: (string | number)[], issues: ValidationIssue[]): CheckedRow | undefined {
  if (row.type === 'discrete') {
    const values = row.values!;
    return {
      name: row.name,
      levels: { count: values.length, at: (k) => values[k]! },
      at: (u) => values[Math.min(values.length - 1, Math.floor(u * values.length))]!,
    };
  }
  if (row.type === 'range') {
    const { count } = row;
    const [min, max] = [row.min!, row.max!];
    if (max < min) {
      issues.push({ loc: [...loc, 'rows', i, 'max'], msg: 'must not be below min', type: 'value_error', input: max });
      return undefined;
    }
    const levels =
      count === undefined
        ? undefined
        : { count, at: (k: number) => (count === 1 ? min : min + ((max - min) * k) / (count - 1)) };
    return { name: row.name, ...(levels ? { levels } : {}), at: (u) => min + (max - min) * u };
  }
  const [mean, std] = [row.mean!, row.std!];
  return { name: row.name, at: (u) => mean + std * normalQuantile(u) };
}

/** The design points of a DOE (one empty point without one); throws DoeError on bad input. */
export function expandDoe(
  doe: DoeRequest | null | undefined,
  loc: (string | number)[] = ['design_parameters_doe'],
  maxPoints = MAX_DESIGN_POINTS,
): DesignPoint[] {
  if (!doe) return [{}];
  // Shapes, enums, bounds and what each sampling needs are the validator's (openapi.yaml, DOERequest).
  const issues: ValidationIssue[] = [];
  const sampling = doe.sampling ?? 'grid';
  const rows = doe.rows.map((r, i) => checkRow(r, i, loc, issues));
  const names = new Set<string>();
  doe.rows.forEach((r, i) => {
    if (names.has(r.name))
      issues.push({
        loc: [...loc, 'rows', i, 'name'],
        msg: `${JSON.stringify(r.name)} appears in more than one row`,
        type: 'value_error',
        input: r.name,
      });
    names.add(r.name);
  });
  if (issues.length) throw new DoeError(issues);
  const checked = rows as CheckedRow[];
  if (!checked.length) return [{}];

  if (sampling === 'grid') {
    // The product of the rows' counts, known before any point is made (a float: 4e9 × 4e9 stays comparable).
    const size = checked.reduce((n, r) => n * r.levels!.count, 1);
    if (size > maxPoints) {
      throw new DoeError([
        {
          loc: [...loc, 'rows'],
          msg: `the grid has ${size} points; at most ${maxPoints} are allowed per submission`,
          type: 'too_long',
          ctx: { size, max: maxPoints },
        },
      ]);
    }
    let points: DesignPoint[] = [{}];
    for (const r of checked) {
      const { count, at } = r.levels!;
      points = points.flatMap((p) => Array.from({ length: count }, (_, k) => ({ ...p, [r.name]: at(k) })));
    }
    return points;
  }
  const count = doe.count as number;
  if (count > maxPoints) {
    throw new DoeError([
      {
        loc: [...loc, 'count'],
        msg: `at most ${maxPoints} points are allowed per submission`,
        type: 'less_than_equal',
        input: count,
        ctx: { le: maxPoints },
      },
    ]);
  }
  const next = rng(typeof doe.seed === 'number' ? doe.seed : Math.floor(Math.random() * 2 ** 32));
  if (sampling === 'random') {
    return Array.from({ length: count }, () => Object.fromEntries(checked.map((r) => [r.name, r.at(next())])));
  }
  // Latin hypercube: each row's [0, 1) is cut into `count` strata, each used exactly once.
  const columns = checked.map((r) => {
    const strata = Array.from({ length: count }, (_, k) => k);
    for (let k = count - 1; k > 0; k--) {
      const j = Math.floor(next() * (k + 1));
      [strata[k], strata[j]] = [strata[j]!, strata[k]!];
    }
    return strata.map((s) => r.at((s + next()) / count));
  });
  return Array.from({ length: count }, (_, k) => Object.fromEntries(checked.map((r, c) => [r.name, columns[c]![k]!])));
}
