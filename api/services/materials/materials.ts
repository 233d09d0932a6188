// Materials: a self-hosted registry holds the system catalogue (seeded by the migration, read by
// every organization) and an organization's own materials. The client only reads them.
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { namedRecordList, parseList, type ListSpec } from '../../listQuery.ts';
import * as repo from '../../../db/repositories/materials.ts';
import { assertSameOrganization, requireProjectPermission } from '../access.ts';

const LIST: ListSpec = {
  ...namedRecordList(
    {
      manufacturer: { kind: 'text', sql: 'm.manufacturer' },
      product_id: { kind: 'text', sql: 'm.product_id' },
      category: { kind: 'text', sql: 'm.category' },
    },
    { alias: 'm', tieBreak: 'm.id' },
  ),
  sortable: ['name', 'manufacturer', 'created_at', 'updated_at'],
  defaultOrderBy: 'name',
  defaultOrder: 'asc',
};

/** The client sends a bare value for an exact match; the conventions' operator forms work too. */
const OPERATOR = /^(eq|neq|like|ilike|in|gt|gte|lt|lte)\./;
function bareAsEq(query: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out = { ...query };
  for (const n of names) if (typeof out[n] === 'string' && !OPERATOR.test(out[n])) out[n] = `eq.${out[n]}`;
  return out;
}

export function serializeMaterial(m: repo.MaterialRecord): Record<string, unknown> {
  return { ...m, created_at: m.created_at.toISOString(), updated_at: m.updated_at.toISOString() };
}

/** Materials the caller sees in a project: the catalogue, the organization's, and the project's. */
function visibleIn(organizationId: string, projectId: string | null) {
  return projectId === null
    ? { sql: '(m.organization_id is null or m.organization_id = ?)', params: [organizationId] }
    : {
        sql: '(m.organization_id is null or (m.organization_id = ? and (m.project_id is null or m.project_id = ?)))',
        params: [organizationId, projectId],
      };
}

export async function listMaterials(ctx: RequestContext, query: Record<string, unknown>) {
  const { project_id: projectId, ...rest } = query;
  if (typeof projectId === 'string') await requireProjectPermission(ctx, projectId, 'cell_specification:read');
  const list = parseList(bareAsEq(rest, ['name', 'manufacturer', 'product_id', 'category']), LIST);
  const page = await repo.listMaterials(
    ctx.em,
    [visibleIn(ctx.caller.organizationId, typeof projectId === 'string' ? projectId : null)],
    list,
  );
  return { ...page, items: page.items.map(serializeMaterial) };
}

/** A catalogue material, or one of the caller's organization (404 / 403 otherwise). */
export async function requireMaterial(ctx: RequestContext, id: string): Promise<repo.MaterialRecord> {
  const m = await repo.findMaterial(ctx.em, id);
  if (!m) throw notFound('material', id);
  if (m.organization_id !== null) assertSameOrganization(ctx.caller, m.organization_id, 'material');
  return m;
}

export async function getMaterial(ctx: RequestContext, id: string) {
  return serializeMaterial(await requireMaterial(ctx, id));
}
