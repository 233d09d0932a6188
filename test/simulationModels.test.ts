// Models, parameterized models, studies and search documents, against the real API and the
// Python worker (which builds every model before it is stored).
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { apiForSuite, client, eventually, newOrg } from './harness.ts';
import { labFixture, measurement, ok } from './inventoryHelpers.ts';
import { ENGINE_BUILD } from '../api/services/simulationWorker.ts';

vi.setConfig({ testTimeout: 180_000 });

const api = apiForSuite({ python: true });

function upload(key: string, fields: Record<string, string>, file?: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file !== undefined) form.append('file', new Blob([file], { type: 'application/json' }), 'model.json');
  return fetch(`${api.url}/models/upload-custom`, {
    method: 'POST',
    headers: { 'X-API-Key': key, Accept: 'application/json' },
    body: form,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

async function searchDoc(type: string, id: string) {
  const rows = await api.orm.em
    .fork()
    .execute(`select name, project_id from search_documents where entity_type = ? and entity_id = ?`, [type, id]);
  return rows[0];
}

describe('models', () => {
  it('stores built models with the PyBaMM version, lists, renames and deletes them', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const created = await c.post('/models', {
      name: 'SPM thin',
      config: { type: 'SPM', parameters: { 'Negative electrode thickness [m]': 7e-5 } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'SPM thin',
      is_custom_model: false,
      organization_id: org.organization_id,
      user_id: org.user_id,
      created_by_email: org.email,
    });
    expect(created.body.simulator_version).toMatch(/^26\./);
    // The engine the reuse hash and description cache name is the one the worker runs.
    expect(ENGINE_BUILD).toContain(`pybamm ${created.body.simulator_version};`);
    expect(created.body.config).toMatchObject({ kind: 'pybamm', type: 'SPM', parameter_set: 'Chen2020' });
    const bad = await c.post('/models', {
      name: 'Broken',
      config: { type: 'SPM', parameters: { 'Flux capacitance [F]': 1 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'config', 'parameters', 'Flux capacitance [F]']);
    expect(bad.body.detail[0].msg).toMatch(/Flux capacitance/);
    const negative = await c.post('/models', {
      name: 'Negative',
      config: { type: 'SPM', parameters: { 'Negative electrode thickness [m]': -7e-5 } },
    });
    expect(negative.status).toBe(422);
    expect(negative.body.detail[0].loc).toEqual(['body', 'config', 'parameters', 'Negative electrode thickness [m]']);
    expect(negative.body.detail[0].msg).toContain('is negative');

    // simulation_settings may name PyBaMM submeshes and spatial methods by domain (docs/spec/simulation.md).
    const meshed = await c.post('/models', {
      name: 'SPM Chebyshev',
      config: {
        type: 'SPM',
        simulation_settings: {
          submesh_types: { 'negative particle': 'Chebyshev1DSubMesh' },
          spatial_methods: { macroscale: 'FiniteVolume' },
        },
      },
    });
    expect(meshed.status, meshed.text).toBe(201);
    expect(meshed.body.config.simulation_settings).toMatchObject({
      submesh_types: { 'negative particle': 'Chebyshev1DSubMesh' },
    });
    const badMesh = await c.post('/models', {
      name: 'Bad mesh',
      config: { type: 'SPM', simulation_settings: { submesh_types: { 'negative particle': 'Warp1DSubMesh' } } },
    });
    expect(badMesh.status).toBe(422);
    expect(badMesh.body.detail[0].msg).toMatch(/submesh_types/);
    await c.delete(`/models/${meshed.body.id}`);

    const custom = await upload(
      org.api_key,
      { name: 'Uploaded', description: 'from a file' },
      JSON.stringify({ type: 'ECM' }),
    );
    expect(custom.status, JSON.stringify(custom.body)).toBe(201);
    expect(custom.body).toMatchObject({ name: 'Uploaded', is_custom_model: true, chemistry: 'lithium_ion' });
    // A compressed multipart body (clients compress bodies of 512 KiB and more) is inflated.
    const form = new FormData();
    form.append('name', 'Compressed');
    form.append('file', new Blob([JSON.stringify({ type: 'ECM' })], { type: 'application/json' }), 'model.json');
    const encoded = new Request('http://x/', { method: 'POST', body: form });
    const compressed = await fetch(`${api.url}/models/upload-custom`, {
      method: 'POST',
      body: gzipSync(Buffer.from(await encoded.arrayBuffer())),
      headers: {
        'X-API-Key': org.api_key,
        Accept: 'application/json',
        'Content-Type': encoded.headers.get('content-type')!,
        'Content-Encoding': 'gzip',
      },
    });
    const compressedBody = (await compressed.json()) as { name: string; id: string };
    expect(compressed.status, JSON.stringify(compressedBody)).toBe(201);
    expect(compressedBody.name).toBe('Compressed');
    await c.delete(`/models/${compressedBody.id}`);
    const corrupt = await fetch(`${api.url}/models/upload-custom`, {
      method: 'POST',
      body: gzipSync(
        Buffer.from(await new Request('http://x/', { method: 'POST', body: form }).arrayBuffer()),
      ).subarray(0, 40),
      headers: {
        'X-API-Key': org.api_key,
        Accept: 'application/json',
        'Content-Type': encoded.headers.get('content-type')!,
        'Content-Encoding': 'gzip',
      },
    });
    const corruptBody = (await corrupt.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(corrupt.status, JSON.stringify(corruptBody)).toBe(422);
    expect(corruptBody.detail[0]).toMatchObject({
      loc: ['body'],
      msg: expect.stringContaining('could not be inflated'),
    });
    const zstd = await fetch(`${api.url}/models/upload-custom`, {
      method: 'POST',
      body: Buffer.from(await new Request('http://x/', { method: 'POST', body: form }).arrayBuffer()),
      headers: {
        'X-API-Key': org.api_key,
        'Content-Type': encoded.headers.get('content-type')!,
        'Content-Encoding': 'zstd',
      },
    });
    expect(zstd.status).toBe(415);

    const notJson = await upload(org.api_key, { name: 'Garbage' }, '{not json');
    expect(notJson.status).toBe(422);
    expect(notJson.body.detail[0].loc).toEqual(['body', 'file']);
    const unbuildable = await upload(
      org.api_key,
      { name: 'Odd', chemistry: 'ecm' },
      JSON.stringify({ type: 'Warp drive' }),
    );
    expect(unbuildable.status).toBe(422);
    expect(unbuildable.body.detail[0].msg).toMatch(/model\.type/);

    const list = await c.get('/models?order_by=name&order=asc');
    expect(list.body).toMatchObject({ count: 2, total: 2 });
    expect(list.body.items.map((m: { name: string }) => m.name)).toEqual(['SPM thin', 'Uploaded']);
    expect((await c.patch(`/models/${custom.body.id}`, { name: 'Renamed' })).body.name).toBe('Renamed');
    expect(await searchDoc('model', custom.body.id)).toMatchObject({ name: 'Renamed' });
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await stranger.get(`/models/${custom.body.id}`)).status).toBe(403);
    expect((await stranger.get('/models')).body.total).toBe(0);
    expect((await c.delete(`/models/${custom.body.id}`)).body).toEqual({ id: custom.body.id, deleted: true });
    expect(await searchDoc('model', custom.body.id)).toBeUndefined();
    const types = await c.get('/discovery/pybamm_models');
    expect(types.body.items.map((t: { type: string }) => t.type)).toEqual(['SPM', 'SPMe', 'DFN', 'ECM']);
  });

  it('simulates a parameterized model by id, with its variable names', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Models' })).body;
    const model = (await c.post('/models', { name: 'ECM', config: { type: 'ECM' } })).body;
    const unknown = await c.post('/parameterized_models', {
      project_id: project.id,
      model_id: model.id,
      name: 'Bad',
      parameters: { 'Warp factor [-]': 2 },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'parameters', 'Warp factor [-]']);
    const pm = await c.post('/parameterized_models', {
      project_id: project.id,
      model_id: model.id,
      name: 'ECM low R',
      parameters: { 'R0 [Ohm]': 0.0005 },
    });
    expect(pm.status, pm.text).toBe(201);
    expect(await searchDoc('parameterized_model', pm.body.id)).toMatchObject({
      name: 'ECM low R',
      project_id: project.id,
    });
    // The model is described (and its description kept) by now: a negative resistance is still refused.
    const negative = await c.patch(`/parameterized_models/${pm.body.id}`, { parameters: { 'R0 [Ohm]': -0.0005 } });
    expect(negative.status, negative.text).toBe(422);
    expect(negative.body.detail[0]).toMatchObject({ loc: ['body', 'parameters', 'R0 [Ohm]'], input: -0.0005 });
    expect(negative.body.detail[0].msg).toContain('is negative');
    const listed = await c.get(`/parameterized_models/${pm.body.id}/variable-names`);
    expect(listed.body).toContain('Open-circuit voltage [V]');
    const names = await c.get(`/parameterized_models/${pm.body.id}/variable-names?detail=true`);
    expect(names.body.variable_names).toEqual(listed.body);
    expect(names.body.variable_names).toContain('Open-circuit voltage [V]');
    // The equivalent circuit's distributed state of charge varies along its own axis: no column.
    expect(names.body.spatial_variable_names).toContain('Distributed SoC');
    expect(names.body.variable_names).not.toContain('Distributed SoC');
    expect(names.body.parameter_names).toContain('R0 [Ohm]');
    expect((await c.get(`/parameterized_models?project_id=${project.id}`)).body.total).toBe(1);
    expect((await c.delete(`/models/${model.id}`)).status).toBe(409);

    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: pm.body.id,
      protocol_experiment: { protocol: 'Discharge at 10 A for 10 minutes', name: 'ECM pulse' },
      extra_variables: ['Open-circuit voltage [V]'],
    });
    expect(res.status, res.text).toBe(200);
    const job = await eventually(
      async () => {
        const j = (await c.get(`/jobs/${res.body[0].job_id}`)).body;
        return j.is_terminal ? j : undefined;
      },
      { timeoutMs: 120_000, what: 'ECM job' },
    );
    expect(job.status, JSON.stringify(job)).toBe('completed');
    const sim = (await c.get(`/simulations/${res.body[0].simulation_id}`)).body;
    expect(sim).toMatchObject({
      parameterized_model_id: pm.body.id,
      project_id: project.id,
      extra_variables: ['Open-circuit voltage [V]'],
    });
    expect(sim.metrics.discharge_capacity_ah).toBeCloseTo(10 / 6, 2);
    expect(
      (await c.get(`/simulations?parameterized_model_id=${pm.body.id}`)).body.items.map((s: { id: string }) => s.id),
    ).toEqual([sim.id]);
    expect(await searchDoc('simulation', sim.id)).toMatchObject({ name: 'ECM pulse', project_id: project.id });
  });
});

