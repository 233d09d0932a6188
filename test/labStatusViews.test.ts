// The lab status in parts, as the board reads a large lab: a summary (counts, no channels) and
// pages of cyclers; each part with its own ETag and 304, all of it agreeing with the whole tree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrg, startApi, type TestApi } from './harness.ts';
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
});
