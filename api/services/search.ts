// GET /search over the shared search_documents index, and the text matcher it shares with
// list endpoints that take `q` (GET /cyclers): substring on the name plus prefix full text.
import type { RequestContext } from '../context.ts';
import { AppError, type ValidationIssue, ValidationFailed } from '../errors.ts';
import { readableProjectsSql, requireProjectPermission } from './access.ts';

/**
 * Entity types that may be indexed. Types of later features are listed already so that
 * they join the search by calling indexEntity with one of these names.
 */
export const SEARCH_ENTITY_TYPES = [
  'project',
  'study',
  'simulation',
  'model',
  'parameterized_model',
  'optimization',
  'optimization_template',
  'experiment_template',
  'pipeline',
  'cell_specification',
  'material',
  'site',
  'cycler',
  'channel',
  'cell_instance',
  'cell_measurement',
  'raw_data',
  'analysis',
] as const;

export interface TextMatch {
  /** Condition: the name contains q, or the document matches every word of q as a prefix. */
  where: string;
  whereParams: unknown[];
  /** Relevance, higher first. */
  rank: string;
  rankParams: unknown[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The matcher of `q` against a name expression and a tsvector expression. */
export function textMatch(q: string, nameSql: string, tsvSql: string): TextMatch {
  const needle = q.trim().toLowerCase();
  // Words as the 'simple' parser would split them; each must match as a prefix.
  const words = needle.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const tsquery = words.map((w) => `${w}:*`).join(' & ');
  const like = `%${escapeLike(needle)}%`;
  const ftsWhere = tsquery ? ` or ${tsvSql} @@ to_tsquery('simple', ?)` : '';
  return {
    where: `(lower(${nameSql}) like ?${ftsWhere})`,
    whereParams: tsquery ? [like, tsquery] : [like],
    rank: `(case when lower(${nameSql}) = ? then 2 when lower(${nameSql}) like ? then 1 else 0 end
            + similarity(lower(${nameSql}), ?)${tsquery ? ` + ts_rank(${tsvSql}, to_tsquery('simple', ?))` : ''})`,
    rankParams: [needle, `${escapeLike(needle)}%`, needle, ...(tsquery ? [tsquery] : [])],
  };
}

function one(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  return Array.isArray(v) ? String(v[v.length - 1]) : String(v);
}

function intOf(
  query: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
  issues: ValidationIssue[],
): number {
  const raw = one(query[name]);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max) {
    issues.push({
      loc: ['query', name],
      msg: `must be an integer from ${min} to ${max}`,
      type: 'value_error',
      input: raw,
      ctx: { ge: min, le: max },
    });
    return fallback;
  }
  return n;
}

export interface SearchResult {
  id: string;
  entity_type: string;
  name: string;
  project_id: string | null;
  parent_id: string | null;
}

export async function search(ctx: RequestContext, query: Record<string, unknown>) {
  const q = one(query.q);
  if (q === undefined || q.trim() === '') throw new AppError('BAD_REQUEST', 'q must not be blank', { parameter: 'q' });
  const issues: ValidationIssue[] = [];
  if (q.trim().length < 2)
    issues.push({
      loc: ['query', 'q'],
      msg: 'must have at least 2 characters',
      type: 'string_too_short',
      input: q,
      ctx: { min_length: 2 },
    });
  const limit = intOf(query, 'limit', 25, 1, 100, issues);
  const offset = intOf(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER, issues);
  const perType = intOf(query, 'per_type', 5, 1, 100, issues);
  const rawTypes =
    query.entity_types === undefined
      ? []
      : Array.isArray(query.entity_types)
        ? query.entity_types
        : [query.entity_types];
  const types = rawTypes
    .flatMap((t) => String(t).split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of types) {
    if (!(SEARCH_ENTITY_TYPES as readonly string[]).includes(t)) {
      issues.push({
        loc: ['query', 'entity_types'],
        msg: `must be among ${SEARCH_ENTITY_TYPES.join(', ')}`,
        type: 'enum',
        input: t,
        ctx: { expected: SEARCH_ENTITY_TYPES },
      });
    }
  }
  if (issues.length) throw new ValidationFailed(issues);
  const projectId = one(query.project_id);
  if (projectId !== undefined) await requireProjectPermission(ctx, projectId, 'project:read');

  const match = textMatch(q, 'd.name', 'd.tsv');
  const readable = readableProjectsSql(ctx.caller, 'd.project_id');
  const where = ['d.organization_id = ?', match.where];
  const params: unknown[] = [ctx.caller.organizationId, ...match.whereParams];
  if (projectId !== undefined) {
    where.push('d.project_id = ?');
    params.push(projectId);
  }
  // Organization-level documents (sites) have no project and are visible to every member.
  where.push(`(d.project_id is null or ${readable.sql})`);
  params.push(...readable.params);
  if (types.length) {
    where.push(`d.entity_type in (${types.map(() => '?').join(', ')})`);
    params.push(...types);
  }
  const rows = await ctx.em.execute<(SearchResult & { total: string })[]>(
    `with matched as (
       select d.entity_id as id, d.entity_type, d.name, d.project_id, d.parent_id, ${match.rank} as rank
         from search_documents d where ${where.join(' and ')}),
     capped as (
       select *, row_number() over (partition by entity_type order by rank desc, name, id) as n from matched)
     select id, entity_type, name, project_id, parent_id, count(*) over () as total
       from capped where n <= ? order by rank desc, name, id limit ? offset ?`,
    [...match.rankParams, ...params, perType, limit, offset],
  );
  let total = Number(rows[0]?.total ?? 0);
  if (!rows.length && offset > 0) {
    const counted = await ctx.em.execute<{ total: string }[]>(
      `select count(*) as total from (
         select row_number() over (partition by d.entity_type order by d.entity_id) as n
           from search_documents d where ${where.join(' and ')}) c where n <= ?`,
      [...params, perType],
    );
    total = Number(counted[0]?.total ?? 0);
  }
  return {
    results: rows.map(({ total: _t, ...r }) => r),
    query: q,
    total,
    limit,
    offset,
  };
}
