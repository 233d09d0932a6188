// Auto-schedule proposals and their all-or-nothing apply, and the lab status looking forward
// (next reservation, next free time, service windows) with its ETag, against the real API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrg, startApi, type TestApi } from './harness.ts';
import { labFixture, measurement, ok, uniq, type Client } from './inventoryHelpers.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const HOUR = 3600_000;

async function fixture(c: Client, channels: number) {
  const lab = await labFixture(c, { channels });
  const template = await ok(
    c.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol: 'Rest for 1 hour', name: uniq('Rest') },
      project_id: lab.project.id,
      experiment_parameters: {},
    }),
  );
  const base = `/projects/${lab.project.id}/planned_measurements`;
  const request = async (hours: number, extra: Record<string, unknown> = {}) =>
    ok(
      c.post(base, {
        name: uniq('Req'),
        protocol_id: template.template_id,
        cell_specification_id: lab.spec.id,
        estimated_duration_seconds: hours * 3600,
        ...extra,
      }),
      201,
    );
  return { ...lab, base, request };
}

describe('auto-schedule', () => {
  const proposesTheEarliestWindowTitle =
    'proposes the earliest window per plan in priority order, deterministically, and applies ' + 'it all or nothing';
  it(proposesTheEarliestWindowTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const f = await fixture(c, 2);
    const [ch1, ch2] = f.channels;
    // CH1 runs a measurement for 3 more hours; CH2 is free.
    const eta = Date.now() + 3 * HOUR;
    await measurement(c, f.instance.id, { channel_id: ch1.id, estimated_end_time: new Date(eta).toISOString() });
    const big = await ok(
      c.post('/cell_specifications', {
        project_id: f.project.id,
        name: uniq('Big'),
        ratings: { max_current: { value: 50, unit: 'A' } },
      }),
      201,
    );
    const p1 = await f.request(2);
    const p2 = await f.request(1, { setup_duration_seconds: 1800 });
    const p3 = await f.request(1, { cell_specification_id: big.id });
    const start = new Date(Date.now() + HOUR).toISOString();
    const ask = () =>
      ok(
        c.post(`${f.base}/auto_schedule_proposal`, {
          planned_measurement_ids: [p1.id, p2.id, p3.id],
          start_after: start,
        }),
      );
    const proposal = await ask();
    const t0 = Math.ceil(Date.parse(start) / 60_000) * 60_000;
    const [a1, a2, a3] = proposal.assignments;
    // p1 takes CH2 at once; p2 (1.5 h with setup) then goes to CH1 when its run ends, before CH2 frees up.
    expect(a1).toMatchObject({
      planned_measurement_id: p1.id,
      planned_measurement_name: p1.name,
      planned_measurement_updated_at: p1.updated_at,
      channel_id: ch2.id,
      channel_name: 'CH2',
      cycler_name: f.cycler.name,
      planned_start_time: new Date(t0).toISOString(),
      planned_end_time: new Date(t0 + 2 * HOUR).toISOString(),
      unscheduled_reason: null,
    });
    expect(a2.channel_id).toBe(ch1.id);
    expect(Date.parse(a2.planned_start_time)).toBe(eta);
    expect(Date.parse(a2.planned_end_time) - Date.parse(a2.planned_start_time)).toBe(1.5 * HOUR);
    expect(a3).toMatchObject({ planned_measurement_id: p3.id, channel_id: null, planned_start_time: null });
    expect(a3.unscheduled_reason).toMatch(/rated/);
    // The same state proposes the same.
    expect((await ask()).assignments).toEqual(proposal.assignments);
    // Nothing was stored by proposing.
    expect((await ok(c.get(`${f.base}?status=requested`))).total).toBe(3);

    // A plan changed since: SCHEDULE_STALE and nothing applied.
    await ok(c.patch(`${f.base}/${p2.id}`, { notes: 'changed' }));
    const staleReply = await c.post(`${f.base}/apply_auto_schedule_proposal`, { assignments: [a1, a2] });
    expect(staleReply.status).toBe(409);
    expect(staleReply.body).toMatchObject({ error_code: 'SCHEDULE_STALE', detail: { planned_measurement_id: p2.id } });
    expect((await ok(c.get(`${f.base}?status=requested`))).total).toBe(3);

    // A fresh proposal applies: both scheduled, in order, by the caller.
    const fresh = await ask();
    const applied = await ok(
      c.post(`${f.base}/apply_auto_schedule_proposal`, { assignments: fresh.assignments.slice(0, 2) }),
    );
    expect(applied.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
      [p1.id, 'scheduled'],
      [p2.id, 'scheduled'],
    ]);
    expect(applied[0]).toMatchObject({
      channel_id: ch2.id,
      planned_start_time: fresh.assignments[0].planned_start_time,
    });
    expect(applied[1]).toMatchObject({
      channel_id: ch1.id,
      planned_start_time: fresh.assignments[1].planned_start_time,
    });
    // Applying the same proposal twice: the plans are no longer requested.
    const again = await c.post(`${f.base}/apply_auto_schedule_proposal`, {
      assignments: fresh.assignments.slice(0, 2),
    });
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe('SCHEDULE_STALE');
  });

  it('is stale when a channel was taken meanwhile, and rolls back what it had applied', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const f = await fixture(c, 1);
    const p1 = await f.request(1);
    const p2 = await f.request(1);
    const proposal = await ok(c.post(`${f.base}/auto_schedule_proposal`, { planned_measurement_ids: [p1.id, p2.id] }));
    expect(proposal.assignments.map((a: { channel_id: string }) => a.channel_id)).toEqual([
      f.channels[0].id,
      f.channels[0].id,
    ]);
    // Someone books the second window by hand.
    const other = await f.request(1);
    await ok(
      c.patch(`${f.base}/${other.id}`, {
        status: 'scheduled',
        channel_id: f.channels[0].id,
        planned_start_time: proposal.assignments[1].planned_start_time,
        planned_end_time: proposal.assignments[1].planned_end_time,
      }),
    );
    const reply = await c.post(`${f.base}/apply_auto_schedule_proposal`, { assignments: proposal.assignments });
    expect(reply.status).toBe(409);
    expect(reply.body.error_code).toBe('SCHEDULE_STALE');
    expect(reply.body.detail.cause.collides_with.id).toBe(other.id);
    expect(await ok(c.get(`${f.base}/${p1.id}`))).toMatchObject({ status: 'requested', channel_id: null });
    // Bad lists: 422 naming the list (distinct ids are the spec's uniqueItems) or the item.
    const dup = await c.post(`${f.base}/auto_schedule_proposal`, { planned_measurement_ids: [p1.id, p1.id] });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0].loc).toEqual(['body', 'planned_measurement_ids']);
    const foreign = await c.post(`${f.base}/auto_schedule_proposal`, {
      planned_measurement_ids: [crypto.randomUUID()],
    });
    expect(foreign.status).toBe(422);
  });
});

