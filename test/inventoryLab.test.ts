// Lab status, search, and role and tenant checks on every inventory route, against the real API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newMember, newOrg, startApi, type TestApi } from './harness.ts';
import { PROJECT_ROLES } from '../db/roles.ts';
import { labFixture, measurement, ok, uniq } from './inventoryHelpers.ts';

const [, CONTRIBUTOR, VIEWER] = PROJECT_ROLES.map((r) => r.id);

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const sql = (q: string, params: unknown[] = []) => api.orm.em.fork().execute(q, params);

describe('lab status', () => {
  it('derives free, occupied, stale and out of commission per channel, with counts and the measurement', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const { project, site, cycler, channels, instance, spec } = await labFixture(c, { channels: 4 });
    const [a1, a2, a3, a4] = channels;
    const site2 = await ok(c.post('/sites', { name: uniq('Annex') }), 201);
    const cyclerB = await ok(c.post(`/sites/${site2.id}/cyclers`, { name: 'B', project_id: project.id }), 201);
    const b1 = await ok(c.post(`/cyclers/${cyclerB.id}/channels`, { name: 'B1' }), 201);
    const b2 = await ok(c.post(`/cyclers/${cyclerB.id}/channels`, { name: 'B2' }), 201);
    // Another project's cycler at the same site stays out of this project's tree.
    const other = await ok(c.post('/projects', { name: uniq('Other') }), 201);
    await ok(c.post(`/sites/${site.id}/cyclers`, { name: 'Foreign', project_id: other.id }), 201);

    const eta = new Date(Date.now() + 5 * 3600_000).toISOString();
    const fresh = await measurement(c, instance.id, {
      channel_id: a1.id,
      protocol: 'CCCV 1C',
      program_name: 'cycle.mps',
      estimated_end_time: eta,
    });
    const stale = await measurement(c, instance.id, { channel_id: a2.id });
    await sql(`update cell_measurements set data_updated_at = now() - interval '30 hours' where id = ?`, [stale.id]);
    await measurement(c, instance.id, { channel_id: a3.id, end_time: new Date(Date.now() - 60_000).toISOString() });
    await ok(c.patch(`/channels/${a4.id}`, { out_of_commission: true }));
    const future = await measurement(c, instance.id, {
      channel_id: b1.id,
      end_time: new Date(Date.now() + 3600_000).toISOString(),
    });
    // No data yet and an old updated_at: stale too, by the fallback.
    await ok(c.post(`/cell_measurements/${fresh.id}/watch`));

    const res = await c.get(`/projects/${project.id}/lab/status`);
    expect(res.status).toBe(200);
    const tree = res.body;
    expect(tree).toMatchObject({ occupied: 2, stale: 1, free: 2, out_of_commission: 1 });
    expect(tree.sites.map((s: { id: string }) => s.id).sort()).toEqual([site.id, site2.id].sort());
    const siteA = tree.sites.find((s: { id: string }) => s.id === site.id);
    expect(siteA.cyclers.map((x: { name: string }) => x.name)).toEqual([cycler.name]);
    const A = siteA.cyclers[0];
    expect(A).toMatchObject({
      id: cycler.id,
      channel_count: 4,
      occupied: 1,
      stale: 1,
      free: 1,
      out_of_commission: 1,
      manufacturer: 'Arbin',
      model: 'LBT21084',
      serial_number: 'SN-1',
      calibration_due_at: null,
    });
    const byName = Object.fromEntries(A.channels.map((ch: { name: string }) => [ch.name, ch]));
    expect(byName.CH1).toMatchObject({
      state: 'occupied',
      max_amps: 10,
      min_volts: 2.5,
      max_volts: 4.2,
      out_of_commission: false,
    });
    expect(byName.CH1.measurement).toMatchObject({
      id: fresh.id,
      name: fresh.name,
      cell_instance_id: instance.id,
      cell_instance_name: instance.name,
      cell_specification_name: spec.name,
      protocol_name: 'CCCV 1C',
      program_name: 'cycle.mps',
      requested_by_email: org.email,
      watched: true,
      estimated_end_time: eta,
      start_time: fresh.start_time,
    });
    expect(byName.CH2).toMatchObject({ state: 'stale', measurement: { id: stale.id, watched: false } });
    expect(byName.CH3.state).toBe('free');
    expect(byName.CH3).not.toHaveProperty('measurement');
    // The fourth state: never 'free', so the client's free_channels() (state == 'free') skips it.
    expect(byName.CH4).toMatchObject({ state: 'out_of_commission', out_of_commission: true });
    expect(byName.CH4).not.toHaveProperty('measurement');
    const freeIds = tree.sites.flatMap((s: { cyclers: { channels: { id: string; state: string }[] }[] }) =>
      s.cyclers.flatMap((cy) => cy.channels.filter((ch) => ch.state === 'free').map((ch) => ch.id)),
    );
    expect(freeIds.sort()).toEqual([a3.id, b2.id].sort());
    const B = tree.sites.find((s: { id: string }) => s.id === site2.id).cyclers[0];
    expect(B).toMatchObject({ channel_count: 2, occupied: 1, free: 1, stale: 0, out_of_commission: 0 });
    expect(B.channels[0].measurement.id).toBe(future.id);

    // A run recorded on it before the flag (written directly: the API refuses both orders) does not make it occupied.
    await sql(`update cell_measurements set channel_id = ? where id = ?`, [a4.id, fresh.id]);
    const moved = await ok(c.get(`/projects/${project.id}/lab/status`));
    expect(moved).toMatchObject({ occupied: 1, stale: 1, free: 3, out_of_commission: 1 });
    const ch4 = moved.sites
      .find((s: { id: string }) => s.id === site.id)
      .cyclers[0].channels.find((ch: { id: string }) => ch.id === a4.id);
    expect(ch4).toMatchObject({ state: 'out_of_commission' });
    expect(ch4).not.toHaveProperty('measurement');
    await sql(`update cell_measurements set channel_id = ? where id = ?`, [a1.id, fresh.id]);

    // The organization's own window: 48 h makes the 30 h old data current again.
    await sql(`update organizations set stale_after_hours = 48 where id = ?`, [org.organization_id]);
    expect(await ok(c.get(`/projects/${project.id}/lab/status`))).toMatchObject({ occupied: 3, stale: 0 });
    // Without data_updated_at, updated_at decides.
    await sql(
      `update cell_measurements set data_updated_at = null, updated_at = now() - interval '3 days' where id = ?`,
      [future.id],
    );
    expect(await ok(c.get(`/projects/${project.id}/lab/status`))).toMatchObject({ occupied: 2, stale: 1 });
    // A project without equipment has an empty tree.
    expect(await ok(c.get(`/projects/${other.id}/lab/status`))).toMatchObject({
      occupied: 0,
      stale: 0,
      free: 0,
      out_of_commission: 0,
    });
  });
});

