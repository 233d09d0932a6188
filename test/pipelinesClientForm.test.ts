// Pipelines in the Python client's ionworks-schema form against the real API, database and
// Temporal server: calculations run by the TypeScript worker, the refusals of what the engine
// cannot run (naming the client's fields), and the series reads' boundaries. A fit and a
// validation in this form, run by the real client, are in test/client/test_pipelines.py.
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, eventually, newOrg } from './harness.ts';

const api = apiForSuite();

async function setup() {
  const org = await newOrg(api.orm);
  const c = client(api.url, org.api_key);
  const project = (await c.post('/projects', { name: `P ${Math.random()}` })).body;
  return { org, c, project };
}

const FARADAY = 96485.33212;
const MISSING = '00000000-0000-4000-8000-000000000000';
// As iws.DataFit(...).to_config() serializes it (objective_parallelism included).
const fit = (over: Record<string, unknown> = {}, objective: Record<string, unknown> = {}) => ({
  element_type: 'data_fit',
  objectives: { discharge: { type: 'CurrentDriven', data: `db:${MISSING}`, options: { model: 'SPM' }, ...objective } },
  parameters: { 'Negative particle radius [m]': { initial_value: 5e-6, bounds: [1e-6, 1e-5] } },
  objective_parallelism: 'auto',
  ...over,
});