describe('lab status looking forward', () => {
  const showsTheNextReservationTitle =
    'shows the next reservation, when each channel is next free, service windows, and ' +
    'answers 304 while nothing changed';
  it(showsTheNextReservationTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const f = await fixture(c, 3);
    const [ch1, , ch3] = f.channels;
    const eta = new Date(Date.now() + 5 * HOUR);
    await measurement(c, f.instance.id, { channel_id: ch1.id, estimated_end_time: eta.toISOString() });
    const plan = await f.request(2);
    const from = eta;
    const to = new Date(Date.now() + 7 * HOUR);
    await ok(
      c.patch(`${f.base}/${plan.id}`, {
        status: 'scheduled',
        channel_id: ch1.id,
        planned_start_time: from.toISOString(),
        planned_end_time: to.toISOString(),
      }),
    );
    await ok(c.patch(`/channels/${ch3.id}`, { out_of_commission: true }));

    const first = await c.get(`/projects/${f.project.id}/lab/status`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const chans = Object.fromEntries(
      first.body.sites[0].cyclers[0].channels.map((ch: { name: string }) => [ch.name, ch]),
    );
    // CH1: the run until its estimate, then the reservation right after: free when that ends.
    expect(chans.CH1.next_reservation).toEqual({
      id: plan.id,
      name: plan.name,
      planned_start_time: from.toISOString(),
      planned_end_time: to.toISOString(),
    });
    expect(chans.CH1.next_free_at).toBe(to.toISOString());
    expect(chans.CH2).toMatchObject({ next_reservation: null, state: 'free' });
    expect(Date.parse(chans.CH2.next_free_at)).toBeLessThanOrEqual(Date.now());
    expect(chans.CH3).toMatchObject({ state: 'out_of_commission', next_free_at: null });
    expect(first.body.sites[0].cyclers[0].service_windows).toEqual([]);

    // Unchanged: 304 with no body, the same tag.
    const again = await c.get(`/projects/${f.project.id}/lab/status`, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Any change the tree shows moves the tag: a channel back in commission, a new service event.
    await ok(c.patch(`/channels/${ch3.id}`, { out_of_commission: false }));
    const changed = await c.get(`/projects/${f.project.id}/lab/status`, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.out_of_commission).toBe(0);
    // Service windows as the client sends them: a cycler's booked visit, a channel's own.
    const cycler2 = await ok(
      c.post(`/sites/${f.site.id}/cyclers`, { name: uniq('Cy'), project_id: f.project.id }),
      201,
    );
    const x1 = await ok(c.post(`/cyclers/${cycler2.id}/channels`, { name: 'X1' }), 201);
    const visit = {
      from: new Date(Date.now() + 24 * HOUR).toISOString(),
      until: new Date(Date.now() + 48 * HOUR).toISOString(),
    };
    const backwards = await c.post(`/cyclers/${cycler2.id}/service_events`, {
      event_type: 'calibration',
      scheduled_for: visit.until,
      scheduled_until: visit.from,
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.detail.field).toBe('scheduled_until');
    const event = await ok(
      c.post(`/cyclers/${cycler2.id}/service_events`, {
        event_type: 'calibration',
        scheduled_for: visit.from,
        scheduled_until: visit.until,
      }),
      201,
    );
    expect(event).toMatchObject({ status: 'open', scheduled_for: visit.from, scheduled_until: visit.until });
    const badWindow = await c.patch(`/channels/${ch3.id}`, {
      service_scheduled_at: visit.until,
      service_scheduled_until: visit.from,
    });
    expect(badWindow.status).toBe(400);
    expect(
      await ok(
        c.patch(`/channels/${ch3.id}`, { service_scheduled_at: visit.from, service_scheduled_until: visit.until }),
      ),
    ).toMatchObject({ service_scheduled_at: visit.from, service_scheduled_until: visit.until });
    const withService = await c.get(`/projects/${f.project.id}/lab/status`, {
      'If-None-Match': changed.headers.get('etag')!,
    });
    expect(withService.status).toBe(200);
    const cy2 = withService.body.sites[0].cyclers.find((x: { id: string }) => x.id === cycler2.id);
    expect(cy2.service_windows).toMatchObject([
      {
        id: event.id,
        event_type: 'calibration',
        status: 'open',
        scheduled_for: visit.from,
        scheduled_until: visit.until,
      },
    ]);
    expect(cy2.channels[0]).toMatchObject({ id: x1.id, next_free_at: visit.until });
    const c3 = withService.body.sites[0].cyclers
      .find((x: { id: string }) => x.id === f.cycler.id)
      .channels.find((ch: { id: string }) => ch.id === ch3.id);
    expect(c3).toMatchObject({ service_scheduled_at: visit.from, service_scheduled_until: visit.until });
    // A plan over the channel's service window: 409 naming it.
    const plan2 = await f.request(1);
    const onService = await c.patch(`${f.base}/${plan2.id}`, {
      status: 'scheduled',
      channel_id: ch3.id,
      planned_start_time: new Date(Date.parse(visit.from) + HOUR).toISOString(),
      planned_end_time: new Date(Date.parse(visit.from) + 2 * HOUR).toISOString(),
    });
    expect(onService.status).toBe(409);
    expect(onService.body.detail.collides_with).toMatchObject({
      kind: 'channel_service',
      id: ch3.id,
      start: visit.from,
      end: visit.until,
    });
  });
});
