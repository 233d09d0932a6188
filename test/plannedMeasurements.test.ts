// Planned measurements against the real API and PostgreSQL: lifecycle, reservations that never
// overlap (also under concurrent requests), ratings, and bad input that changes nothing.
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

const sql = (q: string, params: unknown[] = []) => api.orm.em.fork().execute(q, params);
const at = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();

/** A lab with a protocol (experiment template) to plan with. */
async function planFixture(c: Client, channels = 3) {
  const lab = await labFixture(c, { channels });
  const template = await ok(
    c.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol: 'Discharge at 1C until 2.5 V', name: uniq('1C') },
      project_id: lab.project.id,
      experiment_parameters: {},
    }),
  );
  const base = `/projects/${lab.project.id}/planned_measurements`;
  const request = (extra: Record<string, unknown> = {}) =>
    c.post(base, {
      name: uniq('Plan'),
      protocol_id: template.template_id,
      cell_specification_id: lab.spec.id,
      estimated_duration_seconds: 7200,
      ...extra,
    });
  return { ...lab, protocolId: template.template_id as string, base, request };
}

describe('planned measurements', () => {
  const goRequestedScheduledInTitle =
    'go requested → scheduled → in_progress → completed, with who requested and scheduled; ' +
    'nonsense transitions are 409 with the status';
  it(goRequestedScheduledInTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const f = await planFixture(c);
    const res = await f.request({ notes: 'first', setup_duration_seconds: 600 });
    expect(res.status).toBe(201);
    const plan = res.body;
    expect(res.headers.get('location')).toBe(`${f.base}/${plan.id}`);
    expect(plan).toMatchObject({
      status: 'requested',
      project_id: f.project.id,
      protocol_id: f.protocolId,
      cell_specification_id: f.spec.id,
      channel_id: null,
      planned_start_time: null,
      estimated_duration_seconds: 7200,
      setup_duration_seconds: 600,
      requested_by_email: org.email,
      scheduled_by_email: null,
      notes: 'first',
    });
    expect(await ok(c.get(`${f.base}/${plan.id}`))).toEqual(plan);

    const start = at(24);
    const end = at(26);
    const scheduled = await ok(
      c.patch(`${f.base}/${plan.id}`, {
        status: 'scheduled',
        channel_id: f.channels[0].id,
        planned_start_time: start,
        planned_end_time: end,
      }),
    );
    expect(scheduled).toMatchObject({
      status: 'scheduled',
      channel_id: f.channels[0].id,
      channel_name: 'CH1',
      cycler_id: f.cycler.id,
      cycler_name: f.cycler.name,
      planned_start_time: start,
      planned_end_time: end,
      scheduled_by_email: org.email,
    });

    // Lists: the client's plain status and channel filters, and the conventions' name filter.
    expect((await ok(c.get(`${f.base}?status=scheduled`))).items.map((p: { id: string }) => p.id)).toEqual([plan.id]);
    expect((await ok(c.get(`${f.base}?status=requested`))).total).toBe(0);
    expect((await ok(c.get(`${f.base}?channel_id=${f.channels[0].id}`))).total).toBe(1);
    expect((await ok(c.get(`${f.base}?name=eq.${encodeURIComponent(plan.name)}`))).items[0].id).toBe(plan.id);
    const bad = await c.get(`${f.base}?status=paused`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'status']);

    // Unschedule keeps the duration; schedule again; run; complete.
    expect(await ok(c.patch(`${f.base}/${plan.id}`, { status: 'requested' }))).toMatchObject({
      status: 'requested',
      channel_id: null,
      estimated_duration_seconds: 7200,
    });
    await ok(
      c.patch(`${f.base}/${plan.id}`, {
        status: 'scheduled',
        channel_id: f.channels[0].id,
        planned_start_time: start,
        planned_end_time: end,
      }),
    );
    expect((await ok(c.patch(`${f.base}/${plan.id}`, { status: 'in_progress' }))).status).toBe('in_progress');
    const moving = await c.patch(`${f.base}/${plan.id}`, { planned_start_time: at(30), planned_end_time: at(31) });
    expect(moving.status).toBe(409);
    expect(moving.body).toMatchObject({ error_code: 'CONFLICT', detail: { status: 'in_progress' } });
    expect((await ok(c.patch(`${f.base}/${plan.id}`, { status: 'completed' }))).status).toBe('completed');
    const moveCompleted = await c.patch(`${f.base}/${plan.id}`, {
      status: 'scheduled',
      channel_id: f.channels[1].id,
      planned_start_time: at(40),
      planned_end_time: at(41),
    });
    expect(moveCompleted.status).toBe(409);
    expect(moveCompleted.body.detail).toMatchObject({ status: 'completed', requested_status: 'scheduled' });

    const other = (await f.request()).body;
    expect((await ok(c.patch(`${f.base}/${other.id}`, { status: 'cancelled' }))).status).toBe('cancelled');
    const revive = await c.patch(`${f.base}/${other.id}`, {
      status: 'scheduled',
      channel_id: f.channels[1].id,
      planned_start_time: at(1),
      planned_end_time: at(2),
    });
    expect(revive.status).toBe(409);
    expect(revive.body.detail.status).toBe('cancelled');
    expect(await ok(c.get(`${f.base}/${other.id}`))).toMatchObject({ status: 'cancelled', channel_id: null });

    // A name is unique in the project: 409 with existing_id (the client's create_or_get resolves it).
    const dup = await f.request({ name: plan.name });
    expect(dup.status).toBe(409);
    expect(dup.body.detail.existing_id).toBe(plan.id);
    expect(await ok(c.delete(`${f.base}/${other.id}`))).toEqual({ id: other.id, deleted: true });
    expect((await c.get(`${f.base}/${other.id}`)).status).toBe(404);
  });

  const followsItsRealRunTitle =
    'follows its real run: in_progress when the run linking it starts on its channel, ' + 'completed when it ends';
  it(followsItsRealRunTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const f = await planFixture(c, 2);
    const plan = (await f.request()).body;
    await ok(
      c.patch(`${f.base}/${plan.id}`, {
        status: 'scheduled',
        channel_id: f.channels[0].id,
        planned_start_time: at(0.01),
        planned_end_time: at(3),
      }),
    );
    // On another channel the link alone moves nothing.
    const elsewhere = await measurement(c, f.instance.id, {
      channel_id: f.channels[1].id,
      planned_measurement_id: plan.id,
    });
    expect(elsewhere.planned_measurement_id).toBe(plan.id);
    expect((await ok(c.get(`${f.base}/${plan.id}`))).status).toBe('scheduled');
    const run = await measurement(c, f.instance.id, {
      channel_id: f.channels[0].id,
      planned_measurement_id: plan.id,
      start_time: new Date(Date.now() - 60_000).toISOString(),
    });
    expect((await ok(c.get(`${f.base}/${plan.id}`))).status).toBe('in_progress');
    await ok(c.patch(`/cell_measurements/${run.id}`, { end_time: new Date(Date.now() - 1000).toISOString() }));
    expect((await ok(c.get(`${f.base}/${plan.id}`))).status).toBe('completed');
    // A plan of another project cannot be linked.
    const other = await planFixture(c, 1);
    const foreign = (await other.request()).body;
    const bad = await c.post(`/cell_instances/${f.instance.id}/cell_measurements/create`, {
      name: uniq('Run'),
      properties: {},
      planned_measurement_id: foreign.id,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'planned_measurement_id']);
  });

  const neverDoubleBooksATitle =
    'never double-books a channel: other reservations, running measurements, service ' +
    'windows, out of commission; ratings are checked';
  it(neverDoubleBooksATitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const f = await planFixture(c, 3);
    const [ch1, ch2, ch3] = f.channels;
    const schedule = (id: string, channel: string, from: number, to: number) =>
      c.patch(`${f.base}/${id}`, {
        status: 'scheduled',
        channel_id: channel,
        planned_start_time: at(from),
        planned_end_time: at(to),
      });
    const a = (await f.request()).body;
    const b = (await f.request()).body;
    await ok(schedule(a.id, ch1.id, 10, 12));
    const clash = await schedule(b.id, ch1.id, 11, 13);
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({
      error_code: 'CONFLICT',
      detail: { collides_with: { kind: 'planned_measurement', id: a.id, name: a.name } },
    });
    expect(clash.body.message).toContain(a.name);
    expect(await ok(c.get(`${f.base}/${b.id}`))).toMatchObject({ status: 'requested', channel_id: null });
    // Half-open windows: back to back is fine.
    await ok(schedule(b.id, ch1.id, 12, 13));

    // A running measurement holds its channel until its estimated end.
    const run = await measurement(c, f.instance.id, { channel_id: ch2.id, estimated_end_time: at(5) });
    const d = (await f.request()).body;
    const onRun = await schedule(d.id, ch2.id, 4, 6);
    expect(onRun.status).toBe(409);
    expect(onRun.body.detail.collides_with).toMatchObject({ kind: 'cell_measurement', id: run.id });
    await ok(schedule(d.id, ch2.id, 5, 6));

    // An open cycler service event (no end): nothing more on the cycler.
    const e = (await f.request()).body;
    const cycler2 = await ok(
      c.post(`/sites/${f.site.id}/cyclers`, { name: uniq('Cy'), project_id: f.project.id }),
      201,
    );
    const ch4 = await ok(
      c.post(`/cyclers/${cycler2.id}/channels`, { name: 'X1', max_amps: 10, min_volts: 2, max_volts: 4.5 }),
      201,
    );
    const event = await ok(c.post(`/cyclers/${cycler2.id}/service_events`, { event_type: 'repair' }), 201);
    const inService = await schedule(e.id, ch4.id, 100, 101);
    expect(inService.status).toBe(409);
    expect(inService.body.detail.collides_with).toMatchObject({
      kind: 'cycler_service_event',
      id: event.id,
      end: null,
    });

    // Out of commission: 409, whatever the window.
    await ok(c.patch(`/channels/${ch3.id}`, { out_of_commission: true }));
    const ooc = await schedule(e.id, ch3.id, 1, 2);
    expect(ooc.status).toBe(409);
    expect(ooc.body.detail).toMatchObject({ channel_id: ch3.id, out_of_commission: true });

    // A cell that needs 20 A, or 2.0 V, cannot go on a 10 A, 2.5-4.2 V channel: 409 with the limits.
    const big = await ok(
      c.post('/cell_specifications', {
        project_id: f.project.id,
        name: uniq('Big'),
        ratings: { max_discharge_current: { value: 20000, unit: 'mA' }, voltage_min: { value: 2.0, unit: 'V' } },
      }),
      201,
    );
    const g = (await f.request({ cell_specification_id: big.id })).body;
    const rated = await schedule(g.id, ch1.id, 50, 51);
    expect(rated.status).toBe(409);
    expect(rated.body.detail).toMatchObject({
      limits: { max_amps: 10, min_volts: 2.5, max_volts: 4.2 },
      required: { amps: 20, min_volts: 2 },
    });
    // Nothing changed by any refusal.
    expect(
      (await ok(c.get(`${f.base}?status=scheduled&order_by=planned_start_time`))).items.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([d.id, a.id, b.id]);
  });

  it('answers exactly one of concurrent overlapping schedule requests on one channel', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const f = await planFixture(c, 1);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await f.request()).body.id);
    const replies = await Promise.all(
      ids.map((id, i) =>
        c.patch(`${f.base}/${id}`, {
          status: 'scheduled',
          channel_id: f.channels[0].id,
          planned_start_time: at(10 + i * 0.1),
          planned_end_time: at(12 + i * 0.1),
        }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.detail.collides_with.kind).toBe('planned_measurement');
    }
    const rows = await sql(`select count(*)::int as n from planned_measurements where channel_id = ?`, [
      f.channels[0].id,
    ]);
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses bad input with the field named and changes nothing', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const f = await planFixture(c, 1);
    const plan = (await f.request()).body;
    const ch = f.channels[0].id;
    const expect422 = async (p: Promise<{ status: number; body: any }>, field: string) => {
      const r = await p;
      expect(r.status).toBe(422);
      expect(r.body.detail.map((d: { loc: string[] }) => d.loc.at(-1))).toContain(field);
    };
    await expect422(
      c.patch(`${f.base}/${plan.id}`, {
        status: 'scheduled',
        channel_id: ch,
        planned_start_time: at(5),
        planned_end_time: at(4),
      }),
      'planned_end_time',
    );
    await expect422(
      c.patch(`${f.base}/${plan.id}`, {
        status: 'scheduled',
        channel_id: ch,
        planned_start_time: at(5),
        planned_end_time: at(5),
      }),
      'planned_end_time',
    );
    await expect422(f.request({ estimated_duration_seconds: 0 }), 'estimated_duration_seconds');
    await expect422(f.request({ estimated_duration_seconds: -5 }), 'estimated_duration_seconds');
    await expect422(f.request({ estimated_duration_seconds: undefined }), 'estimated_duration_seconds');
    await expect422(c.patch(`${f.base}/${plan.id}`, { status: 'paused' }), 'status');
    await expect422(f.request({ status: 'completed' }), 'status');
    await expect422(f.request({ channel_id: ch }), 'channel_id');
    await expect422(c.patch(`${f.base}/${plan.id}`, { status: 'scheduled', channel_id: ch }), 'planned_start_time');

    // Another project's channel: 400; another organization's: 403; none: 404.
    const other = await ok(
      c.post(`/sites/${f.site.id}/cyclers`, {
        name: uniq('Other'),
        project_id: (await ok(c.post('/projects', { name: uniq('P') }), 201)).id,
      }),
      201,
    );
    const otherCh = await ok(c.post(`/cyclers/${other.id}/channels`, { name: 'O1' }), 201);
    const cross = await c.patch(`${f.base}/${plan.id}`, {
      status: 'scheduled',
      channel_id: otherCh.id,
      planned_start_time: at(1),
      planned_end_time: at(2),
    });
    expect(cross.status).toBe(400);
    expect(cross.body.detail.field).toBe('channel_id');
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    const theirs = await labFixture(stranger, { channels: 1 });
    const foreign = await c.patch(`${f.base}/${plan.id}`, {
      status: 'scheduled',
      channel_id: theirs.channels[0].id,
      planned_start_time: at(1),
      planned_end_time: at(2),
    });
    expect(foreign.status).toBe(403);
    const missing = await c.patch(`${f.base}/${plan.id}`, {
      status: 'scheduled',
      channel_id: crypto.randomUUID(),
      planned_start_time: at(1),
      planned_end_time: at(2),
    });
    expect(missing.status).toBe(404);
    // Their plans are not ours to read, by project (403) or by id under our project (404).
    expect((await stranger.get(f.base)).status).toBe(403);
    expect((await c.get(`/projects/${theirs.project.id}/planned_measurements/${plan.id}`)).status).toBe(403);
    expect((await c.get(`${f.base}/${crypto.randomUUID()}`)).status).toBe(404);

    expect(await ok(c.get(`${f.base}/${plan.id}`))).toEqual(plan);
    expect((await ok(c.get(f.base))).total).toBe(1);
  });
});
