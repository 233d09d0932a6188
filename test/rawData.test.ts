// Raw data over HTTP: a cycler export kept byte for byte with its provenance, linked to the
// measurements made from it, isolated by tenant and project, and purged from storage on delete.
import { afterAll, describe, expect, it } from 'vitest';
import { apiForSuite, client, eventually, newOrg, startApi, testConfig, type TestApi } from './harness.ts';
import { labFixture, measurement, ok, uniq, type Client } from './inventoryHelpers.ts';
import { put } from './measurementDataHelpers.ts';

const api = apiForSuite();
const EXPORT = 'Test_Time(s),Current(A),Voltage(V)\n0,0,4.1\n1,1.5,4.0\n2,1.5,3.9\n';

async function upload(c: Client, projectId: string, fields: Record<string, unknown> = {}, bytes = EXPORT) {
  const body = {
    project_id: projectId,
    name: uniq('Export'),
    filename: 'arbin export.csv',
    content_type: 'text/csv',
    metadata: { cycler: 'Arbin' },
    ...fields,
  };
  const init = await ok(c.post('/raw_data/initiate-upload', body));
  expect((await put(init.uploads[0].signed_url, bytes)).ok).toBe(true);
  return {
    init,
    body,
    record: await ok(
      c.post(`/raw_data/${init.raw_data_id}/confirm-upload`, { ...body, size_bytes: Buffer.byteLength(bytes) }),
      201,
    ),
  };
}

