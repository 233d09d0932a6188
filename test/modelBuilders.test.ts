// Model builders over HTTP without the Python worker: bad recipes and bodies are 422s naming the
// field and change nothing, names are unique per model (409 existing_id), other organizations and
// members without a project role are refused, and what a mapping reads (with unit conversion),
// the resolved specification and the calculations catalogue are answered.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiForSuite, client, newMember, newOrg } from './harness.ts';
import { ok, uniq } from './inventoryHelpers.ts';

const api = apiForSuite();
type Client = ReturnType<typeof client>;
let owner: Client;
let foreign: Client;
let member: Client;
let projectId: string;
let modelId: string;
let specId: string;

const entry = (mapping: Record<string, string>) => ({ elements: { spec: { element_type: 'entry', mapping } } });

beforeAll(async () => {
  const a = await newOrg(api.orm);
  owner = client(api.url, a.api_key);
  foreign = client(api.url, (await newOrg(api.orm)).api_key);
  member = client(api.url, (await newMember(api.orm, a.organization_id)).api_key);
  projectId = (await ok(owner.post('/projects', { name: uniq('Builders') }), 201)).id;
  // Stored directly: creating a model through the API asks the Python worker to build it.
  modelId = randomUUID();
  await api.orm.em
    .fork()
    .execute(
      `insert into models (id, organization_id, user_id, name, config, simulator_version) values (?, ?, ?, ?, ?, ?)`,
      [modelId, a.organization_id, a.user_id, 'SPMe', JSON.stringify({ type: 'SPMe' }), 'test'],
    );
  specId = (
    await ok(
      owner.post('/cell_specifications', {
        project_id: projectId,
        name: uniq('Spec'),
        cathode: { properties: { thickness: { value: 75.6, unit: 'um' }, loading: { value: 20, unit: 'mg/cm^2' } } },
        properties: { area: 0.1 },
      }),
      201,
    )
  ).id;
});

