// What an analysis's form fields hold (JSON in text fields), and the rule tying its column specs
// and plot presets to the table: every column they name is one of the file's (and, when specs
// are given, among them).
import { invalid, type ValidationIssue, ValidationFailed } from '../../errors.ts';
import type { AnalysisRow } from '../../../db/repositories/analyses.ts';

type Loc = (string | number)[];

/** A form field holding JSON of the given kind; absent or empty is `fallback`. */
export function jsonField<T>(raw: string | undefined, field: string, kind: 'list' | 'object', fallback: T): T {
  if (raw === undefined || raw === '') return fallback;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(
      ['body', field],
      `must be JSON (${kind === 'list' ? 'a list' : 'an object'})`,
      'json_invalid',
      raw.slice(0, 200),
    );
  }
  const ok =
    kind === 'list' ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!ok)
    throw invalid(
      ['body', field],
      `must be ${kind === 'list' ? 'a JSON list' : 'a JSON object'}`,
      kind === 'list' ? 'list_type' : 'dict_type',
    );
  return value as T;
}

/** Specs from a form field: {name, unit?, dtype?} each. */
export function specsOf(raw: unknown[]): AnalysisRow['columns'] {
  return raw.map((spec, i) => {
    const s = spec as Record<string, unknown>;
    const ok =
      s !== null &&
      typeof s === 'object' &&
      typeof s.name === 'string' &&
      s.name !== '' &&
      (s.unit === undefined || typeof s.unit === 'string') &&
      (s.dtype === undefined || s.dtype === null || typeof s.dtype === 'string');
    if (!ok)
      throw invalid(
        ['body', 'columns', i],
        'must be {name: non-empty text, unit: text, dtype: text}',
        'value_error',
        spec,
      );
    return s as AnalysisRow['columns'][number];
  });
}

function plotColumns(plot: Record<string, unknown>, i: number): { loc: Loc; name: unknown }[] {
  const named: { loc: Loc; name: unknown }[] = [{ loc: ['body', 'plots', i, 'x'], name: plot.x }];
  const lists = (p: Record<string, unknown>, at: Loc) =>
    (['y', 'y2'] as const).flatMap((k) =>
      Array.isArray(p[k]) ? (p[k] as unknown[]).map((name, j) => ({ loc: [...at, k, j], name })) : [],
    );
  named.push(...lists(plot, ['body', 'plots', i]));
  if (Array.isArray(plot.rows))
    plot.rows.forEach((row, r) =>
      named.push(...lists(row as Record<string, unknown>, ['body', 'plots', i, 'rows', r])),
    );
  if (plot.group_by !== undefined && plot.group_by !== null)
    named.push({ loc: ['body', 'plots', i, 'group_by'], name: plot.group_by });
  return named;
}

export function checkAgainstTable(
  fileColumns: string[],
  specs: AnalysisRow['columns'],
  plots: Record<string, unknown>[],
): void {
  const issues: ValidationIssue[] = [];
  const inFile = new Set(fileColumns);
  specs.forEach((s, i) => {
    if (!inFile.has(s.name))
      issues.push({
        loc: ['body', 'columns', i, 'name'],
        msg: `is not a column of the table (${fileColumns.join(', ')})`,
        type: 'value_error',
        input: s.name,
      });
  });
  const allowed = specs.length ? new Set(specs.map((s) => s.name)) : inFile;
  plots.forEach((plot, i) => {
    if (plot === null || typeof plot !== 'object' || Array.isArray(plot)) {
      issues.push({
        loc: ['body', 'plots', i],
        msg: 'must be an object {x, y, y2, rows, group_by, title}',
        type: 'dict_type',
      });
      return;
    }
    const named = plotColumns(plot, i);
    if (named.length === 1 && !Array.isArray(plot.rows))
      issues.push({ loc: ['body', 'plots', i], msg: 'names no y or y2 column', type: 'value_error' });
    for (const { loc, name } of named) {
      if (typeof name !== 'string' || !allowed.has(name)) {
        issues.push({
          loc,
          msg: specs.length ? 'must be one of the columns given' : 'is not a column of the table',
          type: 'value_error',
          input: name,
        });
      }
    }
  });
  if (issues.length) throw new ValidationFailed(issues);
}
