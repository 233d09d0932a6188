// Sites: organization-level equipment locations. Every member reads them; writing them
// takes the matching cycler permission in some project made by someone else (deleting: in
// every project with cyclers there), or being an organization owner.
import type { RequestBody } from '../schemas.ts';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/inventory.ts';
import { insertRow, orConflict, page, updateRow } from '../../db/repositories/sqlRows.ts';
import {
  assertSameOrganization,
  readableProjectsSql,
  requirePermissionInSomeProject,
  requireProjectPermission,
} from './access.ts';
import { indexEntity } from './searchIndex.ts';
import { UUID } from '../values.ts';

const SITE_LIST = {
  columns: {
    name: { kind: 'text', sql: 's.name' },
    location: { kind: 'text', sql: 's.location' },
    notes: { kind: 'text', sql: 's.notes' },
    created_by: { kind: 'id', sql: 's.created_by' },
    created_by_email: { kind: 'text', sql: 'u.email' },
    created_at: { kind: 'date', sql: 's.created_at' },
    updated_at: { kind: 'date', sql: 's.updated_at' },
  },
  sortable: ['name', 'location', 'created_by_email', 'created_at', 'updated_at'],
  defaultOrderBy: 'name',
  tieBreak: 's.id',
} as const;

type SiteBody = RequestBody<'updateSite'>;

/** Owners, or members holding `permission` in a project of the organization that someone else made. */
export function requireEquipmentPermission(ctx: RequestContext, permission: string): Promise<void> {
  return requirePermissionInSomeProject(ctx, permission, { madeByOthers: true });
}

/** 404 when missing, 403 when another organization's. */
export async function requireSite(
  ctx: RequestContext,
  siteId: string,
): Promise<{ id: string; organization_id: string }> {
  // The validator lets a malformed site_id through on GET /sites/{site_id}/cyclers; PostgreSQL would refuse it (500).
  if (!UUID.test(siteId)) throw notFound('site', siteId);
  const site = await repo.siteOrganization(ctx.em, siteId);
  if (!site) throw notFound('site', siteId);
  assertSameOrganization(ctx.caller, site.organization_id, 'site');
  return site;
}

async function readSite(ctx: RequestContext, siteId: string): Promise<repo.SiteRow> {
  return (await repo.findSite(ctx.em, siteId, readableProjectsSql(ctx.caller, 'c.project_id')))!;
}

function indexSite(
  ctx: RequestContext,
  site: { id: string; organization_id: string; name: string; location: string | null; notes: string | null },
) {
  return indexEntity(ctx.em, {
    entity_type: 'site',
    entity_id: site.id,
    organization_id: site.organization_id,
    project_id: null,
    name: site.name,
    body: [site.location, site.notes].filter(Boolean).join(' '),
  });
}

async function assertNameFree(ctx: RequestContext, name: string, selfId?: string) {
  const clash = await repo.findSiteByName(ctx.em, ctx.caller.organizationId, name);
  if (clash && clash.id !== selfId) throw conflict(`a site named "${name}" already exists`, { existing_id: clash.id });
}

export async function createSite(ctx: RequestContext, body: RequestBody<'createSite'>) {
  await requireEquipmentPermission(ctx, 'cycler:create');
  await assertNameFree(ctx, body.name);
  const id = randomUUID();
  await orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        const row = await insertRow<{
          id: string;
          organization_id: string;
          name: string;
          location: string | null;
          notes: string | null;
        }>(em, 'sites', {
          id,
          organization_id: ctx.caller.organizationId,
          name: body.name,
          location: body.location ?? null,
          notes: body.notes ?? null,
          created_by: ctx.caller.userId,
        });
        await indexSite({ ...ctx, em }, row);
      }),
    () => assertNameFree(ctx, body.name),
  );
  return readSite(ctx, id);
}

export async function getSite(ctx: RequestContext, siteId: string) {
  await requireSite(ctx, siteId);
  return readSite(ctx, siteId);
}

export async function listSites(ctx: RequestContext, query: Record<string, unknown>) {
  const list = parseList(query, SITE_LIST);
  const readable = readableProjectsSql(ctx.caller, 'c.project_id');
  return page<repo.SiteRow>(ctx.em, {
    select: repo.siteSelect(readable.sql),
    selectParams: readable.params,
    from: repo.SITE_FROM,
    scope: [{ sql: 's.organization_id = ?', params: [ctx.caller.organizationId] }],
    list,
  });
}

export async function updateSite(ctx: RequestContext, siteId: string, body: SiteBody) {
  await requireSite(ctx, siteId);
  await requireEquipmentPermission(ctx, 'cycler:update');
  if (body.name !== undefined) await assertNameFree(ctx, body.name, siteId);
  await orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        await updateRow(em, 'sites', siteId, { name: body.name, location: body.location, notes: body.notes });
        const [row] = await em.execute<
          { id: string; organization_id: string; name: string; location: string | null; notes: string | null }[]
        >(`select id, organization_id, name, location, notes from sites where id = ?`, [siteId]);
        await indexSite({ ...ctx, em }, row!);
      }),
    () => assertNameFree(ctx, body.name!, siteId),
  );
  return readSite(ctx, siteId);
}

/** Deletes the site with its cyclers and channels; refused while a measurement runs there. */
export async function deleteSite(ctx: RequestContext, siteId: string) {
  await requireSite(ctx, siteId);
  await requireEquipmentPermission(ctx, 'cycler:delete');
  for (const projectId of await repo.siteProjects(ctx.em, siteId)) {
    try {
      await requireProjectPermission(ctx, projectId, 'cycler:delete');
    } catch {
      throw forbidden(`the site holds cyclers of project ${projectId}, where cycler:delete is missing`, {
        permission: 'cycler:delete',
        project_id: projectId,
      });
    }
  }
  await ctx.em.transactional(async (em) => {
    await em.execute(`select id from sites where id = ? for update`, [siteId]);
    await repo.lockEquipment(em, { siteId }); // an attach racing the delete commits before the check or fails after it
    const running = await repo.runningMeasurement(em, { siteId });
    if (running) {
      throw conflict('a measurement is running on a channel of this site', {
        measurement_id: running.id,
        channel_id: running.channel_id,
      });
    }
    await repo.unindexSiteEquipment(em, siteId);
    await em.execute(`delete from search_documents where entity_type = 'site' and entity_id = ?`, [siteId]);
    await em.execute(`delete from sites where id = ?`, [siteId]);
  });
  return { id: siteId, deleted: true };
}
