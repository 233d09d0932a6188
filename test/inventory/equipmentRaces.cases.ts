// Equipment changes racing attaches: deleting or moving a cycler or site while measurements are
// attached to its channels, channels created during a move, and what a moved cycler takes along.
import { expect, it } from 'vitest';
import { client, newOrg, type TestApi } from '../harness.ts';
import { labFixture, measurement, ok } from '../inventoryHelpers.ts';

export function equipmentRaceCases(api: TestApi) {
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
}
