// Uploads initiated and never confirmed expire: a durable Temporal Schedule runs expireUploads,
// which removes their objects and session rows once their signed URLs have lapsed; confirmed
// uploads and those still within their time are untouched.
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, newOrg, testConfig } from './harness.ts';
import { labFixture, ok } from './inventoryHelpers.ts';
import { ensureUploadExpirySchedule, UPLOAD_EXPIRY_GRACE_SECONDS } from '../activities/uploads.ts';
import { measurementPrefix } from '../storage/measurementKeys.ts';

const TTL_SECONDS = 4;
const api = apiForSuite({ config: testConfig('fs', { SIGNED_URL_TTL_SECONDS: String(TTL_SECONDS) }) });
const CSV = 'Time [s],Current [A],Voltage [V]\n0,1,4.1\n1,1,4.0\n';

async function sessions(measurementId: string): Promise<number> {
  const [row] = await api.orm.em
    .fork()
    .execute<{ n: string }[]>(`select count(*) as n from measurement_upload_sessions where measurement_id = ?`, [
      measurementId,
    ]);
  return Number(row!.n);
}

describe('unconfirmed uploads', () => {
  it('expire once their signed URLs have lapsed: objects and records removed, confirmed ones kept', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 1 });
    const initiate = () =>
      ok(
        c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, {
          measurement: { name: 'run' },
        }),
      );
    const abandoned = await initiate();
    expect((await fetch(abandoned.uploads[0].signed_url, { method: 'PUT', body: CSV })).ok).toBe(true);
    const kept = await initiate();
    expect((await fetch(kept.uploads[0].signed_url, { method: 'PUT', body: CSV })).ok).toBe(true);
    await ok(
      c.post(`/cell_measurements/${kept.measurement_id}/confirm-upload`, {
        cell_instance_id: lab.instance.id,
        measurement: {},
      }),
      201,
    );
    await new Promise((r) => setTimeout(r, (TTL_SECONDS + 1) * 1000));
    const fresh = await initiate(); // still within its time
    expect((await fetch(fresh.uploads[0].signed_url, { method: 'PUT', body: CSV })).ok).toBe(true);

    const prefix = (id: string) => measurementPrefix(org.organization_id, lab.project.id, id);
    expect((await api.storage.list(prefix(abandoned.measurement_id))).length).toBe(1);
    const run = (await api.temporal.workflow.execute('expireUploads', {
      taskQueue: api.config.taskQueue,
      workflowId: `expire-uploads-test-${crypto.randomUUID()}`,
      args: [{ graceSeconds: 0 }],
    })) as { expired: number };
    expect(run.expired).toBeGreaterThanOrEqual(1);
    expect(await api.storage.list(prefix(abandoned.measurement_id))).toEqual([]);
    expect(await sessions(abandoned.measurement_id)).toBe(0);
    const late = await c.post(`/cell_measurements/${abandoned.measurement_id}/confirm-upload`, {
      cell_instance_id: lab.instance.id,
      measurement: {},
    });
    expect(late.status).toBe(404);
    // Untouched: the confirmed upload (its record and objects) and the one still in time.
    expect((await c.get(`/cell_measurements/${kept.measurement_id}`)).status).toBe(200);
    expect((await api.storage.list(prefix(kept.measurement_id))).length).toBeGreaterThan(0);
    expect(await sessions(fresh.measurement_id)).toBe(1);
    expect((await api.storage.list(prefix(fresh.measurement_id))).length).toBe(1);
  });

  it('expire raw data never confirmed: object and record removed, confirmed ones kept', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = await ok(c.post('/projects', { name: `Raw ${crypto.randomUUID().slice(0, 8)}` }), 201);
    const body = { project_id: project.id, filename: 'export.csv' };
    const initiate = async () => {
      const init = await ok(c.post('/raw_data/initiate-upload', body));
      expect((await fetch(init.uploads[0].signed_url, { method: 'PUT', body: CSV })).ok).toBe(true);
      return init;
    };
    const abandoned = await initiate();
    const kept = await initiate();
    await ok(c.post(`/raw_data/${kept.raw_data_id}/confirm-upload`, body), 201);
    await new Promise((r) => setTimeout(r, (TTL_SECONDS + 1) * 1000));
    const run = (await api.temporal.workflow.execute('expireUploads', {
      taskQueue: api.config.taskQueue,
      workflowId: `expire-uploads-test-${crypto.randomUUID()}`,
      args: [{ graceSeconds: 0 }],
    })) as { expired: number };
    expect(run.expired).toBeGreaterThanOrEqual(1);
    expect(await api.storage.head(abandoned.uploads[0].path)).toBeNull();
    expect((await c.post(`/raw_data/${abandoned.raw_data_id}/confirm-upload`, body)).status).toBe(404);
    expect(await api.storage.head(kept.uploads[0].path)).not.toBeNull();
    expect((await c.get(`/raw_data/${kept.raw_data_id}`)).status).toBe(200);
  });

  it('runs from a durable Temporal Schedule that the worker creates idempotently', async () => {
    const id = await ensureUploadExpirySchedule(api.temporal, api.config);
    expect(await ensureUploadExpirySchedule(api.temporal, api.config)).toBe(id);
    const handle = api.temporal.schedule.getHandle(id);
    try {
      const schedule = await handle.describe();
      expect(schedule.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'expireUploads',
        taskQueue: api.config.taskQueue,
        args: [{ graceSeconds: UPLOAD_EXPIRY_GRACE_SECONDS }],
      });
      expect(schedule.spec.intervals?.[0]?.every).toBe(15 * 60 * 1000);
    } finally {
      await handle.delete();
    }
  });
});
