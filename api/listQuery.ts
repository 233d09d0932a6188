// Parses the list conventions (PostgREST-like filters, ranges, sort, pagination) into one
// parameterised SQL fragment. Every list route describes its columns once and shares this.
import { type ValidationIssue, ValidationFailed } from './errors.ts';
import { UUID } from './values.ts';
import type { ParsedList } from '../db/listSql.ts';

export type ColumnKind = 'text' | 'id' | 'date' | 'number' | 'boolean' | 'enum';

export interface ColumnSpec {
  kind: ColumnKind;
  /** SQL expression; defaults to the column name itself. */
  sql?: string;
  /** Allowed values of an enum column. */
  values?: readonly string[];
}

export interface ListSpec {
  columns: Record<string, ColumnSpec>;
  sortable: readonly string[];
  defaultOrderBy: string;
  defaultOrder?: 'asc' | 'desc';
  defaultLimit?: number;
  maxLimit?: number;
  /** SQL expression of the stable tie-break (unique). */
  tieBreak?: string;
}

/**
 * The list of a named record: its own filter columns plus `name`, `created_at` and
 * `updated_at`, sortable by those three, newest first unless asked otherwise. `alias`
 * qualifies the shared columns when the list query joins tables.
 */
export function namedRecordList(
  columns: Record<string, ColumnSpec>,
  opts: { alias?: string; tieBreak?: string } = {},
): ListSpec {
  const at = (name: string) => (opts.alias ? { sql: `${opts.alias}.${name}` } : {});
  return {
    columns: {
      name: { kind: 'text', ...at('name') },
      ...columns,
      created_at: { kind: 'date', ...at('created_at') },
      updated_at: { kind: 'date', ...at('updated_at') },
    },
    sortable: ['name', 'created_at', 'updated_at'],
    defaultOrderBy: 'created_at',
    defaultOrder: 'desc',
    ...(opts.tieBreak ? { tieBreak: opts.tieBreak } : {}),
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function one(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.length ? String(v[v.length - 1]) : undefined;
  return String(v);
}

/** Whether the date part names a day of the calendar: Date.parse takes 2026-02-30 as March 2. */
function onCalendar(raw: string): boolean {
  const [year, month, day] = raw.slice(0, 10).split('-').map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseDate(name: string, raw: string, issues: ValidationIssue[]): string | undefined {
  const iso = ISO_DATE.test(raw);
  if (!iso || !onCalendar(raw) || Number.isNaN(Date.parse(raw))) {
    const msg =
      iso && !onCalendar(raw)
        ? `"${raw}" names a day that is not on the calendar`
        : `"${raw}" is not an ISO 8601 date-time`;
    issues.push({ loc: ['query', name], msg, type: 'datetime_parsing', input: raw });
    return undefined;
  }
  return forPostgres(new Date(raw));
}

/** PostgreSQL reads no year 0000 (nor a signed year): an instant before 1 AD is written as its BC year. */
function forPostgres(d: Date): string {
  const iso = d.toISOString();
  const year = d.getUTCFullYear();
  if (year > 0) return iso;
  const bc = String(1 - year).padStart(4, '0');
  return `${bc}${iso.slice(iso.indexOf('-', 1))} BC`;
}

function castValue(name: string, spec: ColumnSpec, raw: string, issues: ValidationIssue[]): unknown {
  switch (spec.kind) {
    case 'date':
      return parseDate(name, raw, issues);
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) {
        issues.push({ loc: ['query', name], msg: `"${raw}" is not a number`, type: 'float_parsing', input: raw });
      }
      return n;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') {
        issues.push({ loc: ['query', name], msg: 'must be true or false', type: 'bool_parsing', input: raw });
      }
      return raw === 'true';
    case 'id':
      if (!UUID.test(raw))
        issues.push({ loc: ['query', name], msg: `"${raw}" is not a UUID`, type: 'uuid_parsing', input: raw });
      return raw;
    case 'enum':
      if (spec.values && !spec.values.includes(raw)) {
        issues.push({
          loc: ['query', name],
          msg: `must be one of ${spec.values.join(', ')}`,
          type: 'enum',
          input: raw,
          ctx: { expected: spec.values },
        });
      }
      return raw;
    default:
      return raw;
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Operators allowed per kind of column. Id columns take exact values only. */
const OPERATORS: Record<ColumnKind, string[]> = {
  text: ['eq', 'neq', 'ilike', 'like', 'in'],
  enum: ['eq', 'neq', 'in'],
  id: [],
  date: ['eq', 'gte', 'lte', 'gt', 'lt'],
  number: ['eq', 'neq', 'gte', 'lte', 'gt', 'lt', 'in'],
  boolean: ['eq', 'is'],
};
const SQL_OP: Record<string, string> = { eq: '=', neq: '<>', gte: '>=', lte: '<=', gt: '>', lt: '<' };

export function parseList(query: Record<string, unknown>, spec: ListSpec): ParsedList {
  const issues: ValidationIssue[] = [];
  const where: string[] = [];
  const params: unknown[] = [];

  for (const [name, col] of Object.entries(spec.columns)) {
    const sqlCol = col.sql ?? name;
    const raw = one(query, name);
    if (raw !== undefined) {
      if (col.kind === 'id') {
        castValue(name, col, raw, issues);
        where.push(`${sqlCol} = ?`);
        params.push(raw);
      } else {
        const dot = raw.indexOf('.');
        const op = dot > 0 ? raw.slice(0, dot) : '';
        const value = dot > 0 ? raw.slice(dot + 1) : '';
        if (!OPERATORS[col.kind].includes(op)) {
          issues.push({
            loc: ['query', name],
            msg: `expected <operator>.<value> with operator one of ${OPERATORS[col.kind].join(', ')}`,
            type: 'filter_operator',
            input: raw,
            ctx: { allowed_operators: OPERATORS[col.kind] },
          });
        } else if (value === '') {
          issues.push({
            loc: ['query', name],
            msg: `the ${op} filter needs a value`,
            type: 'filter_value',
            input: raw,
          });
        } else if (op === 'ilike' || op === 'like') {
          // PostgREST style: % and * are wildcards; everything else is literal.
          const pattern = value.split(/[%*]/).map(escapeLike).join('%');
          where.push(`${sqlCol} ${op === 'ilike' ? 'ilike' : 'like'} ?`);
          params.push(pattern);
        } else if (op === 'in') {
          // Items may hold line breaks, which `.` would not match.
          const m = /^\(([\s\S]*)\)$/.exec(value);
          const items = m
            ? m[1]!
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
            : [];
          if (!items.length) {
            issues.push({
              loc: ['query', name],
              msg: 'in. takes a list like in.(a,b)',
              type: 'filter_value',
              input: raw,
            });
          } else {
            where.push(`${sqlCol} in (${items.map(() => '?').join(', ')})`);
            params.push(...items.map((v) => castValue(name, col, v, issues)));
          }
        } else if (op === 'is') {
          if (!['true', 'false', 'null'].includes(value)) {
            issues.push({
              loc: ['query', name],
              msg: 'is. takes true, false or null',
              type: 'filter_value',
              input: raw,
            });
          } else where.push(`${sqlCol} is ${value}`);
        } else {
          const v = castValue(name, col, value, issues);
          where.push(`${sqlCol} ${SQL_OP[op]} ?`);
          params.push(v);
        }
      }
    }
    if (col.kind === 'date') {
      for (const [suffix, op] of [
        ['_gt', '>'],
        ['_lt', '<'],
      ] as const) {
        const rangeRaw = one(query, name + suffix);
        if (rangeRaw === undefined) continue;
        const d = parseDate(name + suffix, rangeRaw, issues);
        where.push(`${sqlCol} ${op} ?`);
        params.push(d);
      }
    }
  }

  const orderBy = one(query, 'order_by') ?? spec.defaultOrderBy;
  if (!spec.sortable.includes(orderBy)) {
    issues.push({
      loc: ['query', 'order_by'],
      msg: `must be one of ${spec.sortable.join(', ')}`,
      type: 'enum',
      input: orderBy,
      ctx: { expected: spec.sortable },
    });
  }
  // The default direction goes with the default column (e.g. newest first); a column the
  // client names sorts ascending (names A to Z) unless `order` says otherwise.
  const order = one(query, 'order') ?? (orderBy === spec.defaultOrderBy ? (spec.defaultOrder ?? 'asc') : 'asc');
  if (order !== 'asc' && order !== 'desc') {
    issues.push({
      loc: ['query', 'order'],
      msg: 'must be asc or desc',
      type: 'enum',
      input: order,
      ctx: { expected: ['asc', 'desc'] },
    });
  }
  const maxLimit = spec.maxLimit ?? 100;
  const limit = intParam(query, 'limit', spec.defaultLimit ?? 50, 1, maxLimit, issues);
  const offset = intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER, issues);
  if (issues.length) throw new ValidationFailed(issues);

  const sortCol = spec.columns[orderBy]?.sql ?? orderBy;
  const dir = order === 'desc' ? 'desc' : 'asc';
  const tie = spec.tieBreak ?? 'id';
  return {
    where,
    params,
    orderSql: `order by ${sortCol} ${dir} nulls last, ${tie} ${dir}`,
    limit,
    offset,
  };
}

function intParam(
  query: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
  issues: ValidationIssue[],
): number {
  const raw = one(query, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max) {
    issues.push({
      loc: ['query', name],
      msg: `must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`,
      type: n < min ? 'greater_than_equal' : 'less_than_equal',
      input: raw,
      ctx: { ge: min, ...(max !== Number.MAX_SAFE_INTEGER ? { le: max } : {}) },
    });
    return fallback;
  }
  return n;
}
