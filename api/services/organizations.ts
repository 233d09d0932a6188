// The caller's organizations, and member administration by the organization's owners (the
// Python client's "Admin" role; "Member" is a member). No e-mail is sent: an invite adds the
// member at once, and the member gets an API key from an administrator.
import type { RequestContext } from '../context.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { evictKeyEverywhere } from '../authCache.ts';
import * as identity from '../../db/repositories/identity.ts';
import { requireProjectPermission } from './access.ts';
import { addMember } from './projects.ts';

const ROLE_NAME: Record<string, string> = { owner: 'Admin', member: 'Member' };
const ROLE_OF: Record<string, 'owner' | 'member'> = { Admin: 'owner', Member: 'member' };

export async function listOrganizations(ctx: RequestContext) {
  const orgs = await identity.listUserOrganizations(ctx.em, ctx.caller.userId);
  return orgs.map((o) => ({ id: o.id, name: o.name, role: ROLE_NAME[o.role] ?? o.role }));
}

/** The caller's own organization (a key acts for one), administered by its owners. */
function requireOwnerOf(ctx: RequestContext, orgId: string) {
  if (orgId !== ctx.caller.organizationId)
    throw forbidden('this key acts for another organization', { organization_id: orgId });
  if (!ctx.caller.isOwner) throw forbidden("only the organization's owners (Admin) administer its members", {});
}

interface MemberRow {
  id: string;
  email: string;
  role: string;
  created_at: Date;
  is_active: boolean;
}

async function member(ctx: RequestContext, orgId: string, userId: string): Promise<MemberRow> {
  const [row] = await ctx.em.execute<MemberRow[]>(
    `select u.id, u.email, m.role, m.created_at, m.deactivated_at is null as is_active
       from memberships m join users u on u.id = m.user_id where m.organization_id = ? and m.user_id = ?`,
    [orgId, userId],
  );
  if (!row) throw notFound('member of this organization', userId);
  return row;
}

export async function listMembers(ctx: RequestContext, orgId: string) {
  requireOwnerOf(ctx, orgId);
  const rows = await ctx.em.execute<
    (MemberRow & { project_roles: { project_id: string; project_role_id: string }[] })[]
  >(
    `select u.id, u.email, m.role, m.created_at, m.deactivated_at is null as is_active,
            coalesce((select json_agg(json_build_object('project_id', r.project_id, 'project_role_id',
              r.project_role_id) order by r.project_id)
                        from user_project_roles r join projects p on p.id = r.project_id
                       where r.user_id = u.id and p.organization_id = m.organization_id), '[]') as project_roles
       from memberships m join users u on u.id = m.user_id where m.organization_id = ? order by lower(u.email)`,
    [orgId],
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    is_active: r.is_active,
    created_at: r.created_at.toISOString(),
    organization_role: { name: ROLE_NAME[r.role] },
    user_project_roles: r.project_roles,
  }));
}

export async function inviteByEmail(ctx: RequestContext, orgId: string, body: RequestBody<'inviteOrganizationMember'>) {
  requireOwnerOf(ctx, orgId);
  return ctx.em.transactional(async (em) => {
    const email = body.email.trim();
    const user = (await identity.findUserByEmail(em, email)) ?? identity.createUser(em, email);
    await em.flush();
    const [existing] = await em.execute<{ role: string }[]>(
      `select role from memberships where organization_id = ? and user_id = ?`,
      [orgId, user.id],
    );
    const membership =
      existing ?? (await identity.ensureMembership(em, orgId, user.id, ROLE_OF[body.role_name ?? 'Member']!));
    return {
      user_id: user.id,
      email,
      invite_sent: false,
      already_member: Boolean(existing),
      role_name: ROLE_NAME[membership.role],
    };
  });
}

/**
 * POST /projects/{id}/invites: someone by e-mail into the project with a role. A person not yet
 * in the organization is added to it as a member, which only its owners may do; an existing
 * member keeps their organization role. No e-mail is sent.
 */
