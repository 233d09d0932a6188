// Sites, cyclers, channels, service events and incidents against the real API and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrg, startApi, type TestApi } from './harness.ts';
import { labFixture, measurement, ok, oneCreated } from './inventoryHelpers.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

describe('sites', () => {
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
});

describe('cyclers', () => {
  it('computes calibration_due_at and keeps it current on every change', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler } = await labFixture(c);
    expect(cycler.calibration_due_at).toBeNull();
    const a = await ok(
      c.patch(`/cyclers/${cycler.id}`, { last_calibrated_at: '2026-01-01T00:00:00Z', calibration_interval_days: 30 }),
    );
    expect(a.calibration_due_at).toBe('2026-01-31T00:00:00.000Z');
    const b = await ok(c.patch(`/cyclers/${cycler.id}`, { calibration_interval_days: 10 }));
    expect(b.calibration_due_at).toBe('2026-01-11T00:00:00.000Z');
    const d = await ok(c.patch(`/cyclers/${cycler.id}`, { calibration_interval_days: null }));
    expect(d.calibration_due_at).toBeNull();
  });

  it('GET /cyclers: q, column filters, ranges, sort with id tie-break, pagination bounds', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = await ok(c.post('/projects', { name: 'Cyclers' }), 201);
    const other = await ok(c.post('/projects', { name: 'Other' }), 201);
    const site = await ok(c.post('/sites', { name: 'Main' }), 201);
    const site2 = await ok(c.post('/sites', { name: 'Annex' }), 201);
    const make = (siteId: string, body: Record<string, unknown>) => ok(c.post(`/sites/${siteId}/cyclers`, body), 201);
    const a = await make(site.id, {
      name: 'Galaxy-01',
      project_id: project.id,
      manufacturer: 'Arbin',
      hostname: 'arbin-01.lab',
      last_calibrated_at: '2026-01-01T00:00:00Z',
      calibration_interval_days: 30,
    });
    const b = await make(site.id, {
      name: 'Galaxy-02',
      project_id: project.id,
      manufacturer: 'Maccor',
      last_calibrated_at: '2026-03-01T00:00:00Z',
      calibration_interval_days: 30,
    });
    const d = await make(site2.id, {
      name: 'Nebula',
      project_id: other.id,
      manufacturer: 'Arbin',
      model: 'galaxy edition',
    });
    const names = (body: { items: { name: string }[] }) => body.items.map((i) => i.name);

    expect(names(await ok(c.get('/cyclers?q=alax&order_by=name')))).toEqual(['Galaxy-01', 'Galaxy-02']); // substring
    // prefix of a detail word
    expect(names(await ok(c.get('/cyclers?q=gal&order_by=name')))).toEqual(['Galaxy-01', 'Galaxy-02', 'Nebula']);
    expect(names(await ok(c.get(`/cyclers?q=galaxy&manufacturer=ilike.%25arb%25&project_id=${project.id}`)))).toEqual([
      'Galaxy-01',
    ]);
    expect(names(await ok(c.get('/cyclers?manufacturer=eq.Arbin&order_by=name&order=desc')))).toEqual([
      'Nebula',
      'Galaxy-01',
    ]);
    expect(names(await ok(c.get(`/cyclers?site_id=${site2.id}`)))).toEqual(['Nebula']);
    expect(names(await ok(c.get(`/sites/${site.id}/cyclers?order_by=calibration_due_at&order=desc`)))).toEqual([
      'Galaxy-02',
      'Galaxy-01',
    ]);
    expect(names(await ok(c.get('/cyclers?calibration_due_at_lt=2026-02-15T00:00:00Z')))).toEqual(['Galaxy-01']);
    expect(names(await ok(c.get('/cyclers?last_calibrated_at=gte.2026-02-01T00:00:00Z')))).toEqual(['Galaxy-02']);
    const minuteAgo = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    const minuteAhead = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    const since = await ok(c.get(`/cyclers?created_at_gt=${minuteAgo}&created_at_lt=${minuteAhead}`));
    expect(since.total).toBe(3);
    const page = await ok(c.get('/cyclers?limit=1&offset=1&order_by=manufacturer'));
    expect(page).toMatchObject({ count: 1, total: 3 });
    // Two Arbin cyclers: the tie-break on id orders them the same way every time.
    const arbin = [a, d].map((x) => x.id).sort();
    expect((await ok(c.get('/cyclers?order_by=manufacturer&limit=2'))).items.map((x: { id: string }) => x.id)).toEqual(
      arbin,
    );
    expect((await ok(c.get('/cyclers?limit=1000'))).count).toBe(3);
    for (const [q, loc] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['offset=-1', 'offset'],
      ['order_by=ip_address', 'order_by'],
      ['manufacturer=ilike.', 'manufacturer'],
      ['manufacturer=gte.x', 'manufacturer'],
      ['created_at=gte.notadate', 'created_at'],
      ['calibration_due_at_lt=soon', 'calibration_due_at_lt'],
      ['site_id=ilike.x', 'site_id'],
      ['order=sideways', 'order'],
    ]) {
      const res = await c.get(`/cyclers?${q}`);
      expect(res.status, q).toBe(422);
      expect(
        res.body.detail.map((i: { loc: unknown[] }) => i.loc),
        q,
      ).toContainEqual(['query', loc]);
    }
    const bad = await c.get('/cyclers?order_by=ip_address');
    expect(bad.body.detail[0].msg).toContain('calibration_due_at');
    expect(b.site_id).toBe(site.id);
  });

  const serviceEventsOneOpenTitle =
    'service events: one open at a time, none while a measurement runs, completing a ' +
    'calibration updates the cycler';
  it(serviceEventsOneOpenTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler, channels, instance } = await labFixture(c);
    await ok(c.patch(`/cyclers/${cycler.id}`, { calibration_interval_days: 90 }));
    const ev = await ok(
      c.post(`/cyclers/${cycler.id}/service_events`, {
        event_type: 'calibration',
        notes: 'yearly',
        started_at: '2026-04-30T00:00:00Z',
      }),
      201,
    );
    expect(ev).toMatchObject({ cycler_id: cycler.id, event_type: 'calibration', status: 'open' });
    const again = await c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'repair' });
    expect(again.status).toBe(409);
    expect(again.body.detail.existing_id).toBe(ev.id);
    // Completing before the start is refused and changes nothing.
    const early = await c.post(`/cyclers/${cycler.id}/service_events/complete`, {
      completed_at: '2026-04-29T23:59:59Z',
    });
    expect(early.status).toBe(422);
    expect(early.body.detail[0]).toMatchObject({ loc: ['body', 'completed_at'] });
    expect(await ok(c.get(`/cyclers/${cycler.id}/service_events`))).toMatchObject({
      items: [{ id: ev.id, status: 'open', completed_at: null }],
    });
    expect((await ok(c.get(`/cyclers/${cycler.id}`))).last_calibrated_at).toBeNull();
    const done = await ok(
      c.post(`/cyclers/${cycler.id}/service_events/complete`, { completed_at: '2026-05-01T00:00:00Z', notes: 'ok' }),
    );
    expect(done).toMatchObject({
      id: ev.id,
      status: 'completed',
      completion_notes: 'ok',
      completed_at: '2026-05-01T00:00:00.000Z',
    });
    expect(done.cycler).toMatchObject({
      last_calibrated_at: '2026-05-01T00:00:00.000Z',
      calibration_due_at: '2026-07-30T00:00:00.000Z',
    });
    // With none open, completing records a calibration done now, in one call (as the Python client does).
    const logged = await ok(c.post(`/cyclers/${cycler.id}/service_events/complete`, { notes: 'spot check' }));
    expect(logged).toMatchObject({
      event_type: 'calibration',
      status: 'completed',
      notes: 'spot check',
      scheduled_for: null,
    });
    expect(logged.performed_at).toBe(logged.completed_at);
    expect(logged.cycler.last_calibrated_at).toBe(logged.completed_at);
    await measurement(c, instance.id, { channel_id: channels[0].id });
    expect((await c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'firmware' })).status).toBe(409);
    const list = await ok(c.get(`/cyclers/${cycler.id}/service_events?event_type=eq.calibration`));
    expect(list).toMatchObject({ count: 2, total: 2 });
    expect((await c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'teatime' })).status).toBe(422);
  });

  it('a cycler in service takes no running measurement, but a finished one may be recorded on it', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler, channels, instance } = await labFixture(c);
    const ev = await ok(c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'repair' }), 201);
    const refused = await c.post(`/cell_instances/${instance.id}/cell_measurements/create`, {
      name: 'during repair',
      properties: {},
      start_time: new Date().toISOString(),
      channel_id: channels[0].id,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatchObject({
      cycler_id: cycler.id,
      service_event_id: ev.id,
      channel_id: channels[0].id,
    });
    const loose = await measurement(c, instance.id);
    const patch = await c.patch(`/cell_measurements/${loose.id}`, { channel_id: channels[1].id });
    expect(patch.status).toBe(409);
    expect((await ok(c.get(`/cell_measurements/${loose.id}`))).channel_id).toBeNull();
    const past = { start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-02T00:00:00Z' };
    expect((await measurement(c, instance.id, { ...past, channel_id: channels[0].id })).channel_id).toBe(
      channels[0].id,
    );
    await ok(c.post(`/cyclers/${cycler.id}/service_events/complete`, {}));
    expect((await ok(c.patch(`/cell_measurements/${loose.id}`, { channel_id: channels[1].id }))).channel_id).toBe(
      channels[1].id,
    );
  });

  it('an attach racing the opening of a service event: exactly one of them succeeds', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler, channels, instance } = await labFixture(c);
    for (let i = 0; i < 12; i++) {
      const m = await measurement(c, instance.id);
      const [attach, event] = await Promise.all([
        c.patch(`/cell_measurements/${m.id}`, { channel_id: channels[i % channels.length].id }),
        c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'other' }),
      ]);
      const statuses = [attach.status, event.status];
      expect(
        statuses.filter((s) => s === 200 || s === 201),
        `${attach.text} ${event.text}`,
      ).toHaveLength(1);
      expect(statuses).toContain(409);
      // Back to neither before the next round.
      if (attach.status === 200)
        await ok(c.patch(`/cell_measurements/${m.id}`, { end_time: new Date().toISOString() }));
      else await ok(c.post(`/cyclers/${cycler.id}/service_events/complete`, {}));
    }
  });

  it('refuses deleting a cycler with a running measurement, then deletes it with its channels', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler, channels, instance } = await labFixture(c);
    const m = await measurement(c, instance.id, { channel_id: channels[1].id });
    expect((await c.delete(`/cyclers/${cycler.id}`)).status).toBe(409);
    await ok(c.patch(`/cell_measurements/${m.id}`, { channel_id: null }));
    expect((await c.delete(`/cyclers/${cycler.id}`)).status).toBe(200);
    expect((await c.get(`/channels/${channels[0].id}`)).status).toBe(404);
    expect((await ok(c.get(`/cell_measurements/${m.id}`))).channel_id).toBeNull();
  });

  const refusesDeletingAProjectTitle =
    'refuses deleting a project while a measurement runs on its equipment, as for its site, ' + 'cycler and channels';
  it(refusesDeletingAProjectTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { project, cycler, channels, instance } = await labFixture(c);
    const m = await measurement(c, instance.id, { channel_id: channels[0].id });
    const refused = await c.delete(`/projects/${project.id}`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({
      error_code: 'CONFLICT',
      detail: { measurement_id: m.id, channel_id: channels[0].id },
    });
    expect((await c.get(`/cyclers/${cycler.id}`)).status).toBe(200);
    expect((await c.get(`/cell_measurements/${m.id}`)).status).toBe(200);
    await ok(c.patch(`/cell_measurements/${m.id}`, { end_time: new Date().toISOString() }));
    expect((await c.delete(`/projects/${project.id}`)).status).toBe(200);
    expect((await c.get(`/cyclers/${cycler.id}`)).status).toBe(404);
  });
});