describe('model builders', () => {
  it('refuses bad recipes and bodies with a 422 naming the field, creating nothing', async () => {
    const base = { project_id: projectId, model_id: modelId, name: uniq('B') };
    const cases: [unknown, (string | number)[]][] = [
      [
        { elements: { fit: { element_type: 'data_fit', objectives: {} } } },
        ['body', 'config', 'elements', 'fit', 'element_type'],
      ],
      [{ elements: { v: { element_type: 'validation' } } }, ['body', 'config', 'elements', 'v', 'element_type']],
      [
        { elements: { spec: { element_type: 'entry', cell_spec_id: specId, mapping: { 'A [m]': 'x' } } } },
        ['body', 'config', 'elements', 'spec', 'cell_spec_id'],
      ],
      [entry({ 'A [m]': 'has space' }), ['body', 'config', 'elements', 'spec', 'mapping', 'A [m]']],
      [
        { elements: { c: { element_type: 'calculation', type: 'Nonsense' } } },
        ['body', 'config', 'elements', 'c', 'type'],
      ],
      [
        { elements: { c: { element_type: 'calculation', type: 'ElectrodeCapacity', electrode: 'middle' } } },
        ['body', 'config', 'elements', 'c', 'electrode'],
      ],
      [{ elements: { e: { element_type: 'entry' } } }, ['body', 'config', 'elements', 'e', 'mapping']],
    ];
    for (const [config, loc] of cases) {
      const res = await owner.post('/model_builders', { ...base, config });
      expect(res.status, JSON.stringify(config)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
    }
    const noModel = await owner.post('/model_builders', {
      ...base,
      model_id: randomUUID(),
      config: entry({ 'A [m]': 'x' }),
    });
    expect(noModel.status).toBe(422);
    expect(noModel.body.detail[0].loc).toEqual(['body', 'model_id']);
    const noConfig = await owner.post('/model_builders', base);
    expect(noConfig.status).toBe(422);
    expect(JSON.stringify(noConfig.body.detail)).toContain('config');
    const list = await ok(owner.get(`/model_builders?project_id=${projectId}`));
    expect(list.total).toBe(0);
  });

  it('keeps names unique per model and refuses other organizations and members without a role', async () => {
    const name = uniq('Default');
    const body = {
      project_id: projectId,
      model_id: modelId,
      name,
      config: entry({ 'Electrode area [m2]': 'properties.area' }),
    };
    const b = await ok(owner.post('/model_builders', body), 201);
    expect(b).toMatchObject({ name, model_id: modelId, project_id: projectId, description: null });
    const again = await owner.post('/model_builders', body);
    expect(again.status).toBe(409);
    expect(again.body.detail.existing_id).toBe(b.id);

    expect((await owner.get(`/model_builders/${randomUUID()}`)).status).toBe(404);
    expect((await foreign.get(`/model_builders/${b.id}`)).status).toBe(403);
    expect((await foreign.patch(`/model_builders/${b.id}`, { name: 'Stolen' })).status).toBe(403);
    expect((await foreign.delete(`/model_builders/${b.id}`)).status).toBe(403);
    expect((await member.patch(`/model_builders/${b.id}`, { name: 'Mine' })).status).toBe(403);
    expect((await member.delete(`/model_builders/${b.id}`)).status).toBe(403);
    expect((await foreign.get('/model_builders')).body.items).toEqual([]);
    expect((await foreign.post(`/model_builders/${b.id}/check`, { cell_spec_id: specId })).status).toBe(403);
    expect((await foreign.get(`/cell_specifications/${specId}/resolved`)).status).toBe(403);
    // Another organization's specification named in a body is not revealed: a 422 at the field.
    const theirs = await foreign.post('/model_builders/preview_mapping', { cell_spec_id: specId, mapping: {} });
    expect(theirs.status).toBe(422);
    expect(theirs.body.detail[0].loc).toEqual(['body', 'cell_spec_id']);
    expect((await ok(owner.get(`/model_builders/${b.id}`))).name).toBe(name);
    // A field a builder does not have is ignored, never written.
    const patched = await ok(owner.patch(`/model_builders/${b.id}`, { description: 'datasheet', colour: 'red' }));
    expect(patched).toMatchObject({ name, description: 'datasheet' });
    expect(patched.colour).toBeUndefined();

    const badPatch = await owner.patch(`/model_builders/${b.id}`, {
      config: { elements: { f: { element_type: 'data_fit' } } },
    });
    expect(badPatch.status).toBe(422);
    expect(badPatch.body.detail[0].loc).toEqual(['body', 'config', 'elements', 'f', 'element_type']);
    const save = await owner.post(`/model_builders/${b.id}/build`, { cell_spec_id: specId, save: true });
    expect(save.status).toBe(422);
    expect(save.body.detail[0].loc).toEqual(['body', 'name']);
    const unknownSpec = await owner.post(`/model_builders/${b.id}/build`, { cell_spec_id: randomUUID() });
    expect(unknownSpec.status).toBe(422);
    expect(unknownSpec.body.detail[0].loc).toEqual(['body', 'cell_spec_id']);
    expect((await ok(owner.get(`/model_builders/${b.id}`))).config).toEqual(body.config);
    const modelInUse = await owner.delete(`/models/${modelId}`);
    expect(modelInUse.status).toBe(409);
    expect(modelInUse.body.detail.model_builders).toBe(1);
    expect((await ok(owner.delete(`/model_builders/${b.id}`))).deleted).toBe(true);
    expect((await owner.get(`/model_builders/${b.id}`)).status).toBe(404);
  });

  it('previews a mapping with unit conversion and says why a line cannot be read', async () => {
    const preview = await ok(
      owner.post('/model_builders/preview_mapping', {
        cell_spec_id: specId,
        mapping: {
          'Positive electrode thickness [m]': 'cathode.properties.thickness',
          'Positive electrode loading [kg.m-2]': 'cathode.properties.loading',
          'Positive electrode porosity': 'cathode.properties.porosity',
          'Positive electrode width [s]': 'cathode.properties.thickness',
          'Electrode area [m2]': 'properties.area',
        },
      }),
    );
    expect(preview['Positive electrode thickness [m]']).toEqual({
      found: '75.6 um',
      converted: '7.56e-05 m',
      curve: null,
      issue: null,
    });
    expect(preview['Positive electrode loading [kg.m-2]'].converted).toBe('0.2 kg.m-2');
    expect(preview['Positive electrode porosity'].issue).toContain('cathode.properties.porosity is not set');
    expect(preview['Positive electrode width [s]'].issue).toContain('cannot be converted');
    expect(preview['Electrode area [m2]']).toMatchObject({ found: '0.1', converted: '0.1 m2' });
  });

  it('answers the resolved specification and the calculations producing a parameter', async () => {
    const resolved = await ok(owner.get(`/cell_specifications/${specId}/resolved`));
    expect(resolved.cathode.properties.thickness).toEqual({ value: 75.6, unit: 'um' });
    expect(resolved.organization_id).toBeUndefined();
    const height = await ok(
      owner.get(`/model_builders/calculations/producing?parameter=${encodeURIComponent('Electrode height [m]')}`),
    );
    expect(height.map((c: { type: string }) => c.type)).toContain('AreaToSquareWidthHeight');
    const capacity = await ok(
      owner.get(
        `/model_builders/calculations/producing?parameter=${encodeURIComponent('Negative electrode capacity [A.h]')}`,
      ),
    );
    expect(capacity[0]).toMatchObject({
      type: 'ElectrodeCapacity',
      electrode: 'negative',
      element_type: 'calculation',
    });
    expect(await ok(owner.get('/model_builders/calculations/producing?parameter=Nothing'))).toEqual([]);
    expect((await owner.get(`/cell_specifications/${randomUUID()}/resolved`)).status).toBe(404);
  });
});
