// Custom variables and serialised models against the real API and Python worker: who may add a
// variable, what a refused one changes (nothing), and that the model's variables then include it.
import { describe, expect, it, vi } from 'vitest';
import { apiForSuite, client, newMember, newOrg } from './harness.ts';

vi.setConfig({ testTimeout: 180_000 });

const api = apiForSuite({ python: true });
const POWER = { name: 'Power out [W]', expression: 'Voltage [V] * Current [A]' };

describe('POST /models/{id}/custom-variables', () => {
  it("adds a variable the model's parameterized models then have; others of the organization cannot", async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Custom variables' })).body;
    const model = await c.post('/models', { name: 'ECM', config: { type: 'ECM' } });
    expect(model.status, model.text).toBe(201);
    const path = `/models/${model.body.id}/custom-variables`;

    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await stranger.post(path, POWER)).status).toBe(403);
    const member = client(api.url, (await newMember(api.orm, org.organization_id)).api_key);
    expect((await member.post(path, POWER)).status).toBe(403);
    const missing = await c.post(path, { name: 'x' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'expression']);
    const unknown = await c.post(path, { name: 'x', expression: 'Warp factor [1] * 2' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'expression'] });
    expect(unknown.body.detail[0].msg).toContain('Warp');
    const clash = await c.post(path, { name: 'Voltage [V]', expression: 'Current [A]' });
    expect(clash.status).toBe(422);
    expect(clash.body.detail[0].loc).toEqual(['body', 'name']);
    expect((await c.get(`/models/${model.body.id}`)).body.config.custom_variables).toBeUndefined();

    const added = await c.post(path, POWER);
    expect(added.status, added.text).toBe(200);
    expect(added.body.config.custom_variables).toEqual([POWER]);
    const pm = await c.post('/parameterized_models', {
      name: 'ECM as is',
      model_id: model.body.id,
      project_id: project.id,
      parameters: {},
    });
    expect(pm.status, pm.text).toBe(201);
    const names = await c.get(`/parameterized_models/${pm.body.id}/variable-names`);
    expect(names.body).toContain('Power out [W]');
  });
});

describe('POST /discovery/ionworks_models/serialize', () => {
  it('answers 422 naming the field for a model the engine does not build', async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const res = await c.post('/discovery/ionworks_models/serialize', { name: 'LumpedSPMR' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'name']);
    expect(res.body.detail[0].msg).toContain('SPMe');
    const options = await c.post('/discovery/ionworks_models/serialize', { name: 'ECM', options: [] });
    expect(options.status).toBe(422);
    expect(options.body.detail[0].loc).toEqual(['body', 'options']);
  });
});
