// Cyclers: calibration due dates, listing and filtering, service events, and deletes refused
// while a measurement runs on their equipment.
import { expect, it } from 'vitest';
import { client, newOrg, type TestApi } from '../harness.ts';
import { labFixture, measurement, ok } from '../inventoryHelpers.ts';

export function cyclerCases(api: TestApi) {
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
}