export async function inviteToProject(
  ctx: RequestContext,
  projectId: string,
  body: RequestBody<'inviteProjectMember'>,
) {
  await requireProjectPermission(ctx, projectId, 'member:create');
  const orgId = ctx.caller.organizationId;
  const email = body.email.trim();
  const known = await identity.findUserByEmail(ctx.em, email);
  const [membership] = known
    ? await ctx.em.execute<{ role: string }[]>(
        `select role from memberships where organization_id = ? and user_id = ?`,
        [orgId, known.id],
      )
    : [];
  if (!membership && !ctx.caller.isOwner) {
    throw forbidden("only the organization's owners add people to the organization; ask one, or invite a member", {
      email,
    });
  }
  if (!membership) await inviteByEmail(ctx, orgId, { email, role_name: 'Member' });
  const user = (await identity.findUserByEmail(ctx.em, email))!;
  const [existing] = await ctx.em.execute<{ project_role_id: string }[]>(
    `select project_role_id from user_project_roles where project_id = ? and user_id = ?`,
    [projectId, user.id],
  );
  if (!existing) await addMember(ctx, projectId, { user_id: user.id, project_role_id: body.project_role_id });
  const [role] = await ctx.em.execute<{ name: string }[]>(
    `select r.name from user_project_roles u join project_roles r on r.id = u.project_role_id where u.project_id = ?
      and u.user_id = ?`,
    [projectId, user.id],
  );
  return { user_id: user.id, email, invite_sent: false, already_member: Boolean(existing), role_name: role!.name };
}

/** An organization keeps at least one active owner. */
async function assertNotLastOwner(ctx: RequestContext, orgId: string, target: MemberRow, what: string) {
  if (target.role !== 'owner' || !target.is_active) return;
  const [{ owners }] = (await ctx.em.execute<{ owners: number }[]>(
    `select count(*)::int as owners from memberships where organization_id = ? and role = 'owner'
      and deactivated_at is null`,
    [orgId],
  )) as [{ owners: number }];
  if (owners <= 1) throw conflict(`${what} would leave the organization without an owner`, { user_id: target.id });
}

export async function setRole(
  ctx: RequestContext,
  orgId: string,
  userId: string,
  body: RequestBody<'setOrganizationMemberRole'>,
) {
  requireOwnerOf(ctx, orgId);
  const target = await member(ctx, orgId, userId);
  const role = ROLE_OF[body.role_name]!;
  if (role !== 'owner') await assertNotLastOwner(ctx, orgId, target, 'this change');
  await ctx.em.execute(`update memberships set role = ? where organization_id = ? and user_id = ?`, [
    role,
    orgId,
    userId,
  ]);
  return { user_id: userId, role_name: body.role_name };
}

/**
 * PATCH /organizations/{id}/users/{user_id} {is_active}: a deactivated member keeps their
 * membership, roles and keys, but the keys are refused (403) until an owner reactivates them.
 */
export async function setActive(
  ctx: RequestContext,
  orgId: string,
  userId: string,
  body: RequestBody<'setOrganizationMemberActive'>,
) {
  requireOwnerOf(ctx, orgId);
  const target = await member(ctx, orgId, userId);
  if (!body.is_active) await assertNotLastOwner(ctx, orgId, target, 'deactivating this member');
  await ctx.em.execute(
    `update memberships set deactivated_at = case when ? then null else coalesce(deactivated_at, now()) end
      where organization_id = ? and user_id = ?`,
    [body.is_active, orgId, userId],
  );
  // The memberships trigger tells the other API processes; this one drops the member's keys at once.
  const keys = await ctx.em.execute<{ prefix: string }[]>(
    `select prefix from api_keys where user_id = ? and organization_id = ?`,
    [userId, orgId],
  );
  for (const { prefix } of keys) evictKeyEverywhere(prefix);
  return {
    id: userId,
    email: target.email,
    is_active: body.is_active,
    organization_role: { name: ROLE_NAME[target.role] },
  };
}

export async function resendInvite(ctx: RequestContext, orgId: string, userId: string) {
  requireOwnerOf(ctx, orgId);
  await member(ctx, orgId, userId);
  return { user_id: userId, invite_sent: false };
}

/** Removes the membership, the member's project roles in this organization and its API keys here. */
export async function removeMember(ctx: RequestContext, orgId: string, userId: string) {
  requireOwnerOf(ctx, orgId);
  const target = await member(ctx, orgId, userId);
  await assertNotLastOwner(ctx, orgId, target, 'removing this member');
  const prefixes = await ctx.em.transactional(async (em) => {
    await em.execute(
      `delete from user_project_roles where user_id = ? and project_id in (select id from projects
        where organization_id = ?)`,
      [userId, orgId],
    );
    const keys = await em.execute<{ prefix: string }[]>(
      `update api_keys set revoked_at = now() where user_id = ? and organization_id = ? and revoked_at is null
        returning prefix`,
      [userId, orgId],
    );
    await em.execute(`delete from memberships where organization_id = ? and user_id = ?`, [orgId, userId]);
    return keys.map((k) => k.prefix);
  });
  for (const prefix of prefixes) evictKeyEverywhere(prefix);
  return { id: userId, deleted: true };
}
