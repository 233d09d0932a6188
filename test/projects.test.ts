// Projects, roles and members against the real API, database and Temporal server.
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, eventually, newMember, newOrg } from './harness.ts';
import { PROJECT_ROLES } from '../db/roles.ts';
import { oneCreated } from './inventoryHelpers.ts';

const [ADMIN, CONTRIBUTOR, VIEWER] = PROJECT_ROLES.map((r) => r.id);

const api = apiForSuite();

describe('projects', () => {
  it('creates a project whose creator is Project Admin, with roles and permissions nested', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const res = await c.post('/projects', { name: 'Cells 2026', description: 'NMC cells' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('location')).toBe(`/projects/${res.body.id}`);
    expect(res.body).toMatchObject({
      name: 'Cells 2026',
      description: 'NMC cells',
      organization_id: org.organization_id,
      created_by: org.user_id,
    });
    expect(res.body.cell_spec_project_mappings).toEqual([]);
    expect(res.body.user_project_roles).toHaveLength(1);
    const role = res.body.user_project_roles[0];
    expect(role).toMatchObject({ user_id: org.user_id, project_id: res.body.id, project_role_id: ADMIN });
    expect(role.project_roles.name).toBe('Project Admin');
    expect(role.project_roles.project_role_permissions.map((p: { permission: string }) => p.permission)).toContain(
      'project:delete',
    );
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
  });

  it('answers a duplicate name with 409 CONFLICT and the existing id', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const first = await c.post('/projects', { name: 'Same' });
    const again = await c.post('/projects', { name: 'Same' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: 'CONFLICT', detail: { existing_id: first.body.id } });
  });

  it('answers concurrent creates of one project or study name with one 201 and 409s naming it', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const project = oneCreated(
      await Promise.all(Array.from({ length: 6 }, () => c.post('/projects', { name: 'Raced' }))),
    );
    oneCreated(
      await Promise.all(
        Array.from({ length: 6 }, () => c.post(`/projects/${project.id}/studies`, { name: 'Raced study' })),
      ),
    );
  });

  it('takes list filters with unencoded reserved characters, as the wire conventions write them', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const a = await c.post('/projects', { name: 'Alpha' });
    await c.post('/projects', { name: 'Beta' });
    await c.post('/projects', { name: 'Gamma' });
    const since = new Date(Date.parse(a.body.created_at) - 1000).toISOString(); // colons left as they are
    const res = await c.get(`/projects?name=in.(Alpha,Gamma)&created_at_gt=${since}&order_by=name&order=asc`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'Gamma']);
    for (const path of [
      '/jobs/?status=in.(pending,running)',
      `/simulations?status=in.(pending,running)&created_at_gt=${since}`,
      `/models?created_at_gt=${since}`,
    ]) {
      const list = await c.get(path);
      expect(list.status, `${path}: ${JSON.stringify(list.body)}`).toBe(200);
    }
  });

  it('patches name and description, answering created_by and user_project_roles', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const p = await c.post('/projects', { name: 'Before' });
    // An unknown field is refused at its name (docs/decisions/unknown-fields.md), and nothing changes.
    const unknown = await c.patch(`/projects/${p.body.id}`, { name: 'After', unknown_field: 1 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'unknown_field']);
    expect((await c.get(`/projects/${p.body.id}`)).body.name).toBe('Before');
    const res = await c.patch(`/projects/${p.body.id}`, { name: 'After', description: 'changed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'After', description: 'changed', created_by: org.user_id });
    expect(res.body.user_project_roles[0].project_role_id).toBe(ADMIN);
    expect((await c.get(`/projects/${p.body.id}`)).body.name).toBe('After');
  });

  it('lists with filters, sorting and pagination', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    for (const name of ['alpha cells', 'beta cells', 'gamma']) await c.post('/projects', { name });
    const res = await c.get('/projects?name=ilike.%25cells%25&order_by=name&order=desc&limit=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, total: 2 });
    expect(res.body.items[0].name).toBe('beta cells');
    // Newest first by default; a named column without `order` sorts ascending.
    expect((await c.get('/projects')).body.items.map((x: { name: string }) => x.name)).toEqual([
      'gamma',
      'beta cells',
      'alpha cells',
    ]);
    expect((await c.get('/projects?order_by=name')).body.items.map((x: { name: string }) => x.name)).toEqual([
      'alpha cells',
      'beta cells',
      'gamma',
    ]);
    const bad = await c.get('/projects?order_by=colour');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'order_by']);
    const badFilter = await c.get('/projects?created_at=gte.notadate');
    expect(badFilter.status).toBe(422);
    expect(badFilter.body.detail[0].loc).toEqual(['query', 'created_at']);
  });

  it('keeps a Project Admin when two admins demote each other at once', async () => {
    const org = await newOrg(api.orm);
    const a = client(api.url, org.api_key);
    const p = (await a.post('/projects', { name: 'Two admins' })).body;
    const other = await newMember(api.orm, org.organization_id);
    expect((await a.post(`/projects/${p.id}/members`, { user_id: other.user_id, project_role_id: ADMIN })).status).toBe(
      201,
    );
    const b = client(api.url, other.api_key);
    for (let round = 0; round < 5; round++) {
      const [ab, ba] = await Promise.all([
        a.patch(`/projects/${p.id}/members/${other.user_id}`, { project_role_id: VIEWER }),
        b.patch(`/projects/${p.id}/members/${org.user_id}`, { project_role_id: VIEWER }),
      ]);
      // One demotion wins; the other is 409, or 403 when its caller was demoted first.
      expect([ab.status, ba.status].filter((s) => s === 200)).toHaveLength(1);
      const roles = await api.orm.em
        .fork()
        .execute<{ project_role_id: string }[]>(`select project_role_id from user_project_roles where project_id = ?`, [
          p.id,
        ]);
      expect(roles.filter((r) => r.project_role_id === ADMIN)).toHaveLength(1);
      // Back to two admins for the next round.
      const demoted = ab.status === 200 ? other.user_id : org.user_id;
      const admin = ab.status === 200 ? a : b;
      expect((await admin.patch(`/projects/${p.id}/members/${demoted}`, { project_role_id: ADMIN })).status).toBe(200);
    }
  });

  it('answers concurrent adds of one member with one 201 and 409s, and keeps the role the 201 reported', async () => {
    const org = await newOrg(api.orm);
    const a = client(api.url, org.api_key);
    for (let round = 0; round < 3; round++) {
      const p = (await a.post('/projects', { name: `Members race ${round}` })).body;
      const other = await newMember(api.orm, org.organization_id);
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          a.post(`/projects/${p.id}/members`, {
            user_id: other.user_id,
            project_role_id: i % 2 ? VIEWER : CONTRIBUTOR,
          }),
        ),
      );
      const created = replies.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      for (const r of replies.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(409);
        expect(r.body.detail).toMatchObject({
          existing_id: other.user_id,
          project_role_id: created[0]!.body.project_role_id,
        });
      }
      const [row] = await api.orm.em
        .fork()
        .execute<{ project_role_id: string }[]>(
          `select project_role_id from user_project_roles where project_id = ? and user_id = ?`,
          [p.id, other.user_id],
        );
      expect(row!.project_role_id).toBe(created[0]!.body.project_role_id);
    }
  });

  const enforcesProjectRolesATitle =
    'enforces project roles: a Viewer cannot patch (403 naming the permission), a ' +
    'Contributor cannot manage members';
  it(enforcesProjectRolesATitle, async () => {
    const org = await newOrg(api.orm);
    const admin = client(api.url, org.api_key);
    const p = await admin.post('/projects', { name: 'Roles' });
    const viewer = await newMember(api.orm, org.organization_id);
    const contributor = await newMember(api.orm, org.organization_id);
    expect((await client(api.url, viewer.api_key).get(`/projects/${p.body.id}`)).status).toBe(403);
    expect(
      (await admin.post(`/projects/${p.body.id}/members`, { user_id: viewer.user_id, project_role_id: VIEWER })).status,
    ).toBe(201);
    expect(
      (
        await admin.post(`/projects/${p.body.id}/members`, {
          user_id: contributor.user_id,
          project_role_id: CONTRIBUTOR,
        })
      ).status,
    ).toBe(201);

    const v = client(api.url, viewer.api_key);
    expect((await v.get(`/projects/${p.body.id}`)).status).toBe(200);
    const denied = await v.patch(`/projects/${p.body.id}`, { name: 'hijacked' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error_code: 'FORBIDDEN', detail: { permission: 'project:update' } });
    expect((await admin.get(`/projects/${p.body.id}`)).body.name).toBe('Roles');

    const k = client(api.url, contributor.api_key);
    const memberChange = await k.patch(`/projects/${p.body.id}/members/${viewer.user_id}`, { project_role_id: ADMIN });
    expect(memberChange.status).toBe(403);
    expect(memberChange.body.detail.permission).toBe('member:update');

    // The last admin cannot be removed or demoted.
    expect((await admin.delete(`/projects/${p.body.id}/members/${org.user_id}`)).status).toBe(409);
    expect(
      (await admin.patch(`/projects/${p.body.id}/members/${viewer.user_id}`, { project_role_id: CONTRIBUTOR })).status,
    ).toBe(200);
    expect((await admin.delete(`/projects/${p.body.id}/members/${viewer.user_id}`)).status).toBe(200);
    expect((await v.get(`/projects/${p.body.id}`)).status).toBe(403);
  });

  it('lists the seeded project roles', async () => {
    const org = await newOrg(api.orm);
    const res = await client(api.url, org.api_key).get('/roles/project');
    expect(res.status).toBe(200);
    expect(res.body.map((r: { name: string }) => r.name).sort()).toEqual([
      'Project Admin',
      'Project Contributor',
      'Project Viewer',
    ]);
    const viewer = res.body.find((r: { name: string }) => r.name === 'Project Viewer');
    expect(viewer.permissions.every((p: string) => p.endsWith(':read'))).toBe(true);
  });

  it('deletes a project and purges its stored objects through a Temporal workflow', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const p = await c.post('/projects', { name: 'Doomed' });
    const prefix = `orgs/${org.organization_id}/projects/${p.body.id}/`;
    await api.storage.put(`${prefix}measurements/m1/time_series.parquet`, Buffer.from('data'));
    const other = `orgs/${org.organization_id}/projects/00000000-0000-4000-8000-0000000000ff/keep.bin`;
    await api.storage.put(other, Buffer.from('keep'));
    const res = await c.delete(`/projects/${p.body.id}`);
    expect(res.status).toBe(200);
    expect((await c.get(`/projects/${p.body.id}`)).status).toBe(404);
    await eventually(async () => (await api.storage.list(prefix)).length === 0, { what: 'purge workflow' });
    expect(await api.storage.head(other)).toEqual({ size: 4 });
  });
});