describe('equipment changes racing attaches', () => {
  const sql = (q: string, params: unknown[] = []) => api.orm.em.fork().execute(q, params);
  type Reply = { status: number; body: any; text: string };

  /**
   * Fires `change` and an attach of a fresh running measurement to every channel, the attaches
   * spread over a few milliseconds around it so that some land in each phase of the change.
   */
  async function race(
    c: ReturnType<typeof client>,
    channels: { id: string }[],
    instanceId: string,
    change: () => Promise<Reply>,
  ) {
    const runs = await Promise.all(channels.map(() => measurement(c, instanceId)));
    const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const [changed, ...replies] = await Promise.all([
      change(),
      ...runs.map(async (m, i) => {
        await later(i * 2);
        return c.patch(`/cell_measurements/${m.id}`, { channel_id: channels[i]!.id });
      }),
    ]);
    const attached = runs.filter((_, i) => replies[i]!.status === 200);
    return { runs, changed: changed!, replies, attached };
  }

  /** No running measurement was detached by a cascade, nor sits on another project's channel. */
  async function consistent(runs: { id: string }[], attachedIds: string[]) {
    const rows = await sql(
      `select m.id, m.channel_id, m.project_id, ch.project_id as channel_project_id
      from cell_measurements m left join channels ch on ch.id = m.channel_id
        where m.id in (${runs.map(() => '?').join(', ')})`,
      runs.map((r) => r.id),
    );
    for (const r of rows) {
      if (attachedIds.includes(r.id))
        expect(r.channel_id, `measurement ${r.id} answered 200 but lost its channel`).not.toBeNull();
      if (r.channel_id) expect(r.channel_project_id).toBe(r.project_id);
    }
  }

  for (const what of ['cycler', 'site'] as const) {
    const deletingTitle =
      `deleting a ${what} while measurements are attached to its channels: ` +
      `each attach fails or the delete is refused`;
    it(deletingTitle, async () => {
      const c = client(api.url, (await newOrg(api.orm)).api_key);
      for (let round = 0; round < 4; round++) {
        const { site, cycler, channels, instance } = await labFixture(c, { channels: 12 });
        const path = what === 'cycler' ? `/cyclers/${cycler.id}` : `/sites/${site.id}`;
        const { runs, changed, replies, attached } = await race(c, channels, instance.id, () => c.delete(path));
        for (const r of replies) expect([200, 422], r.text).toContain(r.status);
        if (changed.status === 200) {
          expect(attached).toEqual([]);
          expect(replies.every((r) => r.body.detail?.[0]?.msg === 'no such channel')).toBe(true);
        } else {
          expect(changed.status, changed.text).toBe(409);
          expect(attached.map((m) => m.id)).toContain(changed.body.detail.measurement_id);
          expect((await c.get(path)).status).toBe(200);
        }
        await consistent(
          runs,
          attached.map((m) => m.id),
        );
      }
    });
  }

  const movingACyclerToTitle =
    'moving a cycler to another project while measurements are attached: each attach fails ' +
    '(400) or the move is refused';
  it(movingACyclerToTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    for (let round = 0; round < 4; round++) {
      const { cycler, channels, instance } = await labFixture(c, { channels: 12 });
      const other = await ok(c.post('/projects', { name: `elsewhere ${round} ${cycler.id}` }), 201);
      const { runs, changed, replies, attached } = await race(c, channels, instance.id, () =>
        c.patch(`/cyclers/${cycler.id}`, { project_id: other.id }),
      );
      for (const r of replies) expect([200, 400], r.text).toContain(r.status);
      if (changed.status === 200) expect(attached).toEqual([]);
      else expect(changed.status, changed.text).toBe(409);
      await consistent(
        runs,
        attached.map((m) => m.id),
      );
    }
  });

  it('channels created while their cycler moves join the project the cycler ends in', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    for (let round = 0; round < 4; round++) {
      const { cycler } = await labFixture(c, { channels: 0 });
      const other = await ok(c.post('/projects', { name: `moved ${round} ${cycler.id}` }), 201);
      const create = (i: number) => c.post(`/cyclers/${cycler.id}/channels`, { name: `R${i}` });
      const replies = await Promise.all([
        create(0),
        create(1),
        create(2),
        c.patch(`/cyclers/${cycler.id}`, { project_id: other.id }),
        create(3),
        create(4),
        create(5),
      ]);
      for (const r of replies) expect([200, 201], r.text).toContain(r.status);
      const rows = await sql(
        `select ch.project_id, c.project_id as cycler_project_id from channels ch join cyclers c on c.id = ch.cycler_id
        where ch.cycler_id = ?`,
        [cycler.id],
      );
      expect(rows).toHaveLength(6);
      for (const r of rows) expect(r.project_id).toBe(other.id);
      expect((await ok(c.get(`/channels?project_id=${other.id}&cycler_id=${cycler.id}`))).total).toBe(6);
    }
  });

  const aMovedCyclerTakesTitle =
    'a moved cycler takes its service events and channel incidents along: they survive ' + 'deleting the old project';
  it(aMovedCyclerTakesTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { project, cycler, channels } = await labFixture(c);
    await ok(c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'calibration' }), 201);
    await ok(c.post(`/cyclers/${cycler.id}/service_events/complete`, {}));
    await ok(
      c.patch(`/channels/${channels[0].id}`, { out_of_commission: true, incident_category: 'hardware_failure' }),
    );
    await ok(c.patch(`/channels/${channels[0].id}`, { out_of_commission: false, incident_category: 'maintenance' }));
    await ok(c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'repair' }), 201);
    const other = await ok(c.post('/projects', { name: `new home ${cycler.id}` }), 201);
    await ok(c.patch(`/cyclers/${cycler.id}`, { project_id: other.id }));
    await ok(c.delete(`/projects/${project.id}`));
    const events = await ok(c.get(`/cyclers/${cycler.id}/service_events`));
    expect(events.total).toBe(2);
    for (const e of events.items) expect(e.project_id).toBe(other.id);
    // The channel's own outage, and those of the two events (the repair's still open).
    const incidents = await ok(c.get(`/channels/${channels[0].id}/incidents?order=asc`));
    expect(incidents.total).toBe(3);
    for (const i of incidents.items) expect(i.project_id).toBe(other.id);
    expect(incidents.items.map((i: { category: string }) => i.category)).toEqual([
      'calibration',
      'hardware_failure',
      'maintenance',
    ]);
    expect(incidents.items.map((i: { resolved_at: string | null }) => i.resolved_at !== null)).toEqual([
      true,
      true,
      false,
    ]);
    // The open event still completes in the new project.
    expect(await ok(c.post(`/cyclers/${cycler.id}/service_events/complete`, {}))).toMatchObject({
      event_type: 'repair',
      status: 'completed',
    });
  });

  const aFinishedRunOnTitle =
    'a finished run on a cycler that has moved to another project cannot go on there (its ' +
    'lab status could not show it)';
  it(aFinishedRunOnTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler, channels, instance } = await labFixture(c);
    const past = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const m = await measurement(c, instance.id, {
      channel_id: channels[0].id,
      start_time: past(10),
      end_time: past(8),
    });
    const other = await ok(c.post('/projects', { name: `moved to ${cycler.id}` }), 201);
    await ok(c.patch(`/cyclers/${cycler.id}`, { project_id: other.id }));
    for (const end_time of [new Date(Date.now() + 86_400_000).toISOString(), null]) {
      const reopened = await c.patch(`/cell_measurements/${m.id}`, { end_time });
      expect(reopened.status, reopened.text).toBe(409);
      expect(reopened.body.detail).toMatchObject({ channel_id: channels[0].id, loc: ['body', 'end_time'] });
    }
    // Correcting the past stays possible; the channel is free in its new project.
    expect((await ok(c.patch(`/cell_measurements/${m.id}`, { end_time: past(7) }))).channel_id).toBe(channels[0].id);
    expect((await ok(c.patch(`/channels/${channels[0].id}`, { name: 'renamed in its new project' }))).name).toBe(
      'renamed in its new project',
    );
  });
});

