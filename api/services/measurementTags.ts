// Measurement tags: free-form labels, stored normalised (trimmed, deduplicated
// case-insensitively keeping the first spelling, sorted), matched case-insensitively.
import type { RequestContext } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';

export const MAX_TAGS = 50;

/** The normalised tag list; more than MAX_TAGS after normalising is a 422 at `loc`. */
export function normalizeTags(tags: readonly string[], loc: (string | number)[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag && !seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
  }
  const out = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => t);
  if (out.length > MAX_TAGS) throw invalid(loc, `at most ${MAX_TAGS} tags per measurement`, 'too_long', out.length);
  return out;
}

const asList = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** WHERE clauses for the tags_all / tags_any filters of a measurement list (alias m). */
export function tagFilters(query: Record<string, unknown>): { sql: string; params: unknown[] }[] {
  const has = `exists (select 1 from jsonb_array_elements_text(m.tags) t where lower(t) = lower(?))`;
  const clauses = asList(query.tags_all).map((tag) => ({ sql: has, params: [tag.trim()] }));
  const any = asList(query.tags_any).map((tag) => tag.trim());
  if (any.length) {
    clauses.push({
      sql:
        `exists (select 1 from jsonb_array_elements_text(m.tags) t where lower(t) in ` +
        `(${any.map(() => 'lower(?)').join(', ')}))`,
      params: any,
    });
  }
  return clauses;
}

/** GET /cell_measurements/tags: the project's tags with how many measurements carry each, most used first. */
export async function listTags(
  ctx: RequestContext,
  query: { project_id: string; q?: string; limit?: number | string },
) {
  await requireProjectPermission(ctx, query.project_id, 'cell_measurement:read');
  const limit = Number(query.limit ?? 50);
  const params: unknown[] = [query.project_id];
  let where = '';
  if (query.q) {
    where = `where lower(tag) like ?`;
    params.push(`%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  const rows = await ctx.em.execute<{ tag: string; usage_count: number; total: number }[]>(
    `with used as (select min(t) as tag, count(distinct m.id)::int as usage_count
                     from cell_measurements m, jsonb_array_elements_text(m.tags) t
                    where m.project_id = ? group by lower(t))
     select tag, usage_count, count(*) over ()::int as total from used ${where}
      order by usage_count desc, lower(tag) limit ?`,
    [...params, limit],
  );
  return {
    items: rows.map(({ tag, usage_count }) => ({ tag, usage_count })),
    count: rows.length,
    total: rows[0]?.total ?? 0,
  };
}

/** POST /cell_measurements/tags/bulk: every measurement must be visible and updatable, or nothing changes. */
export async function bulkTags(ctx: RequestContext, body: RequestBody<'bulkMeasurementTags'>) {
  const ids = [...new Set(body.measurement_ids)];
  const add = body.add ?? [];
  const remove = new Set((body.remove ?? []).map((t) => t.trim().toLowerCase()));
  return ctx.em.transactional(async (em) => {
    const rows = await em.execute<{ id: string; organization_id: string; project_id: string; tags: string[] }[]>(
      `select id, organization_id, project_id, tags from cell_measurements
        where id in (${ids.map(() => '?').join(', ')}) order by id for update`,
      ids,
    );
    const found = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const m = found.get(id);
      if (!m) throw notFound('cell measurement', id);
      assertSameOrganization(ctx.caller, m.organization_id, 'cell measurement');
    }
    for (const projectId of new Set(rows.map((r) => r.project_id)))
      await requireProjectPermission({ ...ctx, em }, projectId, 'cell_measurement:update');
    let updated = 0;
    for (const m of rows) {
      const next = normalizeTags(
        [
          ...m.tags.filter((t) => !remove.has(t.toLowerCase())),
          ...add.filter((t) => !remove.has(t.trim().toLowerCase())),
        ],
        ['body', 'add'],
      );
      if (JSON.stringify(next) === JSON.stringify(m.tags)) continue;
      await em.execute(`update cell_measurements set tags = ?::jsonb, updated_at = now() where id = ?`, [
        JSON.stringify(next),
        m.id,
      ]);
      updated += 1;
    }
    return { updated_count: updated };
  });
}