describe('lab status with several running measurements on a channel', () => {
  const showsAStartedRunTitle =
    'shows a started run before one booked for later, then a fresh one; occupied when any is ' +
    'fresh; the template names the protocol';
  it(showsAStartedRunTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { project, cycler, channels, instance } = await labFixture(c, { channels: 4 });
    const [a, b, d, e] = channels;
    const hours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
    const staleSql = `update cell_measurements set data_updated_at = now() - interval '30 hours' where id = ?`;
    const template = await ok(
      c.post('/protocols/parse-to-template', {
        protocol_experiment: { protocol: 'Discharge at 1C until 2.5 V', name: '1C' },
        project_id: project.id,
        experiment_parameters: {},
      }),
    );
    const templateName = (await sql(`select name from experiment_templates where id = ?`, [template.template_id]))[0]!
      .name;
    // a: running now (fresh, protocol only by template) and a stale booking for tomorrow.
    const nowA = await measurement(c, instance.id, {
      channel_id: a.id,
      end_time: hours(2),
      protocol_id: template.template_id,
    });
    const laterA = await measurement(c, instance.id, { channel_id: a.id, start_time: hours(24) });
    await sql(staleSql, [laterA.id]);
    // b: running now but stale, and a fresh booking: occupied, still showing the run going on.
    const nowB = await measurement(c, instance.id, {
      channel_id: b.id,
      end_time: hours(2),
      protocol: 'CCCV 1C',
      protocol_id: template.template_id,
    });
    await measurement(c, instance.id, { channel_id: b.id, start_time: hours(24) });
    await sql(staleSql, [nowB.id]);
    // d: two bookings, the later one stale: the fresh one shows.
    const soonD = await measurement(c, instance.id, { channel_id: d.id, start_time: hours(24), end_time: hours(30) });
    const laterD = await measurement(c, instance.id, { channel_id: d.id, start_time: hours(48) });
    await sql(staleSql, [laterD.id]);
    // e: every run stale: stale.
    const nowE = await measurement(c, instance.id, { channel_id: e.id, end_time: hours(2) });
    const laterE = await measurement(c, instance.id, { channel_id: e.id, start_time: hours(24) });
    await sql(`update cell_measurements set data_updated_at = now() - interval '30 hours' where id in (?, ?)`, [
      nowE.id,
      laterE.id,
    ]);

    const tree = await ok(c.get(`/projects/${project.id}/lab/status`));
    expect(tree).toMatchObject({ occupied: 3, stale: 1, free: 0, out_of_commission: 0 });
    const A = tree.sites[0].cyclers.find((x: { id: string }) => x.id === cycler.id);
    const byName = Object.fromEntries(A.channels.map((ch: { name: string }) => [ch.name, ch]));
    expect(byName[a.name]).toMatchObject({
      state: 'occupied',
      measurement: { id: nowA.id, protocol_name: templateName },
    });
    expect(byName[b.name]).toMatchObject({ state: 'occupied', measurement: { id: nowB.id, protocol_name: 'CCCV 1C' } });
    expect(byName[d.name]).toMatchObject({ state: 'occupied', measurement: { id: soonD.id, protocol_name: null } });
    expect(byName[e.name]).toMatchObject({ state: 'stale', measurement: { id: nowE.id } });
  });
});

