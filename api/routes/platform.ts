// Health, identity and role routes.
import { Router } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { AppError } from '../errors.ts';
import { temporalReachable } from '../../stack/temporalClient.ts';
import { listUserOrganizations } from '../../db/repositories/identity.ts';
import { listRoles } from '../services/projects.ts';

/** GET /healthz needs no key: it reports whether the database and Temporal answer. */
export function healthRoutes(orm: MikroORM, temporal: Client): Router {
  const r = Router();
  r.get('/healthz', async (_req, res) => {
    const [database, temporalOk] = await Promise.all([
      orm.em
        .fork()
        .execute('select 1')
        .then(
          () => true,
          () => false,
        ),
      temporalReachable(temporal),
    ]);
    const ok = database && temporalOk;
    if (!ok) res.setHeader('Retry-After', '5');
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'degraded',
      database: database ? 'ok' : 'unreachable',
      temporal: temporalOk ? 'ok' : 'unreachable',
    });
  });
  // Outside the validated routes, so the method is checked here (HEAD is GET's).
  r.all('/healthz', (req, res) => {
    res.setHeader('Allow', 'GET');
    throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /healthz; allowed: GET`, {
      allowed: ['GET'],
    });
  });
  return r;
}

export function identityRoutes(): Router {
  const r = Router();
  r.get('/auth/health', (req, res) => {
    const { caller } = req.ctx;
    res.json({
      status: 'ok',
      user_id: caller.userId,
      email: caller.email,
      organization_id: caller.organizationId,
      organization_name: caller.organizationName,
      api_key_prefix: caller.apiKeyPrefix,
    });
  });
  r.get('/users/me', async (req, res) => {
    const { caller, em } = req.ctx;
    const organizations = await listUserOrganizations(em, caller.userId);
    res.json({
      id: caller.userId,
      email: caller.email,
      authorized_organization: { id: caller.organizationId, name: caller.organizationName },
      organizations,
    });
  });
  r.get('/roles/project', async (req, res) => {
    res.json(await listRoles(req.ctx));
  });
  return r;
}
