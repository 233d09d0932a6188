// Analyses over HTTP: features extracted from a measurement, a Parquet table uploaded as
// multipart with specs, plot presets and metadata checked against it; purged on delete, and
// with the measurement.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, eventually, newOrg } from './harness.ts';
import { labFixture, measurement, ok } from './inventoryHelpers.ts';
import { readParquet } from './measurementDataHelpers.ts';

const api = apiForSuite();

const TABLE = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      { name: 'cycle', data: [1, 50, 100], type: 'DOUBLE' },
      { name: 'lam_ne', data: [0, 1.5, 3.2], type: 'DOUBLE' },
      { name: 'lli', data: [0, 2.1, 4.4], type: 'DOUBLE' },
    ],
  }),
);

async function send(key: string, fields: Record<string, unknown>, bytes: Uint8Array | string | null = TABLE) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  if (bytes !== null) form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer> | string]), 'data.parquet');
  const res = await fetch(`${api.url}/analyses`, {
    method: 'POST',
    headers: { 'X-API-Key': key, Accept: 'application/json' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('analyses', () => {
  it('keeps the table with its specs, presets and metadata; lists, changes, downloads and purges it', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 0 });
    const run = await measurement(c, lab.instance.id);
    const fields = {
      measurement_id: run.id,
      name: 'RPT degradation',
      analysis_type: 'lam_lli_from_rpt',
      notes: 'from RPTs every 50 cycles',
      columns: [
        { name: 'cycle', unit: '', dtype: 'float' },
        { name: 'lam_ne', unit: '%' },
        { name: 'lli', unit: '%' },
      ],
      plots: [{ x: 'cycle', y: ['lam_ne'], y2: ['lli'], title: 'Degradation' }],
      metadata: { rpt: 'C/20' },
    };
    const created = await send(org.api_key, fields);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const a = created.body;
    expect(a).toMatchObject({
      measurement_id: run.id,
      project_id: lab.project.id,
      analysis_type: 'lam_lli_from_rpt',
      row_count: 3,
      metadata: { rpt: 'C/20' },
      notes: fields.notes,
    });
    expect(a.plots).toEqual(fields.plots);
    expect(await ok(c.get(`/analyses/${a.id}`))).toEqual(a);
    expect(await ok(c.get(`/analyses?measurement_id=${run.id}`))).toMatchObject({ count: 1, total: 1 });
    expect((await ok(c.get(`/analyses?project_id=${lab.project.id}&analysis_type=eq.lam_lli_from_rpt`))).total).toBe(1);
    expect((await c.get('/analyses')).status).toBe(422);

    const changed = await ok(
      c.patch(`/analyses/${a.id}`, { name: 'Renamed', plots: [{ x: 'cycle', y: ['lli'] }], notes: null }),
    );
    expect(changed).toMatchObject({ name: 'Renamed', plots: [{ x: 'cycle', y: ['lli'] }], notes: null });
    const badPlot = await c.patch(`/analyses/${a.id}`, { plots: [{ x: 'cycle', y: ['capacity'] }] });
    expect(badPlot.status).toBe(422);
    expect(badPlot.body.detail[0].loc).toEqual(['body', 'plots', 0, 'y', 0]);

    const { url } = await ok(c.get(`/analyses/${a.id}/download-url`));
    const file = await fetch(url);
    expect((await readParquet(new Uint8Array(await file.arrayBuffer()))).lli).toEqual([0, 2.1, 4.4]);

    const prefix = `orgs/${org.organization_id}/projects/${lab.project.id}/measurements/${run.id}/analyses/${a.id}/`;
    expect(await api.storage.list(prefix)).toHaveLength(1);
    expect(await ok(c.delete(`/analyses/${a.id}`))).toEqual({ id: a.id, deleted: true });
    expect((await c.get(`/analyses/${a.id}`)).status).toBe(404);
    await eventually(async () => (await api.storage.list(prefix)).length === 0, { what: 'the purge of the analysis' });

    // Deleting the measurement takes its analyses with it.
    const second = (await send(org.api_key, { ...fields, plots: [] })).body;
    await ok(c.delete(`/cell_measurements/${run.id}`));
    expect((await c.get(`/analyses/${second.id}`)).status).toBe(404);
    await eventually(
      async () =>
        (await api.storage.list(`orgs/${org.organization_id}/projects/${lab.project.id}/measurements/${run.id}/`))
          .length === 0,
      {
        what: 'the purge of the measurement',
      },
    );
  });

  it('refuses what does not fit the table, at its field, storing nothing; keeps tenants apart', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 0 });
    const run = await measurement(c, lab.instance.id);
    const base = { measurement_id: run.id, name: 'A', analysis_type: 'ecm_from_eis' };
    const cases: [Record<string, unknown>, Uint8Array | string | null, (string | number)[]][] = [
      [{ ...base, columns: [{ name: 'R0' }] }, TABLE, ['body', 'columns', 0, 'name']],
      [
        { ...base, plots: [{ x: 'cycle', y: ['lli'] }], columns: [{ name: 'cycle' }] },
        TABLE,
        ['body', 'plots', 0, 'y', 0],
      ],
      [{ ...base, plots: [{ x: 'cycle' }] }, TABLE, ['body', 'plots', 0]],
      [{ ...base, metadata: '[1]' }, TABLE, ['body', 'metadata']],
      [{ ...base, columns: 'not json' }, TABLE, ['body', 'columns']],
      [base, 'cycle,lli\n1,2\n', ['body', 'file']],
      [base, null, ['body', 'file']],
      [{ ...base, analysis_type: ' ' }, TABLE, ['body', 'analysis_type']],
    ];
    for (const [fields, bytes, loc] of cases) {
      const res = await send(org.api_key, fields, bytes);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
    }
    expect((await ok(c.get(`/analyses?measurement_id=${run.id}`))).total).toBe(0);
    expect(await api.storage.list(`orgs/${org.organization_id}/`)).toEqual([]);

    const a = (await send(org.api_key, base)).body;
    const other = await newOrg(api.orm);
    const oc = client(api.url, other.api_key);
    expect((await oc.get(`/analyses/${a.id}`)).status).toBe(403);
    expect((await oc.get(`/analyses/${a.id}/download-url`)).status).toBe(403);
    expect((await oc.patch(`/analyses/${a.id}`, { name: 'x' })).status).toBe(403);
    expect((await oc.delete(`/analyses/${a.id}`)).status).toBe(403);
    expect((await oc.get(`/analyses?measurement_id=${run.id}`)).status).toBe(403);
    expect((await send(other.api_key, base)).status).toBe(403);
    expect((await ok(c.get(`/analyses/${a.id}`))).name).toBe('A');
  });
});