describe('cell specifications of models', () => {
  const linksAParameterizedOrTitle =
    'links a parameterized or quick model to a cell specification of its own organization ' +
    'only; deleting the specification unlinks';
  it(linksAParameterizedOrTitle, async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const other = client(api.url, (await newOrg(api.orm)).api_key);
    const { project, spec } = await labFixture(c, { channels: 0 });
    const foreign = (await labFixture(other, { channels: 0 })).spec;
    const model = (await c.post('/models', { name: 'ECM', config: { type: 'ECM' } })).body;
    const pmBody = { project_id: project.id, model_id: model.id, name: 'ECM of a cell' };
    for (const id of [foreign.id, crypto.randomUUID()]) {
      const refused = await c.post('/parameterized_models', { ...pmBody, cell_spec_id: id });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(['body', 'cell_spec_id']);
    }
    const pm = await ok(c.post('/parameterized_models', { ...pmBody, cell_spec_id: spec.id }), 201);
    expect(pm.cell_spec_id).toBe(spec.id);
    expect((await c.get(`/parameterized_models?project_id=${project.id}`)).body.total).toBe(1);

    const quick = (cellSpecId: unknown) =>
      c.post('/simulations/protocol/batch', {
        parameterized_model: { quick_model: { capacity: 5, chemistry: 'NMC/Graphite', cell_spec_id: cellSpecId } },
        protocol_experiment: { protocol: 'Discharge at 1C for 1 minute', name: 'linked' },
        project_id: project.id,
      });
    for (const [id, loc] of [
      [foreign.id, 'cell_spec_id'],
      ['xx', 'cell_spec_id'],
    ] as const) {
      const refused = await quick(id);
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(['body', 'parameterized_model', 'quick_model', loc]);
    }
    const sims = await c.get('/simulations?limit=100');
    expect(sims.body.total).toBe(0);
    const linked = await ok(quick(spec.id.toUpperCase()));
    const [batch] = await api.orm.em
      .fork()
      .execute<{ model_config: { cell_spec_id?: string } }[]>(
        `select b.model_config from simulation_batches b join simulations s on s.batch_id = b.id where s.id = ?`,
        [linked[0].simulation_id],
      );
    expect(batch!.model_config.cell_spec_id).toBe(spec.id);

    await ok(c.delete(`/cell_specifications/${spec.id}`));
    expect((await ok(c.get(`/parameterized_models/${pm.id}`))).cell_spec_id).toBeNull();
  });
});

