// Two rules of the client's channel and cycler modules, over real HTTP: a channel taken out for a
// planned visit needs its date, and a cycler's service takes all its channels out and brings
// back only those it took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrg, startApi, type TestApi } from './harness.ts';
import { labFixture, ok, uniq, type Client } from './inventoryHelpers.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const incidents = async (c: Client, channelId: string) =>
  (await ok(c.get(`/channels/${channelId}/incidents?order=asc`))).items;
const states = async (c: Client, ids: string[]) =>
  Promise.all(ids.map(async (id) => (await ok(c.get(`/channels/${id}`))).out_of_commission));

describe('a channel out of commission for a planned visit', () => {
  const needsServiceScheduledAtTitle =
    'needs service_scheduled_at for maintenance or calibration (400 naming the field, ' +
    'nothing changed); not for a fault';
  it(needsServiceScheduledAtTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const {
      channels: [ch1, ch2],
    } = await labFixture(c);
    for (const category of ['maintenance', 'calibration']) {
      for (const extra of [{}, { service_scheduled_at: null, service_scheduled_until: '2026-12-03T17:00:00Z' }]) {
        const res = await c.patch(`/channels/${ch1.id}`, {
          out_of_commission: true,
          incident_category: category,
          incident_notes: 'fans',
          ...extra,
        });
        expect(res.status, res.text).toBe(400);
        expect(res.body).toMatchObject({
          error_code: 'BAD_REQUEST',
          detail: { field: 'service_scheduled_at', incident_category: category },
        });
        expect(res.body.message).toContain('service_scheduled_at');
      }
    }
    expect(await states(c, [ch1.id])).toEqual([false]);
    expect(await incidents(c, ch1.id)).toEqual([]);
    expect((await ok(c.get(`/channels/${ch1.id}`))).service_scheduled_until).toBeNull();

    const visit = {
      service_scheduled_at: '2026-12-01T09:00:00.000Z',
      service_scheduled_until: '2026-12-03T17:00:00.000Z',
    };
    const out = await ok(
      c.patch(`/channels/${ch1.id}`, { out_of_commission: true, incident_category: 'maintenance', ...visit }),
    );
    expect(out).toMatchObject({ out_of_commission: true, ...visit });
    expect(await incidents(c, ch1.id)).toMatchObject([
      { category: 'maintenance', service_event_id: null, ...visit, resolved_at: null },
    ]);
    // Re-sending the state the channel is in is a no-op, not a new outage, so no date is asked for.
    await ok(c.patch(`/channels/${ch1.id}`, { out_of_commission: true, incident_category: 'calibration' }));
    expect(await incidents(c, ch1.id)).toHaveLength(1);
    // Returning needs no date; an unplanned fault neither.
    await ok(c.patch(`/channels/${ch1.id}`, { out_of_commission: false, incident_category: 'maintenance' }));
    await ok(c.patch(`/channels/${ch2.id}`, { out_of_commission: true, incident_category: 'hardware_failure' }));
    await ok(c.patch(`/channels/${ch2.id}`, { out_of_commission: false }));
    await ok(c.patch(`/channels/${ch2.id}`, { out_of_commission: true }));
    expect(await states(c, [ch1.id, ch2.id])).toEqual([false, true]);
  });
});

