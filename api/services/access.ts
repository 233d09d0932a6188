// Who may do what: organization membership, and project roles with resource:action permissions.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller, RequestContext } from '../context.ts';
import { AppError, forbidden, notFound } from '../errors.ts';

export interface ProjectRef {
  id: string;
  organization_id: string;
  name: string;
}

async function loadProjectRef(em: EntityManager, projectId: string): Promise<ProjectRef | null> {
  const rows = await em.execute<ProjectRef[]>(`select id, organization_id, name from projects where id = ?`, [
    projectId,
  ]);
  return rows[0] ?? null;
}

export async function permissionsIn(em: EntityManager, caller: Caller, projectId: string): Promise<Set<string>> {
  const rows = await em.execute<{ permission: string }[]>(
    `select p.permission from user_project_roles r
      join project_role_permissions p on p.project_role_id = r.project_role_id
      where r.user_id = ? and r.project_id = ?`,
    [caller.userId, projectId],
  );
  return new Set(rows.map((r) => r.permission));
}

/** A resource of another organization is answered 403, never with its data. */
export function assertSameOrganization(caller: Caller, organizationId: string, what: string): void {
  if (organizationId !== caller.organizationId) {
    throw forbidden(`the ${what} belongs to another organization`);
  }
}

/**
 * Loads the project and checks the caller holds `permission` in it.
 * 404 when it does not exist, 403 when it is another organization's or the role lacks the permission.
 */
export async function requireProjectPermission(
  ctx: RequestContext,
  projectId: string,
  permission: string,
): Promise<ProjectRef> {
  const project = await loadProjectRef(ctx.em, projectId);
  if (!project) throw notFound('project', projectId);
  assertSameOrganization(ctx.caller, project.organization_id, 'project');
  if (ctx.caller.isOwner) return project;
  const perms = await permissionsIn(ctx.em, ctx.caller, projectId);
  if (!perms.has(permission)) {
    throw new AppError('FORBIDDEN', `missing permission ${permission} in project ${projectId}`, {
      permission,
      project_id: projectId,
    });
  }
  return project;
}

/** SQL condition (and params) limiting `projectIdSql` to projects the caller can read. */
export function readableProjectsSql(caller: Caller, projectIdSql: string): { sql: string; params: unknown[] } {
  if (caller.isOwner) {
    return {
      sql: `${projectIdSql} in (select id from projects where organization_id = ?)`,
      params: [caller.organizationId],
    };
  }
  return {
    sql: `${projectIdSql} in (select r.project_id from user_project_roles r join projects p on p.id = r.project_id
            where r.user_id = ? and p.organization_id = ?)`,
    params: [caller.userId, caller.organizationId],
  };
}

/**
 * Organization-level resources (sites, models) have no project: owners, or members holding
 * `permission` in some project of the organization. With `madeByOthers`, only projects someone
 * else made count: any member may make a project and is its Project Admin, which must not give
 * them a say over what the whole organization shares.
 */
export async function requirePermissionInSomeProject(
  ctx: RequestContext,
  permission: string,
  opts: { madeByOthers?: boolean } = {},
): Promise<void> {
  if (ctx.caller.isOwner) return;
  const rows = await ctx.em.execute(
    `select 1 from user_project_roles r join projects p on p.id = r.project_id
       join project_role_permissions rp on rp.project_role_id = r.project_role_id
      where r.user_id = ? and p.organization_id = ?
        and rp.permission = ?${opts.madeByOthers ? ' and p.created_by <> r.user_id' : ''} limit 1`,
    [ctx.caller.userId, ctx.caller.organizationId, permission],
  );
  if (!rows.length) {
    const where = opts.madeByOthers
      ? "every project of the organization made by someone else (a project of one's own gives no say over what the " +
        'organization shares)'
      : 'every project of the organization';
    throw new AppError('FORBIDDEN', `missing permission ${permission} in ${where}`, { permission });
  }
}

/** Whether the caller may `permission` in the project (owners may everything in their organization's). */
export async function holdsInProject(ctx: RequestContext, projectId: string, permission: string): Promise<boolean> {
  return ctx.caller.isOwner || (await permissionsIn(ctx.em, ctx.caller, projectId)).has(permission);
}