describe('studies', () => {
  it('creates, lists, renames and deletes studies and links simulations idempotently', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Studies' })).body;
    const created = await c.post(`/projects/${project.id}/studies`, { name: 'Ageing', description: 'cycle life' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/projects/${project.id}/studies/${created.body.id}`);
    const dup = await c.post(`/projects/${project.id}/studies`, { name: 'Ageing' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail.existing_id).toBe(created.body.id);
    expect(await searchDoc('study', created.body.id)).toMatchObject({ name: 'Ageing', project_id: project.id });

    const sims = await c.post('/simulations/protocol/batch', {
      parameterized_model: { quick_model: { capacity: 3, chemistry: 'NCA/Graphite' } },
      protocol_experiment: { protocol: 'Rest for 5 minutes' },
      project_id: project.id,
    });
    const simId = sims.body[0].simulation_id;
    const base = `/projects/${project.id}/studies/${created.body.id}`;
    for (let i = 0; i < 2; i++) {
      const link = await c.post(`${base}/simulations/${simId}`);
      expect(link.status, link.text).toBe(200);
      expect(link.body).toEqual({ study_id: created.body.id, simulation_id: simId, linked: true });
    }
    const got = await c.get(base);
    expect(got.body).toMatchObject({ simulation_ids: [simId], measurement_ids: [], simulation_count: 1 });
    expect((await c.get(`/simulations?study_id=${created.body.id}`)).body.total).toBe(1);
    expect((await c.delete(`${base}/simulations/${simId}`)).body.linked).toBe(false);
    expect((await c.delete(`${base}/simulations/${simId}`)).status).toBe(200);
    expect((await c.get(base)).body.simulation_ids).toEqual([]);
    expect((await c.post(`${base}/measurements/${crypto.randomUUID()}`)).status).toBe(404);

    expect((await c.patch(base, { name: 'Ageing 2' })).body.name).toBe('Ageing 2');
    const list = await c.get(`/projects/${project.id}/studies?name=ilike.%25ageing%25`);
    expect(list.body).toMatchObject({ count: 1, total: 1 });
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await stranger.get(base)).status).toBe(403);
    expect((await c.delete(base)).body).toEqual({ id: created.body.id, deleted: true });
    expect((await c.get(base)).status).toBe(404);
    expect(await searchDoc('study', created.body.id)).toBeUndefined();
  });
  const linksMeasurementsOfItsTitle =
    'links measurements of its project idempotently, and refuses those of another project or ' + 'organization';
  it(linksMeasurementsOfItsTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c);
    const run = await measurement(c, lab.instance.id);
    const study = await ok(c.post(`/projects/${lab.project.id}/studies`, { name: 'Formation' }), 201);
    const base = `/projects/${lab.project.id}/studies/${study.id}`;
    for (let i = 0; i < 2; i++) {
      expect(await ok(c.post(`${base}/measurements/${run.id}`))).toEqual({
        study_id: study.id,
        measurement_id: run.id,
        linked: true,
      });
    }
    expect(await ok(c.get(base))).toMatchObject({ measurement_ids: [run.id], simulation_ids: [] });

    const other = await labFixture(c);
    const elsewhere = await measurement(c, other.instance.id);
    const wrongProject = await c.post(`${base}/measurements/${elsewhere.id}`);
    expect(wrongProject.status).toBe(422);
    expect(wrongProject.body.detail[0].loc).toEqual(['path', 'measurement_id']);
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    const foreign = await measurement(stranger, (await labFixture(stranger)).instance.id);
    expect((await c.post(`${base}/measurements/${foreign.id}`)).status).toBe(404);
    expect((await ok(c.get(base))).measurement_ids).toEqual([run.id]);

    expect(await ok(c.delete(`${base}/measurements/${run.id}`))).toEqual({
      study_id: study.id,
      measurement_id: run.id,
      linked: false,
    });
    expect((await ok(c.get(base))).measurement_ids).toEqual([]);
  });
});
