// Channels: create with limits, other organizations refused, out of commission with incidents.
import { expect, it } from 'vitest';
import { client, newOrg, type TestApi } from '../harness.ts';
import { labFixture, measurement, ok } from '../inventoryHelpers.ts';

export function channelCases(api: TestApi) {
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
}
