// The lab status in parts: a summary (counts, no channels), pages of cyclers and the board's grid
// (channels as columns); each part with its own ETag and 304, all of it agreeing with the whole tree.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, newMember, newOrg, startApi, type TestApi } from './harness.ts';
import { revokeApiKey } from '../api/services/bootstrap.ts';
import { labFixture, measurement, ok, uniq } from './inventoryHelpers.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

type Tree = {
  sites: { id: string; cyclers: { id: string; channels: { id: string; state: string }[]; [k: string]: unknown }[] }[];
  [k: string]: unknown;
};
const cyclersOf = (t: Tree) => t.sites.flatMap((s) => s.cyclers);
const COUNTS = ['occupied', 'stale', 'free', 'out_of_commission'] as const;

describe('lab status views', () => {
  it('a summary and pages of cyclers add up to the whole tree; each has its own ETag and 304', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const lab = await labFixture(c, { channels: 3 });
    const base = `/projects/${lab.project.id}/lab/status`;
    // Three more cyclers of two channels each, at a second site.
    const site2 = await ok(c.post('/sites', { name: uniq('Annex') }), 201);
    const more = [];
    for (const name of ['A', 'B', 'C']) {
      const cy = await ok(c.post(`/sites/${site2.id}/cyclers`, { name, project_id: lab.project.id }), 201);
      for (const ch of ['1', '2']) more.push(await ok(c.post(`/cyclers/${cy.id}/channels`, { name: ch }), 201));
    }
    await measurement(c, lab.instance.id, { channel_id: lab.channels[0].id });
    await measurement(c, lab.instance.id, { channel_id: more[3].id });
    await ok(c.patch(`/channels/${more[5].id}`, { out_of_commission: true }));

    const whole: Tree = await ok(c.get(base));
    const summary: Tree = await ok(c.get(`${base}?view=summary`));
    expect(summary).toMatchObject({ occupied: 2, free: 6, stale: 0, out_of_commission: 1 });
    for (const k of COUNTS) expect(summary[k]).toBe(whole[k]);
    // Same sites and cyclers in the same order, each with its counts, but no channels.
    expect(summary.sites.map((s) => s.id)).toEqual(whole.sites.map((s) => s.id));
    expect(cyclersOf(summary).map((cy) => cy.id)).toEqual(cyclersOf(whole).map((cy) => cy.id));
    cyclersOf(summary).forEach((cy, i) => {
      const full = cyclersOf(whole)[i]!;
      expect(cy.channels).toEqual([]);
      for (const k of [...COUNTS, 'channel_count', 'name', 'calibration_due_at']) expect(cy[k], k).toEqual(full[k]);
    });

    // Pages of two cyclers: together the whole tree's cyclers, channels and counts.
    const pages: Tree[] = [
      await ok(c.get(`${base}?cycler_offset=0&cycler_limit=2`)),
      await ok(c.get(`${base}?cycler_offset=2&cycler_limit=2`)),
      await ok(c.get(`${base}?cycler_offset=4&cycler_limit=2`)),
    ];
    expect(pages.flatMap(cyclersOf)).toEqual(cyclersOf(whole));
    expect(cyclersOf(pages[2]!)).toEqual([]);
    for (const k of COUNTS) expect(pages.reduce((n, p) => n + (p[k] as number), 0)).toBe(whole[k]);

    // Each view its own tag; a matching one is 304 for that view only.
    const tags = await Promise.all(
      ['', '?view=summary', '?cycler_offset=0&cycler_limit=2', '?cycler_offset=2&cycler_limit=2'].map(async (q) =>
        (await c.get(`${base}${q}`)).headers.get('etag')!,
      ),
    );
    expect(new Set(tags).size).toBe(4);
    const summaryTag = tags[1]!;
    expect((await c.get(`${base}?view=summary`, { 'If-None-Match': summaryTag })).status).toBe(304);
    expect((await c.get(base, { 'If-None-Match': summaryTag })).status).toBe(200);
    // A change moves every tag.
    await ok(c.patch(`/channels/${more[0].id}`, { out_of_commission: true }));
    const after = await c.get(`${base}?view=summary`, { 'If-None-Match': summaryTag });
    expect(after.status).toBe(200);
    expect(after.body.out_of_commission).toBe(2);
  });

  it("the grid view has the full view's sites, cyclers, per-channel states, flags and counts, as columns", async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 4 });
    const base = `/projects/${lab.project.id}/lab/status`;
    const site2 = await ok(c.post('/sites', { name: uniq('Annex') }), 201);
    const cy = await ok(c.post(`/sites/${site2.id}/cyclers`, { name: 'B', project_id: lab.project.id }), 201);
    const more = [];
    for (const ch of ['2', '1', '10']) more.push(await ok(c.post(`/cyclers/${cy.id}/channels`, { name: ch }), 201));
    const [ch1, ch2, ch3, ch4] = lab.channels;
    // Occupied and watched; stale (its record last updated long ago); out of commission; reserved; in service.
    const watchedRun = await measurement(c, lab.instance.id, { channel_id: ch1.id });
    await ok(c.post(`/cell_measurements/${watchedRun.id}/watch`));
    const staleRun = await measurement(c, lab.instance.id, { channel_id: ch2.id });
    const sql = (q: string, params: unknown[]) => api.orm.em.fork().execute(q, params);
    await sql(
      `update cell_measurements set updated_at = now() - interval '30 days', data_updated_at = null where id = ?`,
      [staleRun.id],
    );
    await ok(c.patch(`/channels/${ch3.id}`, { out_of_commission: true }));
    const hour = 3600_000;
    const at = (h: number) => new Date(Math.ceil(Date.now() / hour) * hour + h * hour).toISOString();
    await ok(c.patch(`/channels/${more[0].id}`, { service_scheduled_at: at(48), service_scheduled_until: at(50) }));
    const template = await ok(
      c.post('/protocols/parse-to-template', {
        protocol_experiment: { protocol: 'Rest for 1 hour', name: uniq('Rest') },
        project_id: lab.project.id,
        experiment_parameters: {},
      }),
    );
    // Reservations the grid's next start (read in SQL) must pick exactly as the full view's blocks do: the
    // earliest active one, one under way included; not cancelled, completed or past ones; none on a channel out
    // of commission for a fault of its own; a service window before a reservation is not one.
    const plans: [string, string, string, number, number][] = [
      ['reserved', 'scheduled', ch4.id, 5, 7],
      ['later', 'scheduled', ch4.id, 9, 11],
      ['called off', 'cancelled', ch4.id, 1, 2],
      ['after service', 'scheduled', more[0].id, 60, 62],
      ['overdue', 'scheduled', more[1].id, -5, -3],
      ['under way', 'in_progress', more[1].id, -1, 3],
      ['done', 'completed', more[2].id, 20, 21],
      ['on a held channel', 'scheduled', ch3.id, 3, 4],
    ];
    for (const [name, status, channel, from, to] of plans) {
      await sql(
        `insert into planned_measurements (id, organization_id, project_id, name, status, protocol_id,
          cell_specification_id, channel_id, planned_start_time, planned_end_time, requested_by, created_by)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          org.organization_id,
          lab.project.id,
          name,
          status,
          template.template_id,
          lab.spec.id,
          channel,
          at(from),
          at(to),
          org.user_id,
          org.user_id,
        ],
      );
    }

    const whole: Tree = await ok(c.get(base));
    const res = await c.get(`${base}?view=grid`);
    expect(res.status).toBe(200);
    const grid = res.body;
    expect(grid).toMatchObject({ occupied: 1, stale: 1, free: 4, out_of_commission: 1 });
    for (const k of COUNTS) expect(grid[k], k).toBe(whole[k]);
    expect(grid.sites.map((s: { id: string }) => s.id)).toEqual(whole.sites.map((s) => s.id));
    const gridCyclers = grid.sites.flatMap((s: { cyclers: unknown[] }) => s.cyclers);
    expect(gridCyclers.map((g: { id: string }) => g.id)).toEqual(cyclersOf(whole).map((w) => w.id));
    let reserved = 0;
    gridCyclers.forEach((g: Record<string, any>, i: number) => {
      const full = cyclersOf(whole)[i]! as Record<string, any>;
      for (const k of [...COUNTS, 'channel_count', 'name', 'calibration_due_at', 'service_windows'])
        expect(g[k], k).toEqual(full[k]);
      const cols = g.channels;
      const rows = full.channels.map((ch: Record<string, any>) => ({
        id: ch.id,
        name: ch.name,
        state: ch.state,
        next_reservation_start: ch.next_reservation?.planned_start_time ?? null,
        service_scheduled_at: ch.service_scheduled_at,
        service_scheduled_until: ch.service_scheduled_until,
        watched: ch.measurement?.watched ?? false,
        max_amps: ch.max_amps,
        min_volts: ch.min_volts,
        max_volts: ch.max_volts,
      }));
      expect(
        cols.id.map((_: string, j: number) => Object.fromEntries(Object.keys(rows[0]).map((k) => [k, cols[k][j]]))),
      ).toEqual(rows);
      reserved += cols.next_reservation_start.filter(Boolean).length;
    });
    expect(reserved).toBe(3);
    const cols = (id: string) => gridCyclers.find((g: { id: string }) => g.id === id).channels;
    expect(cols(lab.cycler.id).next_reservation_start).toEqual([null, null, null, at(5)]);
    expect(cols(cy.id).next_reservation_start).toEqual([at(-1), null, at(60)]);
    expect(cols(lab.cycler.id).watched).toEqual([true, false, false, false]);
    expect(cols(cy.id).name).toEqual(['1', '10', '2']);
    expect(cols(cy.id).service_scheduled_at[2]).toBe(at(48));

    // Its own ETag and 304 (answered early, and through the whole chain), moved by a change; no page with it.
    const tag = res.headers.get('etag')!;
    expect(tag).not.toBe((await c.get(`${base}?view=summary`)).headers.get('etag'));
    for (let i = 0; i < 2; i++) expect((await c.get(`${base}?view=grid`, { 'If-None-Match': tag })).status).toBe(304);
    await ok(c.patch(`/channels/${ch4.id}`, { out_of_commission: true }));
    const after = await c.get(`${base}?view=grid`, { 'If-None-Match': tag });
    expect(after.status).toBe(200);
    expect(after.body.out_of_commission).toBe(2);
    const paged = await c.get(`${base}?view=grid&cycler_offset=1`);
    expect(paged.status).toBe(400);
    expect(paged.body).toMatchObject({ error_code: 'BAD_REQUEST', detail: { field: 'cycler_offset' } });
  });

  it('refuses a summary with a page (400 naming the field) and a page out of range (422)', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const lab = await labFixture(c);
    const base = `/projects/${lab.project.id}/lab/status`;
    const both = await c.get(`${base}?view=summary&cycler_limit=5`);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ error_code: 'BAD_REQUEST', detail: { field: 'cycler_limit' } });
    for (const q of ['cycler_limit=0', 'cycler_limit=1001', 'cycler_offset=-1', 'view=compact']) {
      const res = await c.get(`${base}?${q}`);
      expect(res.status, q).toBe(422);
      expect(JSON.stringify(res.body.detail), q).toContain(q.split('=')[0]);
    }
  });

  it('answers a conditional request of an unchanged lab early with 304; else as the normal path does', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c);
    const base = `/projects/${lab.project.id}/lab/status`;
    for (const q of ['', '?view=summary', '?view=full', '?view=grid', '?cycler_offset=0&cycler_limit=5']) {
      const first = await c.get(`${base}${q}`);
      expect(first.status, q).toBe(200);
      const tag = first.headers.get('etag')!;
      // Twice: the second is answered from the cached key (the first may have filled the cache).
      for (let i = 0; i < 2; i++) {
        const again = await c.get(`${base}${q}`, { 'If-None-Match': tag });
        expect(again.status, q).toBe(304);
        expect(again.headers.get('etag'), q).toBe(tag);
        expect(again.headers.get('cache-control'), q).toBe('private, no-cache');
      }
    }
    // A write moves the tag: the next conditional request is a 200 with the change, then 304 again.
    const tag = (await c.get(base)).headers.get('etag')!;
    await ok(c.patch(`/channels/${lab.channels[0].id}`, { out_of_commission: true }));
    const changed = await c.get(base, { 'If-None-Match': tag });
    expect(changed.status).toBe(200);
    expect(changed.body.out_of_commission).toBe(1);
    const newTag = changed.headers.get('etag')!;
    expect(newTag).not.toBe(tag);
    expect((await c.get(base, { 'If-None-Match': newTag })).status).toBe(304);
    // Answered ahead of the body parsers (the normal path refuses this broken body with a 400).
    const early = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const headers = {
          'X-API-Key': org.api_key,
          'If-None-Match': newTag,
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
        };
        const req = http.request(`${api.url}${base}`, { method: 'GET', headers }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(body);
      });
    expect(await early('{broken')).toBe(304);
    // Bad query with a matching tag: the validator's 422, not a 304.
    expect((await c.get(`${base}?cycler_limit=0`, { 'If-None-Match': newTag })).status).toBe(422);

    // A wrong key, or none, with the current tag: 401 with the normal body.
    const forged = client(api.url, org.api_key.slice(0, -4) + 'AAAA');
    const wrong = await forged.get(base, { 'If-None-Match': newTag });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error_code: 'UNAUTHORIZED' });
    expect((await client(api.url).get(base, { 'If-None-Match': newTag })).status).toBe(401);
    // Another organization's caller, a member without channel:read, an unknown project, with that
    // tag: each the same error as without it.
    const outsider = client(api.url, (await newOrg(api.orm)).api_key);
    const member = client(api.url, (await newMember(api.orm, org.organization_id)).api_key);
    await ok(member.get('/auth/health'));
    const cases = [
      [outsider, base, 403],
      [member, base, 403],
      [c, `/projects/${crypto.randomUUID()}/lab/status`, 404],
    ] as const;
    for (const [who, path, status] of cases) {
      const plain = await who.get(path);
      const conditional = await who.get(path, { 'If-None-Match': newTag });
      expect(plain.status, path).toBe(status);
      expect(conditional.status, path).toBe(status);
      expect(conditional.body, path).toEqual(plain.body);
    }

    // A key revoked in the database, as another API replica would (only the trigger's notification
    // reaches this process): 401 once it arrives, never a 304 after.
    const second = await newMember(api.orm, org.organization_id);
    await api.orm.em
      .fork()
      .execute(`update memberships set role = 'owner' where organization_id = ? and user_id = ?`, [
        org.organization_id,
        second.user_id,
      ]);
    const c2 = client(api.url, second.api_key);
    const tag2 = (await c2.get(base)).headers.get('etag')!;
    expect((await c2.get(base, { 'If-None-Match': tag2 })).status).toBe(304);
    await api.orm.em.fork().execute(`update api_keys set revoked_at = now() where user_id = ?`, [second.user_id]);
    const revoked = await eventually(
      async () => {
        const r = await c2.get(base, { 'If-None-Match': tag2 });
        return r.status === 401 && r;
      },
      { timeoutMs: 5000, intervalMs: 20, what: 'the revoked key refused' },
    );
    expect(revoked.body.message).toMatch(/revoked/);
    for (let i = 0; i < 5; i++) expect((await c2.get(base, { 'If-None-Match': tag2 })).status).toBe(401);
    // Revoked in this process: refused at once.
    expect(await revokeApiKey(api.orm.em.fork(), org.api_key.split('_')[1]!)).toBe(true);
    expect((await c.get(base, { 'If-None-Match': newTag })).status).toBe(401);
  });
});
