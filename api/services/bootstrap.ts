// Organizations, users and API keys made by the admin command and by the first `npm start`.
import type { EntityManager } from '@mikro-orm/postgresql';
import { generateApiKey } from '../apiKeys.ts';
import { evictKeyEverywhere } from '../authCache.ts';
import * as identity from '../../db/repositories/identity.ts';

export interface IssuedKey {
  organization_id: string;
  user_id: string;
  api_key: string;
  api_key_prefix: string;
}

async function issueKey(em: EntityManager, organizationId: string, userId: string, name: string): Promise<IssuedKey> {
  const { key, prefix, hash } = generateApiKey();
  identity.createApiKeyRow(em, { prefix, key_hash: hash, user_id: userId, organization_id: organizationId, name });
  await em.flush();
  return { organization_id: organizationId, user_id: userId, api_key: key, api_key_prefix: prefix };
}

/** The user (created when missing) in the organization with `role` unless already a member, and a new key. */
async function join(
  tx: EntityManager,
  organizationId: string,
  email: string,
  role: 'owner' | 'member',
  keyName: string,
) {
  const user = (await identity.findUserByEmail(tx, email)) ?? identity.createUser(tx, email);
  await tx.flush();
  const membership = await identity.ensureMembership(tx, organizationId, user.id, role);
  await tx.flush();
  return { ...(await issueKey(tx, organizationId, user.id, keyName)), role: membership.role };
}

/** Creates the organization and user when missing (the user owns the organization) and a new key. */
export async function bootstrap(em: EntityManager, org: string, email: string): Promise<IssuedKey> {
  return em.transactional(async (tx) => {
    const organization = (await identity.findOrganizationByName(tx, org)) ?? identity.createOrganization(tx, org);
    await tx.flush();
    return join(tx, organization.id, email, 'owner', 'bootstrap');
  });
}

/**
 * Adds a colleague to an existing organization as a member, not an owner: what they may do is
 * then up to the project roles a Project Admin gives them (POST /projects/{id}/members). Creates
 * the user when missing; an existing membership keeps its role. Answers a new key.
 */
export async function addMember(em: EntityManager, org: string, email: string): Promise<IssuedKey & { role: string }> {
  return em.transactional(async (tx) => {
    const organization = await identity.findOrganizationByName(tx, org);
    if (!organization) throw new Error(`no organization ${org} (create it with bootstrap)`);
    return join(tx, organization.id, email, 'member', 'admin');
  });
}

/** A new key for an existing user, in the named organization or the user's only one. */
export async function createApiKey(em: EntityManager, email: string, org?: string): Promise<IssuedKey> {
  const user = await identity.findUserByEmail(em, email);
  if (!user) throw new Error(`no user with email ${email} (create it with bootstrap)`);
  const orgs = await identity.listUserOrganizations(em, user.id);
  const chosen = org ? orgs.find((o) => o.name === org || o.id === org) : orgs.length === 1 ? orgs[0] : undefined;
  if (!chosen) {
    throw new Error(
      org
        ? `${email} is not a member of ${org}`
        : `${email} belongs to ${orgs.length} organizations: name one with --org`,
    );
  }
  return issueKey(em, chosen.id, user.id, 'admin');
}

export async function revokeApiKey(em: EntityManager, prefix: string): Promise<boolean> {
  const revoked = await identity.revokeApiKey(em, prefix);
  evictKeyEverywhere(prefix); // other processes hear it from the database trigger
  return revoked;
}

export async function setOrganizationSetting(
  em: EntityManager,
  org: string,
  column: 'simulation_monthly_limit' | 'stale_after_hours',
  value: number | null,
): Promise<boolean> {
  const res = await em.execute<{ affectedRows?: number }>(
    `update organizations set ${column} = ?, updated_at = now() where name = ? or id::text = ?`,
    [value, org, org],
    'run',
  );
  return (res.affectedRows ?? 0) > 0;
}

export { countOrganizations } from '../../db/repositories/identity.ts';
