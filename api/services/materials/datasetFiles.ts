// A material property dataset's column specs: they select the file's columns by position, and
// are checked against it; missing values are counted per spec.
import { invalid, type ValidationIssue, ValidationFailed } from '../../errors.ts';
import type { ColumnSpec } from '../../../db/repositories/materials.ts';

/** The `columns` form field: JSON of a list of specs (as PATCH's JSON body takes them). */
export function parseSpecsField(raw: string | undefined): ColumnSpec[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(
      ['body', 'columns'],
      'must be JSON: a list of {name, unit, source_column_index}',
      'json_invalid',
      raw.slice(0, 200),
    );
  }
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(['body', 'columns'], 'must be a non-empty list of {name, unit, source_column_index}', 'list_type');
  return value.map((spec: unknown, i) => {
    const s = spec as Record<string, unknown>;
    const ok =
      s !== null &&
      typeof s === 'object' &&
      typeof s.name === 'string' &&
      s.name.trim() !== '' &&
      s.name.length <= 200 &&
      (s.unit === undefined || (typeof s.unit === 'string' && s.unit.length <= 100)) &&
      Number.isInteger(s.source_column_index) &&
      (s.source_column_index as number) >= 0;
    if (!ok)
      throw invalid(
        ['body', 'columns', i],
        'must be {name: non-empty text, unit: text, source_column_index: integer >= 0}',
        'value_error',
        spec,
      );
    return {
      name: s.name as string,
      unit: (s.unit as string | undefined) ?? '',
      source_column_index: s.source_column_index as number,
    };
  });
}

/** Every column of the file under its own name, when no specs are given. */
export const allColumns = (names: string[]): ColumnSpec[] =>
  names.map((name, i) => ({ name, unit: '', source_column_index: i }));

/** Specs name distinct columns and point inside the file; `loc` is where they came from. */
export function checkSpecs(specs: ColumnSpec[], columnCount: number, loc: (string | number)[]): void {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  specs.forEach((s, i) => {
    if (s.source_column_index >= columnCount) {
      issues.push({
        loc: [...loc, i, 'source_column_index'],
        msg: `the file has ${columnCount} columns (0 to ${columnCount - 1})`,
        type: 'value_error',
        input: s.source_column_index,
      });
    }
    if (seen.has(s.name))
      issues.push({ loc: [...loc, i, 'name'], msg: 'is named twice', type: 'value_error', input: s.name });
    seen.add(s.name);
  });
  if (issues.length) throw new ValidationFailed(issues);
}

const missing = (v: unknown) => v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v));

export function nanCounts(
  specs: ColumnSpec[],
  names: string[],
  rows: Record<string, unknown>[],
): Record<string, number> {
  return Object.fromEntries(
    specs.map((s) => [s.name, rows.reduce((n, r) => n + (missing(r[names[s.source_column_index]!]) ? 1 : 0), 0)]),
  );
}