describe('pipelines in ionworks-schema form', () => {
  it('runs DirectEntry, AreaToSquareWidthHeight and ElectrodeCapacity, answered as PassthroughResults', async () => {
    const { c, project } = await setup();
    const entry = {
      element_type: 'entry',
      source: 'datasheet',
      values: {
        'Electrode area [m2]': 0.0064,
        'Positive electrode thickness [m]': 75e-6,
        'Maximum concentration in positive electrode [mol.m-3]': 51765,
        'Positive electrode active material volume fraction': 0.6,
      },
    };
    const res = await c.post('/pipelines', {
      project_id: project.id,
      elements: {
        known: entry,
        geometry: { type: 'AreaToSquareWidthHeight', element_type: 'calculation' },
        capacity: {
          electrode: 'positive',
          use_stoich_window: false,
          method: 'auto',
          type: 'ElectrodeCapacity',
          element_type: 'calculation',
        },
      },
      options: {},
    });
    expect(res.status, res.text).toBe(201);
    await eventually(async () => (await c.get(`/pipelines/${res.body.id}`)).body.status === 'completed', {
      what: 'the pipeline to complete',
    });
    const result = (await c.get(`/pipelines/${res.body.id}/result`)).body;
    expect(result.element_results.geometry).toEqual({
      type: 'PassthroughResult',
      calculation: 'area_to_square_width_height',
      parameter_values: { 'Electrode height [m]': 0.08, 'Electrode width [m]': 0.08 },
    });
    expect(result.element_results.capacity.type).toBe('PassthroughResult');
    expect(result.element_results.capacity.parameter_values['Positive electrode capacity [A.h]']).toBeCloseTo(
      (FARADAY * 51765 * 0.6 * 75e-6 * 0.0064) / 3600,
      10,
    );
    // What is stored and run is the engine's form.
    const elements = (await c.get(`/pipelines/${res.body.id}/elements`)).body;
    expect(elements.map((e: { config: unknown }) => e.config)).toEqual([
      { values: entry.values, source: 'datasheet' },
      { type: 'area_to_square_width_height' },
      { type: 'electrode_capacity', electrode: 'positive' },
    ]);
    // An entry's job stored no series.
    expect((await c.get(`/jobs/${elements[0].job_id}/series/channels`)).body).toEqual({});
    const none = await c.get(`/jobs/${elements[0].job_id}/series?objective=known`);
    expect(none.status).toBe(422);
    expect(none.body.detail[0].loc).toEqual(['query', 'source']);
    const wrong = await c.get(`/jobs/${elements[0].job_id}/series?objective=other`);
    expect(wrong.body.detail[0].loc).toEqual(['query', 'objective']);
    expect((await c.get(`/jobs/${elements[0].job_id}/metadata`)).status).toBe(404);
    expect((await c.get(`/pipelines/datafits/${elements[0].job_id}/plot_data?objective_name=known`)).status).toBe(404);
    // Another organization's job is refused as GET /jobs/{id} refuses it; an unknown one is not found.
    const other = await setup();
    expect((await other.c.get(`/jobs/${elements[0].job_id}`)).status).toBe(403);
    expect((await other.c.get(`/jobs/${elements[0].job_id}/series/channels`)).status).toBe(403);
    expect((await c.get(`/jobs/${MISSING}/series/channels`)).status).toBe(404);
    expect((await c.delete(`/pipelines/${res.body.id}`)).status).toBe(200);
    expect((await c.get(`/jobs/${elements[0].job_id}/series/channels`)).status).toBe(404);
  });

  it("refuses what the engine cannot run with a 422 naming the client's field, and creates nothing", async () => {
    const { c, project } = await setup();
    const post = (elements: unknown) => c.post('/pipelines', { project_id: project.id, elements });
    const cases: [unknown, (string | number)[]][] = [
      [fit({}, { type: 'OCPHalfCell' }), ['objectives', 'discharge', 'type']],
      // Several objectives are one joint fit: they share the model (and may differ in their data).
      [
        fit({ objectives: { a: fit().objectives.discharge, b: { ...fit().objectives.discharge, options: {} } } }),
        ['objectives', 'b', 'options'],
      ],
      [
        fit({ cost: { type: 'RMSE', objective_weights: { discharge: -1 } } }),
        ['cost', 'objective_weights', 'discharge'],
      ],
      [
        { element_type: 'validation', objectives: { a: fit().objectives.discharge, b: fit().objectives.discharge } },
        ['objectives'],
      ],
      [fit({}, { options: { model: 'MPM' } }), ['objectives', 'discharge', 'options', 'model']],
      [
        fit({}, { options: { parameterized_model_id: MISSING } }),
        ['objectives', 'discharge', 'options', 'parameterized_model_id'],
      ],
      [fit({ optimizer: { type: 'CMAES' } }), ['optimizer', 'type']],
      [fit({ optimizer: { type: 'ScipyMinimize', method: 'BFGS' } }), ['optimizer', 'method']],
      [fit({ cost: { type: 'GaussianLogLikelihood' } }), ['cost']],
      [fit({ multistarts: 4 }), ['multistarts']],
      [fit({ options: { seed: 3 } }), ['options', 'seed']],
      [
        fit({ parameters: { 'Negative particle radius [m]': { initial_value: 5e-6, bounds: [1e-5, 1e-6] } } }),
        ['parameters', 'Negative particle radius [m]', 'bounds'],
      ],
      [
        fit({ parameters: { x: { initial_value: 1, bounds: [0, 2], prior: { type: 'Normal' } } } }),
        ['parameters', 'x', 'prior'],
      ],
      [{ element_type: 'validation', objectives: fit().objectives, output_file: 'x.json' }, ['output_file']],
      [{ element_type: 'calculation', type: 'CellMass' }, ['type']],
      [
        {
          element_type: 'calculation',
          type: 'ElectrodeCapacity',
          electrode: 'positive',
          use_stoich_window: true,
          method: 'auto',
        },
        ['use_stoich_window'],
      ],
    ];
    for (const [element, loc] of cases) {
      const r = await post({ fit: element });
      expect(r.status, JSON.stringify(element)).toBe(422);
      expect(r.body.detail[0].loc, JSON.stringify(r.body.detail)).toEqual(['body', 'elements', 'fit', ...loc]);
    }
    // A measurement that does not exist is named where the client gave it.
    const r = await post({ fit: fit() });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'fit', 'objectives', 'discharge', 'data']);
    // In a DataFit of several objectives, by the objective's position.
    const two = fit({ objectives: { a: fit().objectives.discharge, b: fit().objectives.discharge } });
    const joint = await post({ fit: two });
    expect(joint.status).toBe(422);
    expect(joint.body.detail[0].loc).toEqual(['body', 'elements', 'fit', 'objectives', 0, 'data']);
    expect((await c.get(`/pipelines?project_id=${project.id}`)).body.total).toBe(0);
  });
});
