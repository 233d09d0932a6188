// Materials (the seeded catalogue) and material property datasets over HTTP: a Parquet table
// uploaded as multipart, read back by column, reshaped, replaced, downloaded and purged.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, eventually, newOrg } from './harness.ts';
import { ok, uniq } from './inventoryHelpers.ts';
import { readParquet } from './measurementDataHelpers.ts';

const api = apiForSuite();

function table(sto: number[], ocp: (number | null)[]): Uint8Array {
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'Stoichiometry', data: sto, type: 'DOUBLE' },
        { name: 'OCP [V]', data: ocp, type: 'DOUBLE', nullable: true },
      ],
    }),
  );
}

async function send(
  key: string,
  method: string,
  path: string,
  fields: Record<string, unknown>,
  bytes?: Uint8Array | string,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  if (bytes !== undefined) form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer> | string]), 'data.parquet');
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { 'X-API-Key': key, Accept: 'application/json' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function setup() {
  const org = await newOrg(api.orm);
  const c = client(api.url, org.api_key);
  const project = await ok(c.post('/projects', { name: uniq('Materials') }), 201);
  const graphite = (await ok(c.get(`/materials?project_id=${project.id}&name=Graphite`))).items[0];
  return { org, c, project, graphite };
}

describe('materials and material property datasets', () => {
  const listsTheCatalogueAndTitle =
    "lists the catalogue, and keeps a dataset's table through create, reads, reshape, " + 'replace and delete';
  it(listsTheCatalogueAndTitle, async () => {
    const { org, c, project, graphite } = await setup();
    expect(graphite).toMatchObject({ name: 'Graphite', category: 'anode', system: true, organization_id: null });
    expect(await ok(c.get(`/materials/${graphite.id}`))).toEqual(graphite);
    const catalogue = await ok(c.get(`/materials?project_id=${project.id}&limit=100`));
    expect(catalogue.total).toBeGreaterThanOrEqual(10);
    expect(catalogue.items.map((m: { name: string }) => m.name)).toEqual(
      [...catalogue.items.map((m: { name: string }) => m.name)].sort(),
    );
    expect((await ok(c.get(`/materials?project_id=${project.id}&name=ilike.%25NMC%25`))).total).toBeGreaterThanOrEqual(
      4,
    );

    const created = await send(
      org.api_key,
      'POST',
      '/material_property_datasets',
      {
        material_id: graphite.id,
        project_id: project.id,
        name: 'Graphite OCP',
        columns: [
          { name: 'Stoichiometry', unit: '', source_column_index: 0 },
          { name: 'OCP', unit: 'V', source_column_index: 1 },
        ],
      },
      table([0, 0.5, 1], [0.8, null, 0.05]),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const d = created.body;
    expect(d).toMatchObject({
      name: 'Graphite OCP',
      material_id: graphite.id,
      project_id: project.id,
      data_version: 1,
      row_count: 3,
      nan_counts: { Stoichiometry: 0, OCP: 1 },
    });
    expect(await ok(c.get(`/material_property_datasets/${d.id}`))).toEqual(d);
    expect(await ok(c.get(`/material_property_datasets/${d.id}/data`))).toEqual({
      Stoichiometry: [0, 0.5, 1],
      OCP: [0.8, null, 0.05],
    });
    const listed = await ok(c.get(`/material_property_datasets?material_id=${graphite.id}&project_id=${project.id}`));
    expect(listed).toMatchObject({ count: 1, total: 1 });

    const reshaped = await ok(
      c.patch(`/material_property_datasets/${d.id}`, {
        name: 'Renamed',
        columns: [{ name: 'U', unit: 'V', source_column_index: 1 }],
      }),
    );
    expect(reshaped).toMatchObject({
      name: 'Renamed',
      columns: [{ name: 'U', unit: 'V', source_column_index: 1 }],
      nan_counts: { U: 1 },
    });
    expect(await ok(c.get(`/material_property_datasets/${d.id}/data`))).toEqual({ U: [0.8, null, 0.05] });

    const replaced = await send(
      org.api_key,
      'PATCH',
      `/material_property_datasets/${d.id}/file`,
      {},
      table([0, 1], [0.9, 0.1]),
    );
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({ data_version: 2, row_count: 2, nan_counts: { U: 0 } });
    expect(await ok(c.get(`/material_property_datasets/${d.id}/data`))).toEqual({ U: [0.9, 0.1] });
    const prefix = `orgs/${org.organization_id}/projects/${project.id}/material_property_datasets/${d.id}/`;
    expect(await api.storage.list(prefix)).toEqual([`${prefix}v2.parquet`]);

    const { url } = await ok(c.get(`/material_property_datasets/${d.id}/download-url?kind=parquet`));
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect((await readParquet(new Uint8Array(await file.arrayBuffer())))['OCP [V]']).toEqual([0.9, 0.1]);

    expect(await ok(c.delete(`/material_property_datasets/${d.id}`))).toEqual({ id: d.id, deleted: true });
    expect((await c.get(`/material_property_datasets/${d.id}`)).status).toBe(404);
    await eventually(async () => (await api.storage.list(prefix)).length === 0, { what: 'the purge of the dataset' });
  });

  it('refuses bad files and specs at their field, storing nothing; keeps tenants apart', async () => {
    const { org, c, project, graphite } = await setup();
    const fields = { material_id: graphite.id, project_id: project.id, name: 'Bad' };
    const notParquet = await send(org.api_key, 'POST', '/material_property_datasets', fields, 'a,b\n1,2\n');
    expect(notParquet.status).toBe(422);
    expect(notParquet.body.detail[0].loc).toEqual(['body', 'file']);
    const outside = await send(
      org.api_key,
      'POST',
      '/material_property_datasets',
      { ...fields, columns: [{ name: 'x', source_column_index: 5 }] },
      table([0], [1]),
    );
    expect(outside.status).toBe(422);
    expect(outside.body.detail[0].loc).toEqual(['body', 'columns', 0, 'source_column_index']);
    const badJson = await send(
      org.api_key,
      'POST',
      '/material_property_datasets',
      { ...fields, columns: '[{' },
      table([0], [1]),
    );
    expect(badJson.status).toBe(422);
    expect(badJson.body.detail[0].loc).toEqual(['body', 'columns']);
    const noMaterial = await send(
      org.api_key,
      'POST',
      '/material_property_datasets',
      { ...fields, material_id: crypto.randomUUID() },
      table([0], [1]),
    );
    expect(noMaterial.status).toBe(422);
    expect(noMaterial.body.detail[0].loc).toEqual(['body', 'material_id']);
    const noFile = await send(org.api_key, 'POST', '/material_property_datasets', fields);
    expect(noFile.status).toBe(422);
    expect((await ok(c.get(`/material_property_datasets?material_id=${graphite.id}`))).total).toBe(0);
    expect(await api.storage.list(`orgs/${org.organization_id}/projects/${project.id}/`)).toEqual([]);

    const d = (await send(org.api_key, 'POST', '/material_property_datasets', fields, table([0, 1], [1, 2]))).body;
    const narrower = await send(
      org.api_key,
      'PATCH',
      `/material_property_datasets/${d.id}/file`,
      {},
      new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'Stoichiometry', data: [0], type: 'DOUBLE' }] })),
    );
    expect(narrower.status).toBe(422);
    expect(narrower.body.detail[0].loc).toEqual(['body', 'file', 'columns', 1, 'source_column_index']);
    expect((await ok(c.get(`/material_property_datasets/${d.id}`))).data_version).toBe(1);

    const other = await newOrg(api.orm);
    const oc = client(api.url, other.api_key);
    expect((await oc.get(`/material_property_datasets/${d.id}`)).status).toBe(403);
    expect((await oc.get(`/material_property_datasets/${d.id}/data`)).status).toBe(403);
    expect((await oc.delete(`/material_property_datasets/${d.id}`)).status).toBe(403);
    expect((await ok(oc.get(`/material_property_datasets?material_id=${graphite.id}`))).total).toBe(0);
    const intrude = await send(other.api_key, 'POST', '/material_property_datasets', fields, table([0], [1]));
    expect(intrude.status).toBe(403);
    const replace = await send(other.api_key, 'PATCH', `/material_property_datasets/${d.id}/file`, {}, table([0], [1]));
    expect(replace.status).toBe(403);
    // The catalogue is everyone's.
    expect((await ok(oc.get(`/materials/${graphite.id}`))).name).toBe('Graphite');
  });
});