describe('search', () => {
  const findsEveryIndexedKindTitle =
    'finds every indexed kind by prefix and substring, ranked, within the organization and ' + 'readable projects';
  it(findsEveryIndexedKindTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = await ok(c.post('/projects', { name: 'Zebrafish project' }), 201);
    const site = await ok(c.post('/sites', { name: 'Zebra hall', location: 'north' }), 201);
    const cycler = await ok(
      c.post(`/sites/${site.id}/cyclers`, { name: 'Zebra-01', project_id: project.id, manufacturer: 'Neware' }),
      201,
    );
    const channel = await ok(c.post(`/cyclers/${cycler.id}/channels`, { name: 'zebra channel' }), 201);
    const spec = await ok(c.post('/cell_specifications', { project_id: project.id, name: 'Zebra' }), 201);
    const cell = await ok(c.post(`/cell_specifications/${spec.id}/cell_instances`, { name: 'zebracell-7' }), 201);
    const m = await measurement(c, cell.id, { name: 'zebra OCV' });

    const res = await ok(c.get('/search?q=zebra'));
    expect(res).toMatchObject({ query: 'zebra', total: 7, limit: 25, offset: 0 });
    expect(res.results[0]).toEqual({
      id: spec.id,
      entity_type: 'cell_specification',
      name: 'Zebra',
      project_id: project.id,
      parent_id: null,
    });
    const types = Object.fromEntries(
      res.results.map((r: { entity_type: string; id: string }) => [r.entity_type, r.id]),
    );
    expect(types).toEqual({
      project: project.id,
      site: site.id,
      cycler: cycler.id,
      channel: channel.id,
      cell_specification: spec.id,
      cell_instance: cell.id,
      cell_measurement: m.id,
    });
    expect(res.results.find((r: { id: string }) => r.id === cycler.id)).toMatchObject({
      parent_id: site.id,
      project_id: project.id,
    });
    expect(res.results.find((r: { id: string }) => r.id === site.id).project_id).toBeNull();
    // Prefix of a later word, and of a detail (manufacturer).
    expect((await ok(c.get('/search?q=OC'))).results.map((r: { id: string }) => r.id)).toEqual([m.id]);
    expect((await ok(c.get('/search?q=newa'))).results.map((r: { id: string }) => r.id)).toEqual([cycler.id]);
    // Substring inside a word.
    expect((await ok(c.get('/search?q=bracel'))).results.map((r: { id: string }) => r.id)).toEqual([cell.id]);
    const filtered = await ok(c.get('/search?q=zebra&entity_types=cycler&entity_types=site'));
    expect(filtered.results.map((r: { entity_type: string }) => r.entity_type).sort()).toEqual(['cycler', 'site']);
    expect((await ok(c.get('/search?q=zebra&entity_types=cycler,channel'))).total).toBe(2);
    expect((await ok(c.get(`/search?q=zebra&project_id=${project.id}`))).total).toBe(6);
    const paged = await ok(c.get('/search?q=zebra&limit=2&offset=6'));
    expect(paged).toMatchObject({ total: 7, limit: 2, offset: 6 });
    expect(paged.results).toHaveLength(1);

    for (let i = 0; i < 3; i++) await ok(c.post(`/cyclers/${cycler.id}/channels`, { name: `zebra extra ${i}` }), 201);
    const capped = await ok(c.get('/search?q=zebra&entity_types=channel&per_type=2'));
    expect(capped).toMatchObject({ total: 2 });

    expect((await c.get('/search?q=z')).status).toBe(422);
    expect((await c.get('/search?q=%20%20')).status).toBe(400);
    expect((await c.get('/search')).status).toBe(400);
    const badType = await c.get('/search?q=zebra&entity_types=unicorn');
    expect(badType.status).toBe(422);
    expect(badType.body.detail[0].loc).toEqual(['query', 'entity_types']);
    expect((await ok(c.get('/search?q=zebra&entity_types=model'))).total).toBe(0);

    // Another organization sees none of it; a member without a project role sees only the site.
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await ok(stranger.get('/search?q=zebra'))).total).toBe(0);
    const member = await newMember(api.orm, org.organization_id);
    const seen = await ok(client(api.url, member.api_key).get('/search?q=zebra'));
    expect(seen.results.map((r: { id: string }) => r.id)).toEqual([site.id]);

    // Renames follow in the index; deletes leave it.
    await ok(c.patch(`/cyclers/${cycler.id}`, { name: 'Okapi-01' }));
    expect((await ok(c.get('/search?q=okapi'))).results[0].id).toBe(cycler.id);
    await ok(c.delete(`/sites/${site.id}`));
    expect((await ok(c.get('/search?q=zebra&entity_types=channel,cycler,site'))).total).toBe(0);
  });
});

