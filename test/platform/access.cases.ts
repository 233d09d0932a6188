// Who a request acts for and what it may reach: keys resolved to their user and organization,
// tenant isolation on projects, and the API key cache's revocations.
import { expect, it } from 'vitest';
import { client, eventually, newOrg, type TestApi } from '../harness.ts';
import { AuthCache } from '../../api/authCache.ts';
import { bootstrap, revokeApiKey } from '../../api/services/bootstrap.ts';

/** Authentication. */
export function authenticationCases(api: TestApi) {
  it('resolves a key to its user and organization, by X-API-Key or Bearer', async () => {
    const org = await newOrg(api.orm);
    const variants: Record<string, string>[] = [
      { 'X-API-Key': org.api_key },
      { Authorization: `Bearer ${org.api_key}` },
    ];
    for (const headers of variants) {
      const res = await client(api.url, undefined, headers).get('/auth/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        user_id: org.user_id,
        organization_id: org.organization_id,
        email: org.email,
        organization_name: org.org,
      });
      expect(JSON.stringify(res.body)).not.toContain(org.api_key);
    }
  });

  it('answers 401 for a missing, malformed, unknown or revoked key', async () => {
    const org = await newOrg(api.orm);
    const missing = await client(api.url).get('/auth/health');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error_code: 'UNAUTHORIZED' });
    expect((await client(api.url, 'not-a-key').get('/auth/health')).status).toBe(401);
    const forged = org.api_key.slice(0, -4) + 'AAAA';
    expect((await client(api.url, forged).get('/auth/health')).status).toBe(401);
    const prefix = org.api_key.split('_')[1]!;
    expect(await revokeApiKey(api.orm.em.fork(), prefix)).toBe(true);
    const revoked = await client(api.url, org.api_key).get('/auth/health');
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toMatch(/revoked/);
  });

  const actsForTheKeyTitle =
    "acts for the key's own organization only: X-Organization-Id may name it, never another " +
    'one of the same user (403)';
  it(actsForTheKeyTitle, async () => {
    const a = await newOrg(api.orm);
    const b = await newOrg(api.orm);
    // The same user joins organization B too, with a key issued there.
    const second = await bootstrap(api.orm.em.fork(), b.org, a.email);
    expect(second.user_id).toBe(a.user_id);
    const named = await client(api.url, a.api_key, { 'X-Organization-Id': a.organization_id }).get('/auth/health');
    expect(named.status).toBe(200);
    expect(named.body.organization_id).toBe(a.organization_id);
    const crossed = await client(api.url, a.api_key, { 'X-Organization-Id': b.organization_id }).get('/auth/health');
    expect(crossed.status).toBe(403);
    expect(crossed.body).toMatchObject({ error_code: 'FORBIDDEN', detail: { organization_id: b.organization_id } });
    const bProject = await client(api.url, second.api_key).post('/projects', { name: 'B only' });
    expect(bProject.status).toBe(201);
    expect(
      (
        await client(api.url, a.api_key, { 'X-Organization-Id': b.organization_id }).get(
          `/projects/${bProject.body.id}`,
        )
      ).status,
    ).toBe(403);
    const asB = await client(api.url, second.api_key, { 'X-Organization-Id': b.organization_id }).get('/auth/health');
    expect(asB.body.organization_id).toBe(b.organization_id);
    const stranger = await newOrg(api.orm);
    const foreign = await client(api.url, a.api_key, { 'X-Organization-Id': stranger.organization_id }).get(
      '/auth/health',
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.error_code).toBe('FORBIDDEN');
    const me = await client(api.url, a.api_key).get('/users/me');
    expect(me.body.authorized_organization).toEqual({ id: a.organization_id, name: a.org });
    expect(me.body.organizations.map((o: { id: string }) => o.id).sort()).toEqual(
      [a.organization_id, b.organization_id].sort(),
    );
  });

  const takesIdsInUpperTitle =
    'takes ids in upper case as the same ids: the organization header, paths, queries and id ' + 'fields of a body';
  it(takesIdsInUpperTitle, async () => {
    const a = await newOrg(api.orm);
    const c = client(api.url, a.api_key, { 'X-Organization-Id': a.organization_id.toUpperCase() });
    const project = await c.post('/projects', { name: 'Upper' });
    expect(project.status).toBe(201);
    const P = project.body.id.toUpperCase();
    expect((await c.get(`/projects/${P}`)).status).toBe(200);
    const study = await c.post(`/projects/${P}/studies`, { name: 'S' });
    expect(study.status, study.text).toBe(201);
    expect((await c.get(`/projects/${P}/studies/${study.body.id.toUpperCase()}`)).body.project_id).toBe(
      project.body.id,
    );
    expect((await c.get(`/projects?created_by=${a.user_id.toUpperCase()}`)).body.total).toBe(1);
    const site = await c.post('/sites', { name: 'Upper site' });
    const cycler = await c.post(`/sites/${site.body.id}/cyclers`, { name: 'C', project_id: P });
    expect(cycler.status, cycler.text).toBe(201);
    expect(cycler.body.project_id).toBe(project.body.id);
  });
}

/** Tenant isolation on projects. */
export function tenantIsolationCases(api: TestApi) {
  it("never reads or changes another organization's project: 403 on every route, absent from lists", async () => {
    const owner = await newOrg(api.orm);
    const intruder = await newOrg(api.orm);
    const p = (await client(api.url, owner.api_key).post('/projects', { name: 'Secret cells', description: 'private' }))
      .body;
    const x = client(api.url, intruder.api_key);
    const attempts = [
      await x.get(`/projects/${p.id}`),
      await x.patch(`/projects/${p.id}`, { name: 'mine now' }),
      await x.delete(`/projects/${p.id}`),
      await x.post(`/projects/${p.id}/members`, {
        user_id: intruder.user_id,
        project_role_id: '00000000-0000-4000-8000-000000000001',
      }),
      await x.patch(`/projects/${p.id}/members/${owner.user_id}`, {
        project_role_id: '00000000-0000-4000-8000-000000000003',
      }),
      await x.delete(`/projects/${p.id}/members/${owner.user_id}`),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.text).not.toContain('Secret cells');
      expect(res.text).not.toContain('private');
    }
    expect((await x.get('/projects')).body.items.map((i: { id: string }) => i.id)).not.toContain(p.id);
    const still = await client(api.url, owner.api_key).get(`/projects/${p.id}`);
    expect(still.body).toMatchObject({ name: 'Secret cells', description: 'private' });
    expect(still.body.user_project_roles).toHaveLength(1);
  });
}

/** The API key cache. */
export function apiKeyCacheCases(api: TestApi) {
  const doesNotCacheATitle =
    'does not cache a key read before an eviction that arrived meanwhile (a revocation ' + 'during the lookup)';
  it(doesNotCacheATitle, async () => {
    const cache = new AuthCache(api.config.databaseUrl!);
    try {
      const identity = {
        key_id: 'k',
        key_hash: 'h',
        prefix: 'p',
        user_id: 'u',
        email: 'e',
        key_organization_id: 'o',
        last_used_at: null,
      };
      cache.ensureListening();
      await eventually(
        async () => {
          cache.put('probe', identity, cache.generation);
          return cache.get('probe');
        },
        { what: 'the cache to listen' },
      );
      const before = cache.generation;
      cache.evictKey('p'); // the revocation's notification, while the lookup was in flight
      cache.put('p', identity, before);
      expect(cache.get('p')).toBeUndefined();
      cache.put('p', identity, cache.generation);
      expect(cache.get('p')?.identity).toEqual(identity);
    } finally {
      await cache.stop();
    }
  });
}
