// Builders for the inventory suites: a project with a site, cycler, channels, a cell and measurements.
import { expect } from 'vitest';
import { type client } from './harness.ts';

export type Client = ReturnType<typeof client>;

export async function ok<T = any>(p: Promise<{ status: number; body: T; text: string }>, status = 200): Promise<T> {
  const res = await p;
  expect(res.status, res.text).toBe(status);
  return res.body;
}

let n = 0;
export const uniq = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${++n}`;

/** A project with one site, one cycler and `channels` channels, plus a cell specification and instance. */
export async function labFixture(c: Client, opts: { channels?: number; projectName?: string } = {}) {
  const project = await ok(c.post('/projects', { name: opts.projectName ?? uniq('Lab project') }), 201);
  const site = await ok(c.post('/sites', { name: uniq('Site'), location: 'Building 7' }), 201);
  const cycler = await ok(
    c.post(`/sites/${site.id}/cyclers`, {
      name: uniq('Cycler'),
      project_id: project.id,
      manufacturer: 'Arbin',
      model: 'LBT21084',
      serial_number: 'SN-1',
    }),
    201,
  );
  const channels = [];
  for (let i = 0; i < (opts.channels ?? 2); i++) {
    channels.push(
      await ok(
        c.post(`/cyclers/${cycler.id}/channels`, { name: `CH${i + 1}`, max_amps: 10, min_volts: 2.5, max_volts: 4.2 }),
        201,
      ),
    );
  }
  const spec = await ok(
    c.post('/cell_specifications', {
      project_id: project.id,
      name: uniq('Spec'),
      form_factor: 'cylindrical',
      manufacturer: 'LG',
      ratings: {
        capacity: { value: 5, unit: 'A.h' },
        voltage_min: { value: 2.5, unit: 'V' },
        voltage_max: { value: 4.2, unit: 'V' },
      },
    }),
    201,
  );
  const instance = await ok(c.post(`/cell_specifications/${spec.id}/cell_instances`, { name: uniq('Cell') }), 201);
  return { project, site, cycler, channels, spec, instance };
}

/** A properties measurement, optionally on a channel; no end_time means it is running. */
export async function measurement(c: Client, instanceId: string, extra: Record<string, unknown> = {}) {
  return ok(
    c.post(`/cell_instances/${instanceId}/cell_measurements/create`, {
      name: uniq('Run'),
      properties: { ocv: { value: 3.6, unit: 'V' } },
      start_time: new Date(Date.now() - 3600_000).toISOString(),
      ...extra,
    }),
    201,
  );
}

/**
 * Replies to concurrent creates of one name: exactly one 201, every other a 409 naming it. Answers the created
 * record.
 */
export function oneCreated(replies: { status: number; body: any }[]) {
  const created = replies.filter((r) => r.status === 201);
  expect(created).toHaveLength(1);
  for (const r of replies.filter((x) => x.status !== 201)) {
    expect(r.status).toBe(409);
    expect(r.body.detail.existing_id).toBe(created[0]!.body.id);
  }
  return created[0]!.body;
}