describe('roles and tenants on every inventory route', () => {
  const viewersReadAndCannotTitle =
    'Viewers read and cannot write, members without a role neither, Contributors write, ' +
    'other organizations get 403 and no data';
  it(viewersReadAndCannotTitle, async () => {
    const org = await newOrg(api.orm);
    const admin = client(api.url, org.api_key);
    const f = await labFixture(admin);
    const m = await measurement(admin, f.instance.id);
    const viewerUser = await newMember(api.orm, org.organization_id);
    const contributorUser = await newMember(api.orm, org.organization_id);
    const noRoleUser = await newMember(api.orm, org.organization_id);
    await ok(
      admin.post(`/projects/${f.project.id}/members`, { user_id: viewerUser.user_id, project_role_id: VIEWER }),
      201,
    );
    await ok(
      admin.post(`/projects/${f.project.id}/members`, {
        user_id: contributorUser.user_id,
        project_role_id: CONTRIBUTOR,
      }),
      201,
    );
    const viewer = client(api.url, viewerUser.api_key);
    const contributor = client(api.url, contributorUser.api_key);
    const noRole = client(api.url, noRoleUser.api_key);
    const outsider = client(api.url, (await newOrg(api.orm)).api_key);
    const ch = f.channels[0].id;

    const reads = [
      `/sites/${f.site.id}`,
      `/sites/${f.site.id}/cyclers`,
      `/cyclers/${f.cycler.id}`,
      `/cyclers/${f.cycler.id}/service_events`,
      `/cyclers/${f.cycler.id}/channels`,
      `/channels/${ch}`,
      `/channels/${ch}/incidents`,
      `/cell_specifications/${f.spec.id}`,
      `/cell_specifications/${f.spec.id}/cell_instances`,
      `/cell_instances/${f.instance.id}`,
      `/cell_instances/${f.instance.id}/cell_measurements`,
      `/cell_measurements/${m.id}`,
      `/projects/${f.project.id}/lab/status`,
      `/projects/${f.project.id}/lab/watched`,
    ];
    for (const path of reads) {
      expect((await viewer.get(path)).status, `viewer GET ${path}`).toBe(200);
      const out = await outsider.get(path);
      expect(out.status, `outsider GET ${path}`).toBe(403);
      expect(out.text).not.toContain(f.project.name);
      if (!path.startsWith('/sites/')) expect((await noRole.get(path)).status, `no role GET ${path}`).toBe(403);
    }
    expect((await noRole.get(`/sites/${f.site.id}`)).body.cycler_ids).toEqual([]);
    for (const [path, total] of [
      ['/sites', 1],
      ['/cyclers', 1],
      ['/channels', 2],
      ['/cell_specifications', 1],
    ] as const) {
      expect((await ok(viewer.get(path))).total, `viewer list ${path}`).toBe(total);
      expect((await ok(outsider.get(path))).total, `outsider list ${path}`).toBe(0);
    }
    expect((await ok(noRole.get('/cyclers'))).total).toBe(0);
    // Every write, for each role: [method, path, body, needs only read (watching)]. The table runs in this
    // order for the Contributor, whose writes all succeed, so deletes come last and children first.
    const writes: [string, string, unknown?, boolean?][] = [
      ['POST', '/sites', { name: uniq('Role site') }],
      ['PATCH', `/sites/${f.site.id}`, { name: uniq('renamed') }],
      ['POST', `/sites/${f.site.id}/cyclers`, { name: 'new', project_id: f.project.id }],
      ['PATCH', `/cyclers/${f.cycler.id}`, { name: 'renamed' }],
      ['POST', `/cyclers/${f.cycler.id}/service_events`, { event_type: 'repair' }],
      ['POST', `/cyclers/${f.cycler.id}/service_events/complete`, {}],
      ['POST', `/cyclers/${f.cycler.id}/channels`, { name: 'new' }],
      ['PATCH', `/channels/${ch}`, { notes: 'x' }],
      ['POST', '/cell_specifications', { project_id: f.project.id, name: 'new' }],
      ['PATCH', `/cell_specifications/${f.spec.id}`, { name: 'renamed' }],
      ['POST', `/cell_specifications/${f.spec.id}/cell_instances`, { name: 'new' }],
      ['PATCH', `/cell_instances/${f.instance.id}`, { name: 'renamed' }],
      ['POST', `/cell_instances/${f.instance.id}/cell_measurements/create`, { name: 'new', properties: {} }],
      ['PATCH', `/cell_measurements/${m.id}`, { name: 'renamed', channel_id: ch }],
      ['POST', `/cell_measurements/${m.id}/watch`, undefined, true],
      ['DELETE', `/cell_measurements/${m.id}/watch`, undefined, true],
      ['DELETE', `/cell_measurements/${m.id}`],
      ['DELETE', `/channels/${ch}`],
      ['DELETE', `/cell_instances/${f.instance.id}`],
      ['DELETE', `/cell_specifications/${f.spec.id}`],
      ['DELETE', `/cyclers/${f.cycler.id}`],
      ['DELETE', `/sites/${f.site.id}`],
    ];
    for (const [method, path, body, readOnly] of writes) {
      const label = `${method} ${path}`;
      expect((await viewer.call(method, path, body)).status, `viewer ${label}`).toBe(readOnly ? 200 : 403);
      expect((await noRole.call(method, path, body)).status, `no role ${label}`).toBe(403);
      if (path === '/sites') continue; // another organization's owner adds sites to its own organization
      const out = await outsider.call(method, path, body);
      expect(out.status, `outsider ${label}`).toBe(403);
      expect(out.text).not.toContain(f.project.name);
    }
    // Nothing changed.
    expect((await ok(admin.get(`/sites/${f.site.id}`))).name).toBe(f.site.name);
    expect((await ok(admin.get(`/cyclers/${f.cycler.id}`))).name).toBe(f.cycler.name);
    expect((await ok(admin.get(`/cell_measurements/${m.id}`))).name).toBe(m.name);
    expect((await ok(admin.get(`/cyclers/${f.cycler.id}/channels`))).total).toBe(2);
    expect((await ok(admin.get(`/cyclers/${f.cycler.id}/service_events`))).total).toBe(0);
    expect((await ok(admin.get('/sites'))).total).toBe(1);
    expect((await ok(admin.get('/cell_specifications'))).total).toBe(1);

    // A Contributor writes the project's equipment and cells, and may add sites.
    for (const [method, path, body] of writes) {
      const res = await contributor.call(method, path, body);
      expect(res.status, `contributor ${method} ${path}: ${res.text}`).toBe(
        method === 'POST' && !path.endsWith('/watch') && !path.endsWith('/complete') ? 201 : 200,
      );
    }
    expect((await admin.get(`/sites/${f.site.id}`)).status).toBe(404);
  });
});
