// Analyses against the real API, database and S3-compatible storage: who may add, read and
// remove them, bad tables and fields refused before anything is stored, and an analysis gone
// with its measurement. The client's own flow is in test/client/test_cells.py.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROLES } from '../db/roles.ts';
import { apiForSuite, client, eventually, newMember, newOrg, testConfig } from './harness.ts';

const api = apiForSuite({ config: testConfig('s3') });
const [, , VIEWER] = PROJECT_ROLES.map((r) => r.id);
const TABLE = Buffer.from(parquetWriteBuffer({ columnData: [{ name: 'cycle', data: [0, 100] }, { name: 'lli_pct', data: [0, 2.5] }] }));

async function setup() {
  const org = await newOrg(api.orm);
  const c = client(api.url, org.api_key);
  const project = (await c.post('/projects', { name: `P ${Math.random()}` })).body;
  const spec = (await c.post('/cell_specifications', { project_id: project.id, name: `Spec ${Math.random()}` })).body;
  const inst = (await c.post(`/cell_specifications/${spec.id}/cell_instances`, { name: 'Cell 1' })).body;
  const m = (await c.post(`/cell_instances/${inst.id}/cell_measurements/create`, { name: 'RPT', properties: { capacity: { value: 4.8, unit: 'A.h' } } })).body;
  return { org, c, project, m };
}

async function post(key: string, fields: Record<string, string>, file: Uint8Array | string | null = TABLE) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file !== null) form.append('file', new Blob([file as Uint8Array<ArrayBuffer> | string]), 'table.parquet');
  const res = await fetch(`${api.url}/analyses`, { method: 'POST', headers: { 'X-API-Key': key, Accept: 'application/json' }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

const objects = async (measurementId: string) => {
  const [row] = await api.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from analyses where measurement_id = ?`, [measurementId]);
  return Number(row!.n);
};

describe('analyses', () => {
  it('refuses bad tables and fields, and keeps them to the project\'s members with the right roles', async () => {
    const { org, c, project, m } = await setup();
    const fields = { measurement_id: m.id, name: 'LLI', analysis_type: 'lam_lli_from_rpt' };
    let r = await post(org.api_key, fields, 'not parquet');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'file']);
    r = await post(org.api_key, fields, null);
    expect(r.status).toBe(422);
    r = await post(org.api_key, { ...fields, metadata: '[1, 2]' });
    expect(r.body.detail[0].loc).toEqual(['body', 'metadata']);
    r = await post(org.api_key, { ...fields, plots: JSON.stringify([{ x: 'cycle', y: ['soh'] }]) });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'plots', 0]);
    expect(await objects(m.id)).toBe(0);

    const created = await post(org.api_key, { ...fields, columns: JSON.stringify([{ name: 'lli_pct', unit: '%' }]) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ measurement_id: m.id, project_id: project.id, columns: [{ name: 'lli_pct', unit: '%' }], size_bytes: TABLE.length });
    const id = created.body.id;
    expect((await c.get('/analyses')).status).toBe(422);
    expect((await c.get(`/analyses?measurement_id=${m.id}&project_id=${project.id}`)).status).toBe(422);

    // A viewer reads but does not add or remove; another organization does neither.
    const viewer = await newMember(api.orm, org.organization_id);
    await c.post(`/projects/${project.id}/members`, { user_id: viewer.user_id, project_role_id: VIEWER });
    const v = client(api.url, viewer.api_key);
    expect((await v.get(`/analyses/${id}`)).status).toBe(200);
    expect((await v.get(`/analyses?project_id=${project.id}`)).body.total).toBe(1);
    expect((await post(viewer.api_key, fields)).status).toBe(403);
    expect((await v.patch(`/analyses/${id}`, { name: 'mine' })).status).toBe(403);
    expect((await v.delete(`/analyses/${id}`)).status).toBe(403);
    const other = await newOrg(api.orm);
    const o = client(api.url, other.api_key);
    expect((await o.get(`/analyses/${id}`)).status).toBe(403);
    expect((await o.get(`/analyses/${id}/download-url`)).status).toBe(403);
    expect((await post(other.api_key, fields)).status).toBe(403);

    // The signed URL serves the table as uploaded.
    const { url } = (await c.get(`/analyses/${id}/download-url`)).body;
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(TABLE)).toBe(true);
  });

  it('goes with its measurement: the row at once, the table with the measurement\'s objects', async () => {
    const { org, c, m } = await setup();
    const created = await post(org.api_key, { measurement_id: m.id, name: 'LLI', analysis_type: 'lam_lli_from_rpt' });
    const { url } = (await c.get(`/analyses/${created.body.id}/download-url`)).body;
    expect((await fetch(url)).status).toBe(200);
    expect((await c.delete(`/cell_measurements/${m.id}`)).status).toBe(200);
    expect((await c.get(`/analyses/${created.body.id}`)).status).toBe(404);
    expect(await objects(m.id)).toBe(0);
    await eventually(async () => (await fetch(url)).status === 404, { what: 'the table to be purged', timeoutMs: 120_000 });
  });
});
