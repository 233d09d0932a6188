// Cell specifications, instances and measurement records (attach rules, watching) against the real API.
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

describe('cell specifications and instances', () => {
  const echoesEveryStoredFieldTitle =
    'echoes every stored field, enforces unique names with existing_id, and appears in the ' + 'project mappings';
  it(echoesEveryStoredFieldTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = await ok(c.post('/projects', { name: uniq('Cells') }), 201);
    const body = {
      project_id: project.id,
      name: 'INR21700-50E',
      description: 'high energy',
      manufacturer: 'Samsung',
      form_factor: 'cylindrical',
      chemistry: 'NMC',
      ratings: {
        capacity: { value: 5, unit: 'A.h' },
        voltage_min: { value: 2.5, unit: 'V' },
        voltage_max: { value: 4.2, unit: 'V' },
      },
      anode: { material: 'graphite+SiOx' },
      cathode: { material: 'NMC811' },
      electrolyte: { name: 'LiPF6 in EC:DMC' },
      separator: { thickness_um: 12 },
      properties: { mass_g: 69 },
    };
    const res = await c.post('/cell_specifications', body);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/cell_specifications/${res.body.id}`);
    expect(res.body).toMatchObject({ ...body, organization_id: org.organization_id, created_by: org.user_id });
    const dup = await c.post('/cell_specifications', { project_id: project.id, name: 'INR21700-50E' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error_code: 'CONFLICT', detail: { existing_id: res.body.id } });
    // Same name in another project is fine.
    const other = await ok(c.post('/projects', { name: uniq('Other') }), 201);
    await ok(c.post('/cell_specifications', { project_id: other.id, name: 'INR21700-50E' }), 201);

    const mappings = (await ok(c.get(`/projects/${project.id}`))).cell_spec_project_mappings;
    expect(mappings).toEqual([
      expect.objectContaining({ cell_specification_id: res.body.id, project_id: project.id, name: 'INR21700-50E' }),
    ]);

    const patched = await ok(
      c.patch(`/cell_specifications/${res.body.id}`, { ratings: { capacity: { value: 4.9, unit: 'A.h' } } }),
    );
    expect(patched).toMatchObject({
      name: 'INR21700-50E',
      manufacturer: 'Samsung',
      ratings: { capacity: { value: 4.9, unit: 'A.h' } },
    });
    const badRatings = await c.post('/cell_specifications', {
      project_id: project.id,
      name: 'x',
      ratings: { capacity: { unit: 'A.h' } },
    });
    expect(badRatings.status).toBe(422);
    expect(badRatings.body.detail[0].loc.slice(0, 3)).toEqual(['body', 'ratings', 'capacity']);

    const cell = await ok(
      c.post(`/cell_specifications/${res.body.id}/cell_instances`, {
        name: 'cell-001',
        serial_number: 'S1',
        batch: 'B7',
        notes: 'n',
        properties: { rack: 3 },
      }),
      201,
    );
    expect(cell).toMatchObject({
      cell_specification_id: res.body.id,
      project_id: project.id,
      serial_number: 'S1',
      batch: 'B7',
      properties: { rack: 3 },
    });
    const dupCell = await c.post(`/cell_specifications/${res.body.id}/cell_instances`, { name: 'cell-001' });
    expect(dupCell.status).toBe(409);
    expect(dupCell.body.detail.existing_id).toBe(cell.id);
    expect((await ok(c.get(`/cell_specifications/${res.body.id}/cell_instances?name=ilike.%25001`))).total).toBe(1);
    expect((await ok(c.patch(`/cell_instances/${cell.id}`, { batch: 'B8' }))).batch).toBe('B8');
    expect((await ok(c.get(`/cell_specifications?project_id=${project.id}`))).total).toBe(1);

    await measurement(c, cell.id);
    expect(await ok(c.delete(`/cell_specifications/${res.body.id}`))).toEqual({ id: res.body.id, deleted: true });
    expect((await c.get(`/cell_instances/${cell.id}`)).status).toBe(404);
    expect((await ok(c.get('/search?q=cell-001'))).total).toBe(0);
  });
});

describe('cell measurements', () => {
  it('creates properties measurements with units, lists with filters, patches and deletes', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const { instance } = await labFixture(c);
    const m = await measurement(c, instance.id, {
      name: 'OCV check',
      properties: { ocv: { value: 3.61, unit: 'V' }, acir: { value: 0.012, unit: 'Ohm' } },
      protocol: 'OCV',
      program_name: 'p1',
      start_time: '2026-01-01T00:00:00Z',
      end_time: '2026-01-01T01:00:00Z',
      test_setup: { temperature_c: 25 },
    });
    expect(m).toMatchObject({
      measurement_type: 'properties',
      cell_instance_id: instance.id,
      processing_status: 'ready',
      requested_by: org.user_id,
      requested_by_email: org.email,
      properties: { acir: { value: 0.012, unit: 'Ohm' } },
      protocol: 'OCV',
      program_name: 'p1',
      test_setup: { temperature_c: 25 },
      start_time: '2026-01-01T00:00:00.000Z',
      end_time: '2026-01-01T01:00:00.000Z',
      channel_id: null,
    });
    await measurement(c, instance.id, {
      name: 'later',
      start_time: '2026-03-01T00:00:00Z',
      end_time: '2026-03-01T01:00:00Z',
    });
    const list = await ok(
      c.get(
        `/cell_instances/${instance.id}/cell_measurements?start_time_gt=2026-02-01T00:00:00Z` +
          `&measurement_type=eq.properties`,
      ),
    );
    expect(list.items.map((x: { name: string }) => x.name)).toEqual(['later']);
    expect(
      (await ok(c.get(`/cell_instances/${instance.id}/cell_measurements?start_time_lt=2026-02-01T00:00:00Z`))).items[0]
        .id,
    ).toBe(m.id);
    expect((await c.get(`/cell_instances/${instance.id}/cell_measurements?measurement_type=eq.audio`)).status).toBe(
      422,
    );
    const noUnit = await c.post(`/cell_instances/${instance.id}/cell_measurements/create`, {
      name: 'x',
      properties: { ocv: 3.6 },
    });
    expect(noUnit.status).toBe(422);
    const series = await c.post(`/cell_instances/${instance.id}/cell_measurements/create`, {
      name: 'x',
      measurement_type: 'time_series',
      properties: {},
    });
    expect(series.status).toBe(422);
    expect(series.body.detail[0].loc).toEqual(['body', 'measurement_type']);
    const inverted = await c.post(`/cell_instances/${instance.id}/cell_measurements/create`, {
      name: 'x',
      properties: {},
      start_time: '2026-01-02T00:00:00Z',
      end_time: '2026-01-01T00:00:00Z',
    });
    expect(inverted.status).toBe(422);
    expect((await ok(c.patch(`/cell_measurements/${m.id}`, { notes: 'checked' }))).notes).toBe('checked');
    expect((await ok(c.get(`/cell_measurements/${m.id}?include_steps=false&include_time_series=false`))).notes).toBe(
      'checked',
    );
    // As Python clients spell a boolean they pass as a parameter (str(False)).
    expect((await c.get(`/cell_measurements/${m.id}?include_steps=False&include_time_series=True`)).status).toBe(200);
    expect(await ok(c.delete(`/cell_measurements/${m.id}`))).toEqual({ id: m.id, deleted: true });
    expect((await c.get(`/cell_measurements/${m.id}`)).status).toBe(404);
  });

  const attachingToAChannelTitle =
    'attaching to a channel: out of commission 409, overlapping unfinished 409, other ' + 'project 400, null detaches';
  it(attachingToAChannelTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const { channels, instance, spec } = await labFixture(c, { channels: 3 });
    const [ch1, ch2, ch3] = channels;
    const running = await measurement(c, instance.id, { channel_id: ch1.id });
    expect(running.channel_id).toBe(ch1.id);
    const second = await measurement(c, instance.id);
    const busy = await c.patch(`/cell_measurements/${second.id}`, { channel_id: ch1.id });
    expect(busy.status).toBe(409);
    expect(busy.body.detail.measurement_id).toBe(running.id);
    // A finished run from before the running one started does not overlap it.
    const old = await measurement(c, instance.id, {
      start_time: '2025-01-01T00:00:00Z',
      end_time: '2025-01-02T00:00:00Z',
    });
    expect((await ok(c.patch(`/cell_measurements/${old.id}`, { channel_id: ch1.id }))).channel_id).toBe(ch1.id);
    await ok(c.patch(`/channels/${ch2.id}`, { out_of_commission: true, incident_category: 'hardware_failure' }));
    const ooc = await c.patch(`/cell_measurements/${second.id}`, { channel_id: ch2.id });
    expect(ooc.status).toBe(409);
    const otherProject = await labFixture(c);
    const cross = await c.patch(`/cell_measurements/${second.id}`, { channel_id: otherProject.channels[0].id });
    expect(cross.status).toBe(400);
    expect(cross.body).toMatchObject({
      error_code: 'BAD_REQUEST',
      detail: {
        field: 'channel_id',
        loc: ['body', 'channel_id'],
        channel_project_id: otherProject.project.id,
        measurement_project_id: instance.project_id,
      },
    });
    const otherOrg = await labFixture(client(api.url, (await newOrg(api.orm)).api_key));
    expect((await c.patch(`/cell_measurements/${second.id}`, { channel_id: otherOrg.channels[0].id })).status).toBe(
      403,
    );
    expect(
      (await c.patch(`/cell_measurements/${second.id}`, { channel_id: '00000000-0000-4000-8000-00000000dead' })).status,
    ).toBe(422);
    // Nothing was written by the refusals.
    expect((await ok(c.get(`/cell_measurements/${second.id}`))).channel_id).toBeNull();
    await ok(c.patch(`/cell_measurements/${second.id}`, { channel_id: ch3.id }));
    // Reopening the finished run would overlap the running one on ch1.
    expect((await c.patch(`/cell_measurements/${old.id}`, { end_time: null })).status).toBe(409);
    expect((await ok(c.patch(`/cell_measurements/${running.id}`, { channel_id: null }))).channel_id).toBeNull();
    expect((await ok(c.patch(`/cell_measurements/${second.id}`, { channel_id: ch1.id }))).channel_id).toBe(ch1.id);
    expect(spec.project_id).toBe(instance.project_id);
  });

  const reTimingAMeasurementTitle =
    're-timing a measurement on its channel checks only the overlap, even once the channel ' +
    'is out of commission or in another project (where it cannot run again)';
  it(reTimingAMeasurementTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { cycler, channels, instance } = await labFixture(c);
    const [ch1, ch2] = channels;
    const times = { start_time: '2025-01-01T00:00:00Z', end_time: '2025-01-02T00:00:00Z' };
    const done1 = await measurement(c, instance.id, { channel_id: ch1.id, ...times });
    const done2 = await measurement(c, instance.id, { channel_id: ch2.id, ...times });
    await ok(c.patch(`/channels/${ch1.id}`, { out_of_commission: true, incident_category: 'hardware_failure' }));
    const later = await ok(
      c.patch(`/cell_measurements/${done1.id}`, { end_time: '2025-01-03T00:00:00Z', channel_id: ch1.id }),
    );
    expect(later).toMatchObject({ channel_id: ch1.id, end_time: '2025-01-03T00:00:00.000Z' });
    // Linking another measurement there is still refused.
    expect((await c.patch(`/cell_measurements/${done2.id}`, { channel_id: ch1.id })).status).toBe(409);

    // The cycler moves to another project; the finished run stays on its channel and can still be re-timed.
    const other = await ok(c.post('/projects', { name: uniq('Elsewhere') }), 201);
    await ok(c.patch(`/cyclers/${cycler.id}`, { project_id: other.id }));
    expect(
      (await ok(c.patch(`/cell_measurements/${done2.id}`, { start_time: '2024-12-31T00:00:00Z' }))).start_time,
    ).toBe('2024-12-31T00:00:00.000Z');
    // Linking to it again from elsewhere is a cross-project link.
    const running = await measurement(c, instance.id);
    expect((await c.patch(`/cell_measurements/${running.id}`, { channel_id: ch2.id })).status).toBe(400);

    // But it cannot run again there: the new project's lab status could not show it.
    const reopen = await c.patch(`/cell_measurements/${done2.id}`, { end_time: null });
    expect(reopen.status).toBe(409);
    expect(reopen.body.detail).toMatchObject({ channel_id: ch2.id, loc: ['body', 'end_time'] });
    expect((await ok(c.get(`/cell_measurements/${done2.id}`))).end_time).toBe('2025-01-02T00:00:00.000Z');
  });

  it('watching is idempotent and listed per project', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { project, instance } = await labFixture(c);
    const m = await measurement(c, instance.id);
    expect(await ok(c.post(`/cell_measurements/${m.id}/watch`))).toEqual({ measurement_id: m.id, watched: true });
    await ok(c.post(`/cell_measurements/${m.id}/watch`));
    expect(await ok(c.get(`/projects/${project.id}/lab/watched`))).toEqual({ measurement_ids: [m.id] });
    expect(await ok(c.delete(`/cell_measurements/${m.id}/watch`))).toEqual({ measurement_id: m.id, watched: false });
    await ok(c.delete(`/cell_measurements/${m.id}/watch`));
    expect(await ok(c.get(`/projects/${project.id}/lab/watched`))).toEqual({ measurement_ids: [] });
  });
});

describe("a measurement's protocol", () => {
  const linksAnExperimentTemplateTitle =
    'links an experiment template of the organization by protocol_id, on create and patch; ' +
    'others are 422 naming protocol_id';
  it(linksAnExperimentTemplateTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const { project, instance } = await labFixture(c);
    const template = (key: typeof c, projectId: string) =>
      ok(
        key.post('/protocols/parse-to-template', {
          protocol_experiment: { protocol: 'Discharge at 1C until 2.5 V', name: '1C' },
          project_id: projectId,
          experiment_parameters: {},
        }),
      );
    const mine = await template(c, project.id);
    const created = await measurement(c, instance.id, { protocol_id: mine.template_id });
    expect(created.protocol_id).toBe(mine.template_id);
    expect((await ok(c.get(`/cell_measurements/${created.id}`))).protocol_id).toBe(mine.template_id);
    expect((await ok(c.patch(`/cell_measurements/${created.id}`, { protocol_id: null }))).protocol_id).toBeNull();

    const other = client(api.url, (await newOrg(api.orm)).api_key);
    const theirs = await template(other, (await ok(other.post('/projects', { name: uniq('Theirs') }), 201)).id);
    for (const id of [theirs.template_id, '00000000-0000-4000-8000-00000000beef']) {
      const patched = await c.patch(`/cell_measurements/${created.id}`, { protocol_id: id });
      expect(patched.status).toBe(422);
      expect(patched.body.detail[0].loc).toEqual(['body', 'protocol_id']);
      const refused = await c.post(`/cell_instances/${instance.id}/cell_measurements/create`, {
        name: uniq('M'),
        properties: {},
        protocol_id: id,
      });
      expect(refused.status).toBe(422);
    }
    expect((await ok(c.get(`/cell_measurements/${created.id}`))).protocol_id).toBeNull();
  });
});
