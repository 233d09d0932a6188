// Authentication: X-API-Key or Authorization: Bearer, with an optional X-Organization-Id.
import type { RequestHandler } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Services } from './context.ts';
import { AppError } from './errors.ts';
import { apiKeyMatches, apiKeyPrefix } from './apiKeys.ts';
import { findActiveKeyByPrefix, findMembership, touchKey } from '../db/repositories/identity.ts';
import type { AuthCache } from './authCache.ts';
import { UUID } from './values.ts';

const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

function presentedKey(authorization: string | undefined, apiKeyHeader: string | undefined): string | undefined {
  if (apiKeyHeader) return apiKeyHeader.trim();
  const m = authorization && /^Bearer\s+(.+)$/i.exec(authorization);
  return m ? m[1]!.trim() : undefined;
}

/**
 * The caller when the cache alone settles it (a verified key, an active membership, its
 * last_used_at written within the minute), else undefined: the normal chain then decides,
 * answering every error as it does. Entries live only while the cache hears the database's
 * notifications (every replica evicts a revoked key), so this answers no more than auth does.
 */
export function cachedCaller(
  cache: AuthCache,
  authorization: string | undefined,
  apiKeyHeader: string | undefined,
  requestedOrg: string | undefined,
): { userId: string; organizationId: string; isOwner: boolean } | undefined {
  const key = presentedKey(authorization, apiKeyHeader);
  const prefix = key && apiKeyPrefix(key);
  if (!key || !prefix) return undefined;
  cache.ensureListening();
  const entry = cache.get(prefix);
  const identity = entry?.identity;
  if (!entry || !identity || !apiKeyMatches(key, identity.key_hash)) return undefined;
  const organizationId = identity.key_organization_id;
  if (requestedOrg !== undefined && requestedOrg.toLowerCase() !== organizationId) return undefined;
  const membership = entry.memberships.get(organizationId);
  if (!membership || membership.deactivated) return undefined;
  if ((lastTouched.get(identity.key_id) ?? 0) < Date.now() - TOUCH_INTERVAL_MS) return undefined;
  return { userId: identity.user_id, organizationId, isOwner: membership.role === 'owner' };
}

export function authenticate(orm: MikroORM, services: Services, cache: AuthCache): RequestHandler {
  return async (req, _res, next) => {
    try {
      const key = presentedKey(req.header('authorization'), req.header('x-api-key'));
      if (!key)
        throw new AppError('UNAUTHORIZED', 'an API key is required (X-API-Key header or Authorization: Bearer)');
      const prefix = apiKeyPrefix(key);
      const em = orm.em.fork();
      cache.ensureListening();
      let entry = prefix ? cache.get(prefix) : undefined;
      if (!entry && prefix) {
        const generation = cache.generation;
        const found = await findActiveKeyByPrefix(em, prefix);
        if (found) entry = cache.put(prefix, found, generation);
      }
      const identity = entry?.identity;
      if (!entry || !identity || !apiKeyMatches(key, identity.key_hash)) {
        throw new AppError('UNAUTHORIZED', 'the API key is invalid or has been revoked');
      }
      const requestedOrg = req.header('x-organization-id');
      if (requestedOrg !== undefined && !UUID.test(requestedOrg)) {
        throw new AppError('BAD_REQUEST', 'X-Organization-Id must be a UUID', { header: 'X-Organization-Id' });
      }
      // A key acts for the one organization it was issued in (interface: "an API key resolves to
      // one user and one organization"); the header may name it, never another one, even one the
      // same user belongs to. Compared with the lower-case ids PostgreSQL answers.
      const organizationId = requestedOrg?.toLowerCase() ?? identity.key_organization_id;
      if (organizationId !== identity.key_organization_id) {
        throw new AppError(
          'FORBIDDEN',
          'the API key belongs to another organization: use a key issued in the organization you name',
          { organization_id: organizationId },
        );
      }
      let membership = entry.memberships.get(organizationId);
      if (membership === undefined) {
        membership = await findMembership(em, organizationId, identity.user_id);
        entry.memberships.set(organizationId, membership);
      }
      if (!membership) {
        throw new AppError('FORBIDDEN', 'the API key does not belong to that organization', {
          organization_id: organizationId,
        });
      }
      if (membership.deactivated) {
        throw new AppError(
          'FORBIDDEN',
          'this member is deactivated in the organization; an owner can reactivate them',
          { organization_id: organizationId },
        );
      }
      // last_used_at is informative: write it at most once a minute per key.
      const now = Date.now();
      if ((lastTouched.get(identity.key_id) ?? 0) < now - TOUCH_INTERVAL_MS) {
        lastTouched.set(identity.key_id, now);
        await touchKey(em, identity.key_id);
      }
      req.ctx = {
        ...services,
        em,
        caller: {
          userId: identity.user_id,
          email: identity.email,
          organizationId,
          organizationName: membership.organization_name,
          isOwner: membership.role === 'owner',
          apiKeyPrefix: identity.prefix,
        },
      };
      next();
    } catch (err) {
      next(err);
    }
  };
}
