// Queries for organizations, users, memberships and API keys.
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, Membership, Organization, User, type IOrganization, type IUser } from '../entities/platform.ts';

export interface KeyIdentity {
  key_id: string;
  key_hash: string;
  prefix: string;
  user_id: string;
  email: string;
  key_organization_id: string;
  last_used_at: Date | null;
}

export async function findActiveKeyByPrefix(em: EntityManager, prefix: string): Promise<KeyIdentity | null> {
  const rows = await em.execute<KeyIdentity[]>(
    `select k.id as key_id, k.key_hash, k.prefix, k.user_id, u.email, k.organization_id as key_organization_id,
      k.last_used_at
       from api_keys k join users u on u.id = k.user_id
      where k.prefix = ? and k.revoked_at is null`,
    [prefix],
  );
  return rows[0] ?? null;
}

export async function findMembership(
  em: EntityManager,
  organizationId: string,
  userId: string,
): Promise<{ role: string; organization_name: string; deactivated: boolean } | null> {
  const rows = await em.execute<{ role: string; organization_name: string; deactivated: boolean }[]>(
    `select m.role, o.name as organization_name, m.deactivated_at is not null as deactivated
       from memberships m join organizations o on o.id = m.organization_id
      where m.organization_id = ? and m.user_id = ?`,
    [organizationId, userId],
  );
  return rows[0] ?? null;
}

export async function touchKey(em: EntityManager, keyId: string): Promise<void> {
  await em.execute(`update api_keys set last_used_at = now() where id = ?`, [keyId]);
}

export async function listUserOrganizations(em: EntityManager, userId: string) {
  return em.execute<{ id: string; name: string; role: string }[]>(
    `select o.id, o.name, m.role from memberships m join organizations o on o.id = m.organization_id
      where m.user_id = ? order by o.name`,
    [userId],
  );
}

export async function findOrganizationByName(em: EntityManager, name: string): Promise<IOrganization | null> {
  return em.findOne(Organization, { name });
}

export async function findUserByEmail(em: EntityManager, email: string): Promise<IUser | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from users where lower(email) = lower(?)`, [email]);
  return rows[0] ? em.findOne(User, { id: rows[0].id }) : null;
}

export function createOrganization(em: EntityManager, name: string): IOrganization {
  return em.create(Organization, { name });
}

export function createUser(em: EntityManager, email: string): IUser {
  return em.create(User, { email });
}

export async function ensureMembership(
  em: EntityManager,
  organizationId: string,
  userId: string,
  role: 'owner' | 'member',
) {
  const existing = await em.findOne(Membership, { organization_id: organizationId, user_id: userId });
  return existing ?? em.create(Membership, { organization_id: organizationId, user_id: userId, role });
}

export function createApiKeyRow(
  em: EntityManager,
  row: { prefix: string; key_hash: string; user_id: string; organization_id: string; name?: string | null },
) {
  return em.create(ApiKey, { ...row, name: row.name ?? null });
}

export async function revokeApiKey(em: EntityManager, prefix: string): Promise<boolean> {
  const res = await em.execute<{ affectedRows?: number }>(
    `update api_keys set revoked_at = now() where prefix = ? and revoked_at is null`,
    [prefix],
    'run',
  );
  return (res.affectedRows ?? 0) > 0;
}

export async function countOrganizations(em: EntityManager): Promise<number> {
  return em.count(Organization, {});
}
