// The protocol operations of the API: DOE mistakes named at their field, validation, input
// references, the protocol schema and content-addressed experiment templates.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expandDoe, type DoeRequest } from '../../api/services/doe.ts';
import { client, newOrg, startApi, type TestApi } from '../harness.ts';

export function protocolOperationCases() {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it("names the field of each DOE mistake, the spec's rules by the validator and the rest by hand", async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const loc = async (doe: unknown) => {
      const res = await c.post('/simulations/protocol/batch', {
        parameterized_model: { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } },
        protocol_experiment: { protocol: 'Discharge at 1C until 2.5 V' },
        design_parameters_doe: doe,
      });
      expect(res.status, res.text).toBe(422);
      return (res.body.detail as { loc: (string | number)[] }[]).map((i) => i.loc.join('.'));
    };
    const at = 'body.design_parameters_doe';
    expect(await loc({ sampling: 'grid', rows: [{ type: 'discrete', name: 'a' }] })).toContain(`${at}.rows.0.values`);
    expect(await loc({ sampling: 'grid', rows: [{ type: 'range', name: 'a', min: 0, max: 1 }] })).toContain(
      `${at}.rows.0.count`,
    );
    expect(await loc({ sampling: 'random', rows: [{ type: 'range', name: 'a', min: 0, max: 1 }] })).toContain(
      `${at}.count`,
    );
    expect(await loc({ sampling: 'sobol', rows: [] })).toContain(`${at}.sampling`);
    const twice = [
      { type: 'discrete', name: 'a', values: [1] },
      { type: 'discrete', name: 'a', values: [2] },
    ];
    expect(await loc({ sampling: 'grid', rows: twice })).toEqual([`${at}.rows.1.name`]);
    expect(await loc({ rows: [{ type: 'range', name: 'a', min: 1, max: 0, count: 2 }] })).toEqual([`${at}.rows.0.max`]);
    const grid = (a: number, b: number) => ({
      sampling: 'grid',
      rows: [
        { type: 'range', name: 'a', min: 0, max: 1, count: a },
        { type: 'range', name: 'b', min: 0, max: 1, count: b },
      ],
    });
    expect(await loc(grid(101, 100))).toEqual([`${at}.rows`]);
    // 10,000 points is within the limit.
    expect(expandDoe(grid(100, 100) as DoeRequest)).toHaveLength(10_000);
  });

  it('validates, lists input references, serves the schema and stores content-addressed templates', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const ok = await c.post('/protocols/validate', { protocol: 'Discharge at 1C until 2.5 V' });
    expect(ok.body).toMatchObject({
      valid: true,
      format: 'pybamm',
      protocol: { steps: [{ Discharge: { mode: 'C-rate', value: 1 } }] },
    });
    const bad = await c.post('/protocols/validate', {
      protocol: { steps: [{ Charge: { mode: 'C-rate', value: 'x', ends: ['Voltage > 4'] } }] },
    });
    expect(bad.status).toBe(200);
    expect(bad.body.valid).toBe(false);
    expect(bad.body.error).toMatch(/steps\[0\] \(Charge\)\.value/);
    // What the worker would refuse is reported the same way, naming step and field.
    const loops = await c.post('/protocols/validate', {
      protocol: { steps: [{ Rest: { duration: 5 } }, { Rest: { duration: 5 } }, { Goto: { step: 0, repeat: 1001 } }] },
    });
    expect(loops.body).toMatchObject({ valid: false, loc: ['steps', 2, 'Goto', 'repeat'] });
    expect(loops.body.error).toMatch(/^steps\[2\] \(Goto\)\.repeat: .*max_backward_jumps=1000/);
    const zero = await c.post('/protocols/validate', { protocol: 'Discharge at 1C until 0 V' });
    expect(zero.body).toMatchObject({ valid: false, loc: ['steps', 0, 'Discharge', 'ends', 0] });
    expect(zero.body.error).toMatch(/^steps\[0\] \(Discharge\)\.ends\[0\]: the voltage threshold must be positive/);
    const hot = await c.post('/protocols/validate', {
      protocol: { global: { initial_temperature: -300 }, steps: [{ Rest: { duration: 5 } }] },
    });
    expect(hot.body).toMatchObject({ valid: false, loc: ['global', 'initial_temperature'] });
    const refs = await c.post('/protocols/input_references', {
      protocol: {
        global: { initial_state_type: 'soc_percentage', initial_state_value: "input['SOC']" },
        steps: [{ Discharge: { mode: 'C-rate', value: "input['Rate']", ends: ['Voltage < 3'] } }],
      },
    });
    expect(refs.body).toEqual(['SOC', 'Rate']);
    const schema = await c.get('/discovery/schemas/protocol');
    expect(schema.body.$schema).toMatch(/2020-12/);
    expect(schema.body.$defs.step.oneOf.map((s: { title: string }) => s.title)).toEqual([
      'Charge',
      'Discharge',
      'Rest',
      'Hold',
      'DriveCycle',
      'Goto',
    ]);
    const chems = await c.get('/discovery/chemistries');
    expect(chems.body.chemistries.map((x: { name: string }) => x.name)).toContain('NMC/Graphite');

    const project = (await c.post('/projects', { name: 'Protocols' })).body;
    const body = {
      protocol_experiment: { protocol: 'Rest for 1 hour', name: 'Rest' },
      project_id: project.id,
      experiment_parameters: {},
    };
    const first = await c.post('/protocols/parse-to-template', body);
    expect(first.status, first.text).toBe(200);
    expect((await c.post('/protocols/parse-to-template', body)).body.template_id).toBe(first.body.template_id);
    const other = await c.post('/protocols/parse-to-template', {
      ...body,
      protocol_experiment: { protocol: 'Rest for 2 hours', name: 'Rest' },
    });
    expect(other.body.template_id).not.toBe(first.body.template_id);
    const light = await c.get(`/experiment_templates?project_id=${project.id}`);
    expect(light.body.total).toBe(2);
    expect(light.body.items[0]).not.toHaveProperty('protocol_config');
    const heavy = await c.get(`/experiment_templates?project_id=${project.id}&include=protocol_config,source_protocol`);
    expect(heavy.body.items[0].protocol_config.steps[0].Rest.duration).toBeGreaterThan(0);
    expect(heavy.body.items[0]).not.toHaveProperty('parameters_schema');
    expect((await c.get(`/experiment_templates?include=colour`)).status).toBe(422);
    const renamed = await c.patch(`/experiment_templates/${first.body.template_id}`, {
      name: 'Long rest',
      description: 'one hour',
    });
    expect(renamed.body).toMatchObject({ name: 'Long rest', description: 'one hour' });
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await stranger.get(`/experiment_templates/${first.body.template_id}`)).status).toBe(403);
    expect((await c.delete(`/experiment_templates/${first.body.template_id}`)).body).toEqual({
      id: first.body.template_id,
      deleted: true,
    });
    expect((await c.get(`/experiment_templates/${first.body.template_id}`)).status).toBe(404);
    const [doc] = await api.orm.em
      .fork()
      .execute(`select name from search_documents where entity_type = 'experiment_template' and entity_id = ?`, [
        other.body.template_id,
      ]);
    expect(doc).toEqual({ name: 'Rest' });

    // A protocol the worker would refuse is not stored as a template.
    const refused: [unknown, (string | number)[]][] = [
      [
        {
          steps: [
            ...Array.from({ length: 100 }, () => ({ Rest: { duration: 1 } })),
            { Goto: { step: 0, repeat: 500 } },
          ],
        },
        ['steps'],
      ],
      [
        { steps: [{ Hold: { mode: 'voltage', value: 4.2, ends: ['Current < -0.05'] } }] },
        ['steps', 0, 'Hold', 'ends', 0],
      ],
      [
        {
          global: { initial_state_type: 'soc_percentage', initial_state_value: 120 },
          steps: [{ Rest: { duration: 1 } }],
        },
        ['global', 'initial_state_value'],
      ],
    ];
    for (const [protocol, loc] of refused) {
      const res = await c.post('/protocols/parse-to-template', {
        ...body,
        protocol_experiment: { protocol, name: 'Refused' },
      });
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'protocol_experiment', 'protocol', ...loc]);
    }
    expect((await c.get(`/experiment_templates?project_id=${project.id}`)).body.total).toBe(1);
    // Loops beyond the default cap make a template: each batch counts them against its own max_backward_jumps.
    const ageing = await c.post('/protocols/parse-to-template', {
      ...body,
      protocol_experiment: {
        protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 1500 } }] },
        name: 'Ageing',
      },
    });
    expect(ageing.status, ageing.text).toBe(200);
  });
}
