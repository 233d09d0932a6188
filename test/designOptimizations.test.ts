// POST /optimizations with a design config: refusals name the field under config and create
// nothing. The model's parameter names come from the real Python worker.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { apiForSuite, client, newOrg } from './harness.ts';

vi.setConfig({ testTimeout: 180_000 });

const api = apiForSuite({ python: true });
const THICKNESS = 'Positive electrode thickness [m]';
const SPM = { model: { type: 'SPM', simulation_settings: { var_pts: { r_n: 6, r_p: 6 } } }, parameters: {} };

function design(change: Record<string, unknown> = {}) {
  return {
    type: 'design',
    model: SPM,
    protocol: 'Discharge at 1C until 3.0 V',
    parameters: { [THICKNESS]: { initial: 6e-5, bounds: [4e-5, 8e-5] } },
    objective: { metric: 'discharge capacity [A.h]', aim: 'maximize' },
    optimizer: { method: 'Nelder-Mead', max_iterations: 2 },
    ...change,
  };
}

describe('POST /optimizations (design)', () => {
  it('refuses bad bounds, start values, parameters, metrics and protocols, naming the field', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Designs' })).body;
    const post = (config: unknown) => c.post('/optimizations', { project_id: project.id, config });
    const param = (p: unknown) => design({ parameters: { [THICKNESS]: p } });
    const at = ['body', 'config', 'parameters', THICKNESS];

    const cases: [unknown, (string | number)[]][] = [
      [param({ initial: 6e-5, bounds: [8e-5, 4e-5] }), [...at, 'bounds']],
      [param({ initial: 6e-5, bounds: [6e-5, 6e-5] }), [...at, 'bounds']],
      [param({ initial: 9e-5, bounds: [4e-5, 8e-5] }), [...at, 'initial']],
      [param({ initial: 6e-5, bounds: [-1e-5, 8e-5] }), [...at, 'bounds', 0]],
      [
        design({ parameters: { 'Warp factor [1]': { initial: 1, bounds: [0, 2] } } }),
        at.slice(0, -1).concat('Warp factor [1]'),
      ],
      [design({ objective: { metric: 'happiness [1]' } }), ['body', 'config', 'objective', 'metric']],
      [design({ constraints: [{ metric: 'energy [W.h]', min: 5, max: 1 }] }), ['body', 'config', 'constraints', 0]],
      [design({ protocol: 'Discharge at lots until empty' }), ['body', 'config', 'protocol', 'steps', 0]],
      [design({ model: undefined }), ['body', 'config', 'model']],
    ];
    for (const [config, loc] of cases) {
      const res = await post(config);
      expect(res.status, JSON.stringify(config)).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown[] }) => d.loc)).toContainEqual(loc);
    }
    // A model as well as a parameterized model is refused before either is looked up.
    const both = await c.post('/optimizations', {
      project_id: project.id,
      parameterized_model_id: randomUUID(),
      config: design(),
    });
    expect(both.status).toBe(422);
    expect(both.body.detail[0].loc).toEqual(['body', 'config', 'model']);
    // Nothing was created by any refusal.
    expect((await c.get(`/optimizations?project_id=${project.id}`)).body.total).toBe(0);

    const ok = await post(design());
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ status: 'queued', parameter_names: [THICKNESS], config: { type: 'design' } });
    expect(ok.body.config.protocol.steps).toHaveLength(1);
    expect((await c.post(`/optimizations/${ok.body.id}/cancel`)).status).toBe(200);
  });
});