describe("a cycler's service event", () => {
  const takesEveryChannelOutTitle =
    'takes every channel out with an outage naming it; completing returns those it took, not ' +
    'one out for its own fault';
  it(takesEveryChannelOutTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { project, cycler, channels } = await labFixture(c, { channels: 3 });
    const [ch1, ch2, broken] = channels;
    const ids = channels.map((ch: { id: string }) => ch.id);
    await ok(
      c.patch(`/channels/${broken.id}`, {
        out_of_commission: true,
        incident_category: 'hardware_failure',
        incident_notes: 'relay',
      }),
    );

    // A window that ends before it starts: 400 naming the field, and no channel taken out.
    const backwards = await c.post(`/cyclers/${cycler.id}/service_events`, {
      event_type: 'calibration',
      scheduled_for: '2026-12-02T09:00:00Z',
      scheduled_until: '2026-12-01T09:00:00Z',
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ error_code: 'BAD_REQUEST', detail: { field: 'scheduled_until' } });
    expect(await states(c, ids)).toEqual([false, false, true]);
    expect((await ok(c.get(`/cyclers/${cycler.id}/service_events`))).total).toBe(0);

    const visit = { scheduled_for: '2026-12-01T09:00:00.000Z', scheduled_until: '2026-12-03T17:00:00.000Z' };
    const event = await ok(
      c.post(`/cyclers/${cycler.id}/service_events`, { event_type: 'calibration', notes: 'annual', ...visit }),
      201,
    );
    expect(await states(c, ids)).toEqual([true, true, true]);
    const lab = await ok(c.get(`/projects/${project.id}/lab/status`));
    expect(lab).toMatchObject({ free: 0, occupied: 0, stale: 0, out_of_commission: 3 });
    for (const ch of [ch1, ch2]) {
      expect(await incidents(c, ch.id)).toMatchObject([
        {
          service_event_id: event.id,
          category: 'calibration',
          notes: 'annual',
          resolved_at: null,
          service_scheduled_at: visit.scheduled_for,
          service_scheduled_until: visit.scheduled_until,
        },
      ]);
    }
    // The broken channel keeps its own, more specific outage.
    expect(await incidents(c, broken.id)).toMatchObject([
      { category: 'hardware_failure', service_event_id: null, resolved_at: null },
    ]);

    const done = await ok(c.post(`/cyclers/${cycler.id}/service_events/complete`, { notes: 'calibrated' }));
    expect(done).toMatchObject({ id: event.id, status: 'completed' });
    expect(await states(c, ids)).toEqual([false, false, true]);
    for (const ch of [ch1, ch2]) {
      const [outage] = await incidents(c, ch.id);
      expect(outage).toMatchObject({ service_event_id: event.id, resolution_notes: 'calibrated' });
      expect(outage.resolved_at).not.toBeNull();
    }
    expect(await incidents(c, broken.id)).toMatchObject([{ category: 'hardware_failure', resolved_at: null }]);
    expect(await ok(c.get(`/projects/${project.id}/lab/status`))).toMatchObject({ free: 2, out_of_commission: 1 });
  });

  const aChannelReturnedAloneTitle =
    'a channel returned alone and taken out for a fault during the service stays out when ' + 'the service completes';
  it(aChannelReturnedAloneTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const {
      cycler,
      channels: [ch1, ch2],
    } = await labFixture(c);
    await ok(
      c.post(`/cyclers/${cycler.id}/service_events`, {
        event_type: 'preventive_maintenance',
        scheduled_for: '2026-12-01T09:00:00Z',
      }),
      201,
    );
    expect((await incidents(c, ch1.id))[0]).toMatchObject({ category: 'maintenance' });
    await ok(c.patch(`/channels/${ch1.id}`, { out_of_commission: false }));
    await ok(c.patch(`/channels/${ch1.id}`, { out_of_commission: true, incident_category: 'hardware_failure' }));
    await ok(c.post(`/cyclers/${cycler.id}/service_events/complete`, {}));
    expect(await states(c, [ch1.id, ch2.id])).toEqual([true, false]);
    expect((await incidents(c, ch1.id)).map((i: { category: string }) => i.category)).toEqual([
      'maintenance',
      'hardware_failure',
    ]);
  });

  const aChannelOutForTitle =
    "a channel out for its cycler's booked visit is held by the visit's window only: planned " +
    'after it, refused during it';
  it(aChannelOutForTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const lab = await labFixture(c, { channels: 2 });
    const [ch1, broken] = lab.channels;
    await ok(c.patch(`/channels/${broken.id}`, { out_of_commission: true, incident_category: 'hardware_failure' }));
    const HOUR = 3600_000;
    const visit = {
      scheduled_for: new Date(Date.now() + HOUR).toISOString(),
      scheduled_until: new Date(Date.now() + 5 * HOUR).toISOString(),
    };
    await ok(c.post(`/cyclers/${lab.cycler.id}/service_events`, { event_type: 'calibration', ...visit }), 201);
    const status = await ok(c.get(`/projects/${lab.project.id}/lab/status`));
    const byId = Object.fromEntries(status.sites[0].cyclers[0].channels.map((ch: { id: string }) => [ch.id, ch]));
    expect(byId[ch1.id]).toMatchObject({ state: 'out_of_commission', next_free_at: visit.scheduled_until });
    expect(byId[broken.id]).toMatchObject({ state: 'out_of_commission', next_free_at: null });

    const template = await ok(
      c.post('/protocols/parse-to-template', {
        protocol_experiment: { protocol: 'Rest for 1 hour', name: uniq('Rest') },
        project_id: lab.project.id,
        experiment_parameters: {},
      }),
    );
    const base = `/projects/${lab.project.id}/planned_measurements`;
    const plan = await ok(
      c.post(base, {
        name: uniq('After the visit'),
        protocol_id: template.template_id,
        cell_specification_id: lab.spec.id,
        estimated_duration_seconds: 3600,
      }),
      201,
    );
    const at = (h: number) => new Date(Date.parse(visit.scheduled_until) + h * HOUR).toISOString();
    const during = await c.patch(`${base}/${plan.id}`, {
      status: 'scheduled',
      channel_id: ch1.id,
      planned_start_time: at(-2),
      planned_end_time: at(-1),
    });
    expect(during.status).toBe(409);
    expect(during.body.detail.collides_with).toMatchObject({
      kind: 'cycler_service_event',
      end: visit.scheduled_until,
    });
    const onBroken = await c.patch(`${base}/${plan.id}`, {
      status: 'scheduled',
      channel_id: broken.id,
      planned_start_time: at(1),
      planned_end_time: at(2),
    });
    expect(onBroken.status).toBe(409);
    expect(onBroken.body.detail).toMatchObject({ channel_id: broken.id, out_of_commission: true });
    expect((await ok(c.get(`${base}/${plan.id}`))).status).toBe('requested');
    // The proposal too places it on the serviced channel right after the visit, never on the broken one.
    const proposal = await ok(c.post(`${base}/auto_schedule_proposal`, { planned_measurement_ids: [plan.id] }));
    expect(proposal.assignments[0]).toMatchObject({ channel_id: ch1.id, planned_start_time: visit.scheduled_until });
    expect(
      (
        await ok(
          c.patch(`${base}/${plan.id}`, {
            status: 'scheduled',
            channel_id: ch1.id,
            planned_start_time: at(1),
            planned_end_time: at(2),
          }),
        )
      ).status,
    ).toBe('scheduled');
  });
});