describe('channels', () => {
  const createsWithLocationInheritingTitle =
    'creates with Location, inheriting project and organization; validates limits; rejects ' +
    'out_of_commission on create';
  it(createsWithLocationInheritingTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const { cycler, project } = await labFixture(c, { channels: 0 });
    const res = await c.post(`/cyclers/${cycler.id}/channels`, {
      name: 'A1',
      max_amps: 5,
      min_volts: 2,
      max_volts: 4.5,
      notes: 'left',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/channels/${res.body.id}`);
    expect(res.body).toMatchObject({
      cycler_id: cycler.id,
      project_id: project.id,
      organization_id: org.organization_id,
      out_of_commission: false,
      created_by: org.user_id,
      created_by_email: org.email,
      max_amps: 5,
      min_volts: 2,
      max_volts: 4.5,
      notes: 'left',
    });
    const ooc = await c.post(`/cyclers/${cycler.id}/channels`, { name: 'A2', out_of_commission: false });
    expect(ooc.status).toBe(400);
    expect(ooc.body.detail.field).toBe('out_of_commission');
    const inverted = await c.post(`/cyclers/${cycler.id}/channels`, { name: 'A3', min_volts: 4, max_volts: 3 });
    expect(inverted.status).toBe(422);
    expect(inverted.body.detail.map((d: { loc: unknown[] }) => d.loc)).toContainEqual(['body', 'min_volts']);
    const amps = await c.post(`/cyclers/${cycler.id}/channels`, { name: 'A4', max_amps: -1 });
    expect(amps.status).toBe(422);
    expect(amps.body.detail[0].loc).toEqual(['body', 'max_amps']);
    // Against the stored value on a partial update.
    const patch = await c.patch(`/channels/${res.body.id}`, { min_volts: 5 });
    expect(patch.status).toBe(422);
    const dup = await c.post(`/cyclers/${cycler.id}/channels`, { name: 'A1' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail.existing_id).toBe(res.body.id);
    expect((await ok(c.get(`/cyclers/${cycler.id}/channels`))).total).toBe(1);
    expect((await ok(c.get(`/channels?cycler_id=${cycler.id}`))).items[0].id).toBe(res.body.id);
    expect((await ok(c.get(`/channels/${res.body.id}`))).min_volts).toBe(2);
  });

  it('refuses a channel on a cycler of another organization', async () => {
    const a = client(api.url, (await newOrg(api.orm)).api_key);
    const b = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler } = await labFixture(a, { channels: 0 });
    const res = await b.post(`/cyclers/${cycler.id}/channels`, { name: 'intruder' });
    expect(res.status).toBe(403);
    expect((await ok(a.get(`/cyclers/${cycler.id}/channels`))).total).toBe(0);
  });

  it('taking out of commission records incidents; refused while a measurement runs; delete refused too', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { channels, instance } = await labFixture(c);
    const [ch1, ch2] = channels;
    const out = await ok(
      c.patch(`/channels/${ch1.id}`, {
        out_of_commission: true,
        incident_category: 'hardware_failure',
        incident_description: 'relay stuck',
      }),
    );
    expect(out.out_of_commission).toBe(true);
    await ok(c.patch(`/channels/${ch1.id}`, { out_of_commission: false, incident_category: 'maintenance' }));
    await ok(c.patch(`/channels/${ch1.id}`, { notes: 'no incident for this' }));
    // An incident without a change of commission would be dropped: 422 at the field, nothing changed.
    const alone = await c.patch(`/channels/${ch1.id}`, { incident_category: 'calibration', notes: 'not this either' });
    expect(alone.status).toBe(422);
    expect(alone.body.detail[0].loc).toEqual(['body', 'incident_category']);
    expect((await ok(c.get(`/channels/${ch1.id}`))).notes).toBe('no incident for this');
    // One outage: out with its cause and notes, resolved when the channel came back.
    const incidents = await ok(c.get(`/channels/${ch1.id}/incidents`));
    expect(incidents.total).toBe(1);
    expect(incidents.items[0]).toMatchObject({
      out_of_commission: true,
      incident_category: 'hardware_failure',
      category: 'hardware_failure',
      description: 'relay stuck',
      notes: 'relay stuck',
      started_at: incidents.items[0].created_at,
    });
    expect(Date.parse(incidents.items[0].resolved_at)).toBeGreaterThanOrEqual(
      Date.parse(incidents.items[0].started_at),
    );
    await measurement(c, instance.id, { channel_id: ch2.id });
    expect((await c.patch(`/channels/${ch2.id}`, { out_of_commission: true })).status).toBe(409);
    // Any setting of a running channel is refused; its notes are not a setting, and an unchanged value changes nothing.
    const limits = await c.patch(`/channels/${ch2.id}`, { max_amps: 50 });
    expect(limits.status).toBe(409);
    expect(limits.body.detail.fields).toEqual(['max_amps']);
    expect((await c.patch(`/channels/${ch2.id}`, { name: 'renamed' })).status).toBe(409);
    await ok(c.patch(`/channels/${ch2.id}`, { notes: 'running fine', name: ch2.name }));
    expect((await c.delete(`/channels/${ch2.id}`)).status).toBe(409);
    expect((await ok(c.get(`/channels/${ch2.id}/incidents`))).total).toBe(0);
    expect((await c.delete(`/channels/${ch1.id}`)).status).toBe(200);
  });
});
