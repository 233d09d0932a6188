// A pipeline refused before anything starts: a 4xx naming the field for each bad element, data,
// optimizer, size or permission.
import { expect, it } from 'vitest';
import { client, eventually, newMember, type TestApi } from '../harness.ts';
import { PROJECT_ROLES } from '../../db/roles.ts';
import { insertMeasurement } from '../pipelineHelpers.ts';
import { GEOMETRY, pipelineHelpers } from './helpers.ts';

export function pipelineRefusalCases(api: TestApi) {
  const { setup } = pipelineHelpers(api);

  it('rejects bad input with a 4xx naming the field, and starts nothing', async () => {
    const { c, project } = await setup();
    const other = await setup();
    const post = (elements: unknown) => c.post('/pipelines', { project_id: project.id, name: 'bad', elements });
    const fit = {
      element_type: 'data_fit',
      model: { type: 'SPMe' },
      data: { 'Time [s]': [0, 1, 2], 'Current [A]': [1, 1, 1], 'Voltage [V]': [4, 3.9, 3.8] },
    };

    let r = await post({ a: { element_type: 'magic' } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'elements', 'a', 'element_type'] });
    expect(r.body.detail[0].msg).toContain('data_fit');

    r = await post({ c: { element_type: 'calculation', type: 'alchemy' } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toContain('electrode_volume_fraction');

    r = await post({ f: { ...fit } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'f', 'parameters']);

    r = await post({
      f: { ...fit, parameters: { 'Negative particle radius [m]': { bounds: [2e-6, 1e-6], initial_value: 1.5e-6 } } },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual([
      'body',
      'elements',
      'f',
      'parameters',
      'Negative particle radius [m]',
      'bounds',
    ]);

    const rows = Array.from({ length: 1001 }, (_, i) => i);
    r = await post({
      f: {
        ...fit,
        parameters: { x: { bounds: [0, 1], initial_value: 0.5 } },
        data: { 'Time [s]': rows, 'Voltage [V]': rows },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toContain('1001 rows');

    r = await post({
      f: { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5 } }, data: `db:${crypto.randomUUID()}` },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'f', 'data']);

    // Measurements of another organization, and ones still processing.
    const foreign = await insertMeasurement(
      api.orm,
      other.org.organization_id,
      other.project.id,
      other.org.user_id,
      'ready',
    );
    r = await post({ f: { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5 } }, data: `db:${foreign}` } });
    expect(r.status).toBe(403);
    const processing = await insertMeasurement(
      api.orm,
      project.organization_id,
      project.id,
      project.created_by,
      'running',
    );
    r = await post({
      f: { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5 } }, data: `db:${processing}` },
    });
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('still processing');
    // A series longer than a fit may use needs a time_range picking the part to fit.
    const long = await insertMeasurement(api.orm, project.organization_id, project.id, project.created_by, 'ready');
    await api.orm.em
      .fork()
      .execute(`update cell_measurements set row_count = ? where id = ?`, [api.config.fitMaxRows + 1, long]);
    r = await post({ f: { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5 } }, data: `db:${long}` } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'elements', 'f', 'data'], type: 'too_long' });
    expect(r.body.detail[0].msg).toContain('time_range');
    r = await post({
      f: {
        ...fit,
        parameters: { x: { bounds: [0, 1], initial_value: 0.5 } },
        data: `db:${long}`,
        time_range: [600, 60],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'f', 'time_range']);
    // With one it is accepted (in another project: this one must stay empty); canceled at once, its data being a
    // stand-in.
    const windowed = (await c.post('/projects', { name: 'windowed' })).body;
    const part = await insertMeasurement(api.orm, project.organization_id, windowed.id, project.created_by, 'ready');
    await api.orm.em
      .fork()
      .execute(`update cell_measurements set row_count = ? where id = ?`, [api.config.fitMaxRows + 1, part]);
    r = await c.post('/pipelines', {
      project_id: windowed.id,
      name: 'part',
      elements: {
        f: {
          ...fit,
          parameters: { x: { bounds: [0, 1], initial_value: 0.5 } },
          data: `db:${part}`,
          time_range: [0, 3600],
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    expect((await c.post(`/pipelines/${r.body.id}/cancel`)).status).toBe(200);
    expect((await c.get(`/pipelines/${r.body.id}/elements`)).body[0].config.time_range).toEqual([0, 3600]);
    // With a protocol driving the model, inline data need no current (also in that project; canceled at once).
    r = await c.post('/pipelines', {
      project_id: windowed.id,
      name: 'driven',
      elements: {
        f: {
          ...fit,
          parameters: { x: { bounds: [0, 1], initial_value: 0.5 } },
          data: { 'Time [s]': [0, 1, 2], 'Voltage [V]': [4, 3.9, 3.8] },
          protocol: 'Discharge at 1C for 2 seconds',
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    expect((await c.post(`/pipelines/${r.body.id}/cancel`)).status).toBe(200);

    const array = {
      element_type: 'array_data_fit',
      model: fit.model,
      parameters: { x: { bounds: [0, 1], initial_value: 0.5 } },
      independent_variable: 'C-rate',
      datasets: [{ value: 1, data: fit.data }],
    };
    r = await post({ f: { ...array, mode: 'both' } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'f', 'mode']);

    // The optimizer is checked as the worker checks it.
    const optimizerCases: [unknown, unknown, (string | number)[]][] = [
      [{ method: 'BFGS' }, undefined, ['optimizer', 'method']],
      [{ method: 'least_squares' }, 'MAE', ['optimizer', 'method']],
      [{ max_iterations: 0 }, undefined, ['optimizer', 'max_iterations']],
      [{ tolerance: -1 }, undefined, ['optimizer', 'tolerance']],
      [{ colour: 'red' }, undefined, ['optimizer', 'colour']],
    ];
    for (const [optimizer, cost, loc] of optimizerCases) {
      r = await post({
        f: { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5 } }, optimizer, ...(cost ? { cost } : {}) },
      });
      expect(r.status, JSON.stringify(optimizer)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'f', ...loc]);
    }
    r = await post({
      f: {
        ...array,
        datasets: [
          { value: 1, data: fit.data },
          { value: 2, data: fit.data },
        ],
        optimizer: { method: 'least_squares' },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toContain('SSE');

    r = await c.post('/simple_pipelines', {
      project_id: project.id,
      name: 'two fits',
      elements: {
        a: { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5 } } },
        b: { element_type: 'validation', model: { type: 'SPM' }, data: fit.data },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toContain('at most one');

    // Names that are whole numbers would run first, whatever their place; too little inline data.
    r = await post({ load: GEOMETRY, 1: { element_type: 'calculation', type: 'cell_mass' } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', '1']);
    r = await post({
      f: {
        ...fit,
        parameters: { x: { bounds: [0, 1], initial_value: 0.5 } },
        data: { 'Time [s]': [0, 1], 'Voltage [V]': [4, 3.9] },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toContain('at least 3 rows');
    r = await post({
      f: { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5 } }, data: { 'Voltage [V]': [4, 3.9, 3.8] } },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'f', 'data', 'Time [s]']);

    // Parameter values travel in the workflows' inputs, which Temporal limits: a bound, at the field.
    const many = (n: number, from = 0) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${from + i}`, i]));
    r = await post({ e: { element_type: 'entry', values: many(2001) } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'elements', 'e', 'values'], type: 'too_long' });
    r = await post({
      e1: { element_type: 'entry', values: many(1500) },
      e2: { element_type: 'entry', values: many(1500, 1500) },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'e2', 'values']);

    // What the worker would fail the fit on is refused here, at the field.
    const x = { x: { bounds: [0, 1], initial_value: 0.5 } };
    const runTimeCases: [unknown, (string | number)[], string][] = [
      [
        { ...fit, parameters: { x: { bounds: [0, 1], initial_value: 0.5, scale: 'log' } } },
        ['parameters', 'x', 'bounds'],
        'positive lower bound',
      ],
      [
        { ...fit, parameters: x, data: { 'Time [s]': [0, 1, 2], 'Current [A]': [1, 1, 1] } },
        ['data', 'Voltage [V]'],
        'target',
      ],
      [
        { ...fit, parameters: x, data: { 'Time [s]': [0, 1, 2], 'Voltage [V]': [4, 3.9, 3.8] } },
        ['data', 'Current [A]'],
        'protocol',
      ],
      [{ ...fit, parameters: x, target: 'Terminal voltage [V]' }, ['data', 'Terminal voltage [V]'], 'target'],
      [{ ...fit, parameters: x, target: '' }, ['target'], 'variable name'],
      [{ ...fit, parameters: x, data: { ...fit.data, 'Time [s]': [0, 2, 1] } }, ['data', 'Time [s]', 2], 'decreases'],
    ];
    for (const [element, loc, msg] of runTimeCases) {
      r = await post({ f: element });
      expect(r.status, r.text).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'elements', 'f', ...loc]);
      expect(r.body.detail[0].msg).toContain(msg);
    }
    // A stored series must hold the target; one whose processing failed is never usable.
    const stored = await insertMeasurement(api.orm, project.organization_id, project.id, project.created_by, 'ready');
    await api.orm.em
      .fork()
      .execute(`update cell_measurements set data_columns = ? where id = ?`, [
        JSON.stringify(['Time [s]', 'Current [A]', 'Voltage [V]']),
        stored,
      ]);
    r = await post({ f: { ...fit, parameters: x, data: `db:${stored}`, target: 'Temperature [degC]' } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({
      loc: ['body', 'elements', 'f', 'data'],
      ctx: { missing: ['Temperature [degC]'] },
    });
    const failed = await insertMeasurement(api.orm, project.organization_id, project.id, project.created_by, 'failed');
    r = await post({ f: { ...fit, parameters: x, data: `db:${failed}` } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toContain('failed processing');

    // An entry copies another pipeline's results: the caller must be able to read that pipeline.
    const theirs = (await c.post('/projects', { name: 'Theirs' })).body;
    const source = (await c.post('/pipelines', { project_id: theirs.id, name: 'source', elements: { g: GEOMETRY } }))
      .body;
    await eventually(async () => (await c.get(`/pipelines/${source.id}`)).body.status === 'completed');
    const member = await newMember(api.orm, project.organization_id);
    await c.post(`/projects/${project.id}/members`, { user_id: member.user_id, project_role_id: PROJECT_ROLES[1].id });
    const mc = client(api.url, member.api_key);
    expect((await mc.get(`/pipelines/${source.id}`)).status).toBe(403);
    r = await mc.post('/pipelines', {
      project_id: project.id,
      name: 'copy',
      elements: { prev: { element_type: 'entry', pipeline_id: source.id } },
    });
    expect(r.status).toBe(403);
    expect(r.body.detail).toMatchObject({
      loc: ['body', 'elements', 'prev', 'pipeline_id'],
      permission: 'pipeline:read',
    });

    const count = await api.orm.em
      .fork()
      .execute<{ n: string }[]>(`select count(*) as n from pipelines where project_id = ?`, [project.id]);
    expect(Number(count[0]!.n)).toBe(0);
  });
}
