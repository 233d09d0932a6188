// Sites: create, read, list, patch and delete with cascade; concurrent creates; filters.
import { expect, it } from 'vitest';
import { client, newOrg, type TestApi } from '../harness.ts';
import { labFixture, measurement, ok, oneCreated } from '../inventoryHelpers.ts';

export function siteCases(api: TestApi) {
  it('creates, reads, lists, patches only the given fields and deletes with cascade', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const { site, cycler, channels } = await labFixture(c);
    const res = await c.get(`/sites/${site.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: site.id,
      organization_id: org.organization_id,
      location: 'Building 7',
      created_by: org.user_id,
      created_by_email: org.email,
      cycler_ids: [cycler.id],
    });
    const list = await ok(
      c.get(`/sites?created_by_email=ilike.%25${org.email.slice(0, 5)}%25&name=eq.${encodeURIComponent(site.name)}`),
    );
    expect(list).toMatchObject({ count: 1, total: 1 });
    expect(list.items[0]).toMatchObject({ created_by_email: org.email, cycler_ids: [cycler.id] });
    const patched = await ok(c.patch(`/sites/${site.id}`, { notes: 'second floor' }));
    expect(patched).toMatchObject({
      name: site.name,
      location: 'Building 7',
      notes: 'second floor',
      created_by_email: org.email,
    });
    const dup = await c.post('/sites', { name: site.name });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error_code: 'CONFLICT', detail: { existing_id: site.id } });
    expect(await ok(c.delete(`/sites/${site.id}`))).toEqual({ id: site.id, deleted: true });
    expect((await c.get(`/cyclers/${cycler.id}`)).status).toBe(404);
    expect((await c.get(`/channels/${channels[0].id}`)).status).toBe(404);
  });

  it('refuses deleting a site while a measurement runs on one of its channels', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { site, channels, instance } = await labFixture(c);
    const m = await measurement(c, instance.id, { channel_id: channels[0].id });
    const res = await c.delete(`/sites/${site.id}`);
    expect(res.status).toBe(409);
    expect(res.body.detail.measurement_id).toBe(m.id);
    expect((await c.get(`/sites/${site.id}`)).status).toBe(200);
    await ok(c.patch(`/cell_measurements/${m.id}`, { end_time: new Date().toISOString() }));
    expect((await c.delete(`/sites/${site.id}`)).status).toBe(200);
  });

  it('answers concurrent creates of one name with one 201 and 409s naming it', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    await ok(c.post('/projects', { name: 'p' }), 201);
    oneCreated(await Promise.all(Array.from({ length: 6 }, () => c.post('/sites', { name: 'Same site' }))));
  });

  it('sorts and rejects bad filters naming the parameter', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    await ok(c.post('/projects', { name: 'p' }), 201);
    for (const name of ['b site', 'a site', 'c site']) await ok(c.post('/sites', { name }), 201);
    const sorted = await ok(c.get('/sites?order_by=name&order=desc'));
    expect(sorted.items.map((s: { name: string }) => s.name)).toEqual(['c site', 'b site', 'a site']);
    for (const [q, loc] of [
      ['name=ilike.', 'name'],
      ['name=like%25', 'name'],
      ['created_at=gte.notadate', 'created_at'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['offset=-1', 'offset'],
      ['order_by=colour', 'order_by'],
    ]) {
      const res = await c.get(`/sites?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.detail[0].loc, q).toEqual(['query', loc]);
    }
  });
}