describe('raw data', () => {
  it('keeps the file as uploaded, with its provenance, linked to measurements, and purges it on delete', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 0 });
    const { init, body, record } = await upload(c, lab.project.id, { source: 'doi:10.1000/xyz' });
    expect(record).toMatchObject({
      id: init.raw_data_id,
      project_id: lab.project.id,
      organization_id: org.organization_id,
      name: body.name,
      filename: 'arbin export.csv',
      content_type: 'text/csv',
      source: 'doi:10.1000/xyz',
      metadata: { cycler: 'Arbin' },
      size_bytes: Buffer.byteLength(EXPORT),
    });
    expect(init.uploads[0].path).toBe(
      `orgs/${org.organization_id}/projects/${lab.project.id}/raw_data/${init.raw_data_id}/arbin_export.csv`,
    );
    // Confirming again answers the record.
    expect(await ok(c.post(`/raw_data/${init.raw_data_id}/confirm-upload`, body))).toEqual(record);
    expect(await ok(c.get(`/raw_data/${init.raw_data_id}`))).toEqual(record);

    const second = (await upload(c, lab.project.id)).record;
    const list = await ok(c.get(`/raw_data?project_id=${lab.project.id}&limit=1`));
    expect(list).toMatchObject({ count: 1, total: 2 });
    expect(list.items[0].id).toBe(second.id); // newest first
    expect((await ok(c.get(`/raw_data?project_id=${lab.project.id}&filename=eq.nothing.csv`))).total).toBe(0);

    const changed = await ok(
      c.patch(`/raw_data/${record.id}`, { name: 'Renamed', source: '', metadata: { channel: 3 } }),
    );
    expect(changed).toMatchObject({
      name: 'Renamed',
      source: null,
      metadata: { channel: 3 },
      filename: 'arbin export.csv',
    });

    const { url } = await ok(c.get(`/raw_data/${record.id}/download-url`));
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(EXPORT);

    const run = await measurement(c, lab.instance.id);
    const attached = await ok(
      c.post(`/cell_measurements/${run.id}/raw_data`, { raw_data_ids: [record.id, second.id, record.id] }),
    );
    expect(new Set(attached.raw_data_ids)).toEqual(new Set([record.id, second.id]));
    // Idempotent.
    expect(
      (await ok(c.post(`/cell_measurements/${run.id}/raw_data`, { raw_data_ids: [record.id] }))).raw_data_ids,
    ).toHaveLength(2);
    expect(await ok(c.get(`/raw_data/${record.id}/cell_measurements`))).toEqual({
      items: [run.id],
      count: 1,
      total: 1,
    });
    const linked = await ok(c.get(`/cell_measurements/${run.id}/raw_data?limit=1`));
    expect(linked).toMatchObject({ count: 1, total: 2 });
    expect(await ok(c.delete(`/cell_measurements/${run.id}/raw_data/${second.id}`))).toEqual({
      id: second.id,
      deleted: true,
    });
    expect((await c.delete(`/cell_measurements/${run.id}/raw_data/${second.id}`)).status).toBe(404);
    expect((await ok(c.get(`/cell_measurements/${run.id}/raw_data`))).items.map((r: { id: string }) => r.id)).toEqual([
      record.id,
    ]);

    expect(await ok(c.delete(`/raw_data/${record.id}`))).toEqual({ id: record.id, deleted: true });
    expect((await c.get(`/raw_data/${record.id}`)).status).toBe(404);
    expect((await ok(c.get(`/cell_measurements/${run.id}/raw_data`))).total).toBe(0);
    await eventually(async () => (await api.storage.head(init.uploads[0].path)) === null, {
      what: 'the purge of the raw file',
    });
    expect(
      await api.storage.head(
        `orgs/${org.organization_id}/projects/${lab.project.id}/raw_data/${second.id}/arbin_export.csv`,
      ),
    ).not.toBeNull();
  });

  it('refuses bad input at its field, and changes nothing', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 0 });
    const bad = await c.post('/raw_data/initiate-upload', { project_id: lab.project.id, filename: '../etc/passwd' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'filename']);

    const init = await ok(c.post('/raw_data/initiate-upload', { project_id: lab.project.id, filename: 'a.csv' }));
    // Not uploaded yet: 409 at confirm, and no record to read.
    const early = await c.post(`/raw_data/${init.raw_data_id}/confirm-upload`, {
      project_id: lab.project.id,
      filename: 'a.csv',
    });
    expect(early.status).toBe(409);
    expect(early.body.detail.missing[0].filename).toBe('a.csv');
    expect((await c.get(`/raw_data/${init.raw_data_id}`)).status).toBe(404);
    expect((await put(init.uploads[0].signed_url, EXPORT)).ok).toBe(true);
    const wrongName = await c.post(`/raw_data/${init.raw_data_id}/confirm-upload`, {
      project_id: lab.project.id,
      filename: 'b.csv',
    });
    expect(wrongName.status).toBe(422);
    expect(wrongName.body.detail[0].loc).toEqual(['body', 'filename']);
    const wrongSize = await c.post(`/raw_data/${init.raw_data_id}/confirm-upload`, {
      project_id: lab.project.id,
      filename: 'a.csv',
      size_bytes: 1,
    });
    expect(wrongSize.status).toBe(422);
    expect(wrongSize.body.detail[0].loc).toEqual(['body', 'size_bytes']);
    expect((await ok(c.get(`/raw_data?project_id=${lab.project.id}`))).total).toBe(0);
    const record = await ok(
      c.post(`/raw_data/${init.raw_data_id}/confirm-upload`, { project_id: lab.project.id, filename: 'a.csv' }),
      201,
    );
    expect(record).toMatchObject({
      name: 'a.csv',
      content_type: 'application/octet-stream',
      source: null,
      metadata: {},
    });

    // A file of another project cannot be linked to this project's measurement.
    const other = await labFixture(c, { channels: 0 });
    const foreign = (await upload(c, other.project.id)).record;
    const run = await measurement(c, lab.instance.id);
    const cross = await c.post(`/cell_measurements/${run.id}/raw_data`, { raw_data_ids: [record.id, foreign.id] });
    expect(cross.status).toBe(422);
    expect(cross.body.detail[0].loc).toEqual(['body', 'raw_data_ids', 1]);
    expect((await ok(c.get(`/cell_measurements/${run.id}/raw_data`))).total).toBe(0);

    // The file never changes (its filename is not a field of the update: 422); a blank name is refused.
    const rename = await c.patch(`/raw_data/${record.id}`, { filename: 'x.csv' });
    expect(rename.status).toBe(422);
    expect(rename.body.detail[0].loc).toEqual(['body', 'filename']);
    expect((await ok(c.get(`/raw_data/${record.id}`))).filename).toBe('a.csv');
    const blank = await c.patch(`/raw_data/${record.id}`, { name: '' });
    expect(blank.status).toBe(422);
    expect(blank.body.detail[0].loc).toEqual(['body', 'name']);
    expect((await c.get('/raw_data?limit=0')).status).toBe(422);
  });

  it('keeps tenants apart', async () => {
    const a = await newOrg(api.orm);
    const b = await newOrg(api.orm);
    const ca = client(api.url, a.api_key);
    const cb = client(api.url, b.api_key);
    const lab = await labFixture(ca, { channels: 0 });
    const { record, init } = await upload(ca, lab.project.id);
    expect((await cb.get(`/raw_data/${record.id}`)).status).toBe(403);
    expect((await cb.get(`/raw_data/${record.id}/download-url`)).status).toBe(403);
    expect((await cb.patch(`/raw_data/${record.id}`, { name: 'mine' })).status).toBe(403);
    expect((await cb.delete(`/raw_data/${record.id}`)).status).toBe(403);
    expect((await cb.get(`/raw_data?project_id=${lab.project.id}`)).status).toBe(403);
    expect((await ok(cb.get('/raw_data'))).total).toBe(0);
    expect(
      (
        await cb.post(`/raw_data/${init.raw_data_id}/confirm-upload`, {
          project_id: lab.project.id,
          filename: 'arbin export.csv',
        })
      ).status,
    ).toBe(403);
    expect((await cb.post('/raw_data/initiate-upload', { project_id: lab.project.id, filename: 'x.csv' })).status).toBe(
      403,
    );
    const theirs = await labFixture(cb, { channels: 0 });
    const run = await measurement(cb, theirs.instance.id);
    const cross = await cb.post(`/cell_measurements/${run.id}/raw_data`, { raw_data_ids: [record.id] });
    expect(cross.status).toBe(422);
    expect((await ok(ca.get(`/raw_data/${record.id}`))).name).toBe(record.name);
    expect((await ok(ca.get('/raw_data'))).total).toBe(1);
  });

  const small: TestApi[] = [];
  afterAll(async () => {
    await Promise.allSettled(small.map((a) => a.close()));
  });

  it.each(['fs', 's3'] as const)('refuses a file larger than its %s target, and keeps none of it', async (storage) => {
    const sized = await startApi({ config: testConfig(storage, { UPLOAD_MAX_BYTES: '1000' }) });
    small.push(sized);
    const org = await newOrg(sized.orm);
    const c = client(sized.url, org.api_key);
    const project = await ok(c.post('/projects', { name: uniq('Sized') }), 201);
    const body = { project_id: project.id, filename: 'big.csv' };
    const init = await ok(c.post('/raw_data/initiate-upload', body));
    const res = await put(init.uploads[0].signed_url, 'x'.repeat(5000));
    if (storage === 'fs') {
      expect(res.status).toBe(413); // the signature carries the limit
    } else {
      expect(res.status).toBe(200); // a presigned S3 PUT cannot carry one: confirm holds it
      const confirm = await c.post(`/raw_data/${init.raw_data_id}/confirm-upload`, body);
      expect(confirm.status).toBe(413);
      expect(confirm.body.detail).toMatchObject({ size: 5000, max_bytes: 1000 });
    }
    expect(await sized.storage.head(init.uploads[0].path)).toBeNull();
    expect((await c.get(`/raw_data/${init.raw_data_id}`)).status).toBe(404);
  });
});
