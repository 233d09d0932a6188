// Pipelines and simple pipelines against the real API, database and Temporal server (the
// TypeScript worker runs entries and calculations; fits are in pipelineFaults.test.ts).
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, eventually, newMember, newOrg } from './harness.ts';
import { PROJECT_ROLES } from '../db/roles.ts';
import { CellarElementType, CellarProject, CellarStatus } from '../workflows/searchAttributes.ts';
import { insertMeasurement } from './pipelineHelpers.ts';

const api = apiForSuite();

async function setup() {
  const org = await newOrg(api.orm);
  const c = client(api.url, org.api_key);
  const project = (await c.post('/projects', { name: `P ${Math.random()}` })).body;
  return { org, c, project };
}

const GEOMETRY = {
  element_type: 'entry',
  values: { 'Positive electrode thickness [m]': 75e-6, 'Electrode height [m]': 0.065, 'Electrode width [m]': 1.58 },
};

describe('pipelines', () => {
  it('runs entry + calculations in order, each receiving the values before it, with one job per element', async () => {
    const { c, project } = await setup();
    const res = await c.post('/pipelines', {
      project_id: project.id,
      name: 'NMC geometry',
      description: 'volume fraction then capacity',
      elements: {
        geometry: GEOMETRY,
        volume_fraction: {
          element_type: 'calculation',
          type: 'electrode_volume_fraction',
          electrode: 'positive',
          mass_loading: 20,
          active_material_mass_fraction: 0.95,
          active_material_density: 4700,
        },
        capacity: {
          element_type: 'calculation',
          type: 'electrode_capacity',
          electrode: 'positive',
          max_concentration: 51765,
          stoichiometry_window: 0.7,
        },
      },
      options: { note: 'kept' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'NMC geometry',
      status: 'pending',
      is_terminal: false,
      is_failed: false,
      options: { note: 'kept' },
    });
    expect(res.body.workflow_id).toBe(`pipeline-${res.body.id}`);
    const done = await eventually(
      async () => {
        const r = await c.get(`/pipelines/${res.body.id}`);
        return r.body.is_terminal ? r.body : null;
      },
      { what: 'pipeline to finish' },
    );
    expect(done).toMatchObject({ status: 'completed', is_failed: false });

    // ε = 20 mg/cm² · 0.01 · 0.95 / (4700 kg/m³ · 75 µm) = 0.539; Q = F·c·ε·L·A·Δx/3600.
    const eps = (20 * 0.01 * 0.95) / (4700 * 75e-6);
    const q = (96485.33212 * 51765 * eps * 75e-6 * 0.065 * 1.58 * 0.7) / 3600;
    const result = await c.get(`/pipelines/${res.body.id}/result`);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.element_results)).toEqual(['geometry', 'volume_fraction', 'capacity']);
    expect(result.body.element_results.geometry.parameter_values).toEqual(GEOMETRY.values);
    expect(
      result.body.element_results.volume_fraction.parameter_values[
        'Positive electrode active material volume fraction'
      ],
    ).toBeCloseTo(eps, 10);
    expect(result.body.element_results.capacity.parameter_values['Positive electrode capacity [A.h]']).toBeCloseTo(
      q,
      8,
    );
    expect(result.body.result.parameter_values).toMatchObject({
      ...GEOMETRY.values,
      'Positive electrode capacity [A.h]': expect.any(Number),
    });

    const elements = await c.get(`/pipelines/${res.body.id}/elements`);
    expect(elements.body.map((e: { name: string }) => e.name)).toEqual(['geometry', 'volume_fraction', 'capacity']);
    for (const e of elements.body) {
      expect(e).toMatchObject({ status: 'completed', attempts: 1, is_terminal: true });
      expect(e.workflow_id).toBe(`pipeline-${res.body.id}-element-${e.name}`);
      const job = await c.get(`/jobs/${e.job_id}`);
      expect(job.status).toBe(200);
      expect(job.body).toMatchObject({
        job_id: e.job_id,
        status: 'completed',
        job_type: 'pipeline_element',
        is_terminal: true,
      });
    }

    // Operators see it in Temporal: search attributes and memo.
    const desc = await api.temporal.workflow.getHandle(`pipeline-${res.body.id}`).describe();
    expect(await desc.memo).toMatchObject({ pipeline_name: 'NMC geometry' });
    expect(desc.typedSearchAttributes.get(CellarProject)).toBe(project.id);
    const child = await api.temporal.workflow.getHandle(`pipeline-${res.body.id}-element-capacity`).describe();
    expect(child.typedSearchAttributes.get(CellarElementType)).toBe('calculation');
    expect(child.typedSearchAttributes.get(CellarStatus)).toBe('completed');

    // A later pipeline starts from this one's values.
    const next = await c.post('/pipelines', {
      project_id: project.id,
      name: 'from previous',
      elements: {
        previous: { element_type: 'entry', pipeline_id: res.body.id },
        mass: {
          element_type: 'calculation',
          type: 'initial_soc_from_voltage',
          voltage: 3.7,
          ocv: { soc: [0, 0.5, 1], voltage: [3.0, 3.6, 4.2] },
        },
      },
    });
    expect(next.status).toBe(201);
    await eventually(async () => (await c.get(`/pipelines/${next.body.id}`)).body.status === 'completed', {
      what: 'second pipeline',
    });
    const r2 = await c.get(`/pipelines/${next.body.id}/result`);
    expect(r2.body.element_results.previous.parameter_values['Positive electrode capacity [A.h]']).toBeCloseTo(q, 8);
    expect(r2.body.element_results.mass.parameter_values['Initial SOC [%]']).toBeCloseTo(
      100 * (0.5 + (0.1 / 0.6) * 0.5),
      8,
    );
  });

  const failsAnElementWithTitle =
    'fails an element with the exception type and a diagnostic link, never the message; ' +
    'admins read the diagnostic';
  it(failsAnElementWithTitle, async () => {
    const { org, c, project } = await setup();
    const res = await c.post('/pipelines', {
      project_id: project.id,
      name: 'missing input',
      elements: {
        cap: { element_type: 'calculation', type: 'electrode_capacity', electrode: 'negative' },
        after: GEOMETRY,
      },
    });
    const done = await eventually(async () => {
      const r = await c.get(`/pipelines/${res.body.id}`);
      return r.body.is_terminal ? r.body : null;
    });
    expect(done).toMatchObject({ status: 'failed', is_failed: true });
    expect(done.error_detail).toMatchObject({
      exception_type: 'CalculationError',
      error_code: 'CONFIGURATION_ERROR',
      element_name: 'cap',
    });
    expect(JSON.stringify(done.error_detail)).not.toContain('missing input');
    const elements = (await c.get(`/pipelines/${res.body.id}/elements`)).body;
    expect(elements[0]).toMatchObject({ status: 'failed', error_code: 'CONFIGURATION_ERROR', attempts: 1 });
    expect(elements[0].attempt_log[0]).toMatchObject({
      attempt: 1,
      status: 'failed',
      error_code: 'CONFIGURATION_ERROR',
    });
    // A configuration error is not retried: the element after it will never run, and says so.
    expect(elements[1]).toMatchObject({ status: 'canceled', is_terminal: true });
    expect((await c.get(`/jobs/${elements[1].job_id}`)).body).toMatchObject({
      status: 'canceled',
      is_terminal: true,
      error: 'not run: an earlier element ("cap") failed',
    });
    const job = await c.get(`/jobs/${elements[0].job_id}`);
    expect(job.body).toMatchObject({ status: 'failed', error_code: 'CONFIGURATION_ERROR', is_failed: true });
    expect(job.body.error).not.toContain('missing input');

    const diag = await c.get(done.error_detail.diagnostic_url);
    expect(diag.status).toBe(200);
    expect(diag.body).toMatchObject({ exception_type: 'CalculationError', error_code: 'CONFIGURATION_ERROR' });
    expect(diag.body.message).toContain('missing input');
    expect(diag.body.stack_trace).toContain('CalculationError');

    // A contributor may read the pipeline but not the diagnostic; another organization gets 403.
    const member = await newMember(api.orm, org.organization_id);
    await c.post(`/projects/${project.id}/members`, { user_id: member.user_id, project_role_id: PROJECT_ROLES[1].id });
    const mc = client(api.url, member.api_key);
    expect((await mc.get(`/pipelines/${res.body.id}`)).status).toBe(200);
    expect((await mc.get(done.error_detail.diagnostic_url)).status).toBe(403);
    const other = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await other.get(done.error_detail.diagnostic_url)).status).toBe(403);
    expect((await other.get(`/pipelines/${res.body.id}`)).status).toBe(403);
  });

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

  it('lists with limit/skip, patches, deletes, and joins search', async () => {
    const { c, project } = await setup();
    const ids: string[] = [];
    for (const name of ['alpha run', 'beta run', 'gamma run']) {
      ids.push((await c.post('/pipelines', { project_id: project.id, name, elements: { g: GEOMETRY } })).body.id);
    }
    const page = await c.get(`/pipelines?limit=2&skip=1&project_id=${project.id}`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.pipelines.map((p: { name: string }) => p.name)).toEqual(['beta run', 'alpha run']);
    const negative = await c.get('/pipelines?skip=-1');
    expect(negative.status).toBe(422);
    expect(negative.body.detail[0].loc).toEqual(['query', 'skip']);

    const patched = await c.patch(`/pipelines/${ids[0]}`, { name: 'alpha renamed', description: 'now described' });
    expect(patched.body).toMatchObject({ name: 'alpha renamed', description: 'now described' });
    const found = await c.get('/search?q=renamed');
    expect(found.body.results.map((x: { id: string }) => x.id)).toContain(ids[0]);

    expect((await c.delete(`/pipelines/${ids[1]}`)).body).toEqual({ id: ids[1], deleted: true });
    expect((await c.get(`/pipelines/${ids[1]}`)).status).toBe(404);
    expect((await c.get('/search?q=beta')).body.results.map((x: { id: string }) => x.id)).not.toContain(ids[1]);
  });

  const renamesARunningPipelineTitle =
    "renames a running pipeline's workflow memo and its running element's (PATCH under " +
    '/pipelines and /simple_pipelines)';
  it(renamesARunningPipelineTitle, async () => {
    const { c, project } = await setup();
    // No Python worker listens in this suite: the fit stays running.
    const fit = {
      element_type: 'data_fit',
      model: { kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' },
      parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
      data: { 'Time [s]': [0, 1, 2], 'Current [A]': [2, 2, 2], 'Voltage [V]': [4.1, 4.09, 4.08] },
    };
    const full = (
      await c.post('/pipelines', { project_id: project.id, name: 'before', elements: { fit, after: GEOMETRY } })
    ).body;
    const simple = (
      await c.post('/simple_pipelines', { project_id: project.id, name: 'simple before', elements: { fit } })
    ).body;
    const memo = async (workflowId: string) =>
      (await api.temporal.workflow.getHandle(workflowId).describe()).memo ?? {};
    for (const [id, path, name] of [
      [full.id, 'pipelines', 'after rename'],
      [simple.id, 'simple_pipelines', 'simple after rename'],
    ] as const) {
      await eventually(async () => (await c.get(`/pipelines/${id}/elements`)).body[0].status === 'running', {
        what: 'the fit to run',
      });
      const patched = await c.patch(`/${path}/${id}`, { name });
      expect(patched.status).toBe(200);
      expect(patched.body.name).toBe(name);
      await eventually(async () => (await memo(`pipeline-${id}`)).pipeline_name === name, {
        what: 'the pipeline memo to follow',
      });
      await eventually(async () => (await memo(`pipeline-${id}-element-fit`)).pipeline_name === name, {
        what: 'the element memo to follow',
      });
      expect((await memo(`pipeline-${id}-element-fit`)).element_name).toBe('fit');
    }
    // A description-only PATCH leaves the memo alone; a finished pipeline is renamed in the database only.
    expect((await c.patch(`/pipelines/${full.id}`, { description: 'described' })).status).toBe(200);
    expect((await memo(`pipeline-${full.id}`)).pipeline_name).toBe('after rename');
    expect((await c.post('/pipelines/cancel', { pipeline_ids: [full.id, simple.id] })).status).toBe(200);
    await eventually(
      async () => (await api.temporal.workflow.getHandle(`pipeline-${full.id}`).describe()).status.name !== 'RUNNING',
      { what: 'the pipeline to end' },
    );
    const late = await c.patch(`/pipelines/${full.id}`, { name: 'renamed after the end' });
    expect(late.status).toBe(200);
    expect((await memo(`pipeline-${full.id}`)).pipeline_name).toBe('after rename');
  });

  it("passes an array_data_fit's per_dataset mode to the Python worker's fitParametersArray", async () => {
    const { c, project } = await setup();
    // No Python worker listens in this suite: the fit stays scheduled, and its request can be read.
    const data = { 'Time [s]': [0, 1, 2], 'Current [A]': [2, 2, 2], 'Voltage [V]': [4.1, 4.09, 4.08] };
    const fits = {
      element_type: 'array_data_fit',
      model: { kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' },
      mode: 'per_dataset',
      parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
      independent_variable: 'Cycle number',
      datasets: [
        { value: 0, data },
        { value: 500, data },
      ],
    };
    const created = await c.post('/pipelines', { project_id: project.id, name: 'per data set', elements: { fits } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await c.get(`/pipelines/${id}/elements`)).body[0].config.mode).toBe('per_dataset');
    const scheduled = async () => {
      const history = await api.temporal.workflow.getHandle(`pipeline-${id}-element-fits`).fetchHistory();
      const event = history.events?.find(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fitParametersArray',
      );
      const payload = event?.activityTaskScheduledEventAttributes?.input?.payloads?.[0];
      return payload?.data ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : undefined;
    };
    const request = await eventually(scheduled, { what: 'the array fit to be scheduled' });
    expect(request).toMatchObject({ mode: 'per_dataset', independent_variable: 'Cycle number' });
    expect(request.datasets.map((d: { value: number }) => d.value)).toEqual([0, 500]);
    expect((await c.post(`/pipelines/${id}/cancel`, {})).status).toBe(200);
  });

  it('serves simple pipelines: 202 pending, newest first with limit 10, PATCH, cancel, DELETE', async () => {
    const { c, project } = await setup();
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await c.post('/simple_pipelines', {
        project_id: project.id,
        name: `simple ${i}`,
        elements: { g: GEOMETRY },
      });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({
        status: 'pending',
        project_id: project.id,
        organization_id: project.organization_id,
      });
      made.push(r.body.id);
    }
    const list = await c.get('/simple_pipelines');
    expect(list.body).toMatchObject({ count: 10, total: 12 });
    expect(list.body.items[0].id).toBe(made[11]);
    const filtered = await c.get(`/simple_pipelines?name=eq.simple%203`);
    expect(filtered.body.items.map((p: { id: string }) => p.id)).toEqual([made[3]]);
    expect((await c.patch(`/simple_pipelines/${made[0]}`, { name: 'renamed' })).body.name).toBe('renamed');
    const canceled = await c.post(`/simple_pipelines/${made[1]}/cancel`);
    expect(canceled.body).toMatchObject({ status: 'canceled', is_terminal: true, is_failed: true });
    expect((await c.delete(`/simple_pipelines/${made[2]}`)).status).toBe(200);
    // A regular pipeline is not a simple one.
    const regular = (await c.post('/pipelines', { project_id: project.id, name: 'regular', elements: { g: GEOMETRY } }))
      .body;
    expect((await c.get(`/simple_pipelines/${regular.id}`)).status).toBe(404);
  });

  it('bulk cancel validates its body and reports unknown and foreign ids without touching them', async () => {
    const { c, project } = await setup();
    const other = await setup();
    expect((await c.post('/pipelines/cancel', { pipeline_ids: [] })).status).toBe(422);
    expect((await c.post('/pipelines/cancel', { pipeline_ids: ['not-a-uuid'] })).status).toBe(422);
    const tooMany = Array.from({ length: 1001 }, () => crypto.randomUUID());
    expect((await c.post('/pipelines/cancel', { pipeline_ids: tooMany })).status).toBe(422);

    const foreign = (
      await other.c.post('/pipelines', { project_id: other.project.id, name: 'theirs', elements: { g: GEOMETRY } })
    ).body;
    await eventually(async () => (await other.c.get(`/pipelines/${foreign.id}`)).body.status === 'completed');
    const mine = (await c.post('/pipelines', { project_id: project.id, name: 'mine', elements: { g: GEOMETRY } })).body;
    await eventually(async () => (await c.get(`/pipelines/${mine.id}`)).body.status === 'completed');
    const unknown = crypto.randomUUID();
    const r = await c.post('/pipelines/cancel', { pipeline_ids: [mine.id, foreign.id, unknown] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      canceled_pipeline_ids: [mine.id],
      not_found_pipeline_ids: [foreign.id, unknown],
      forbidden_pipeline_ids: [],
    });
    expect((await other.c.get(`/pipelines/${foreign.id}`)).body.status).toBe('completed');
    // From any state: the completed pipeline is canceled, its completed element keeps its result.
    expect((await c.get(`/pipelines/${mine.id}`)).body.status).toBe('canceled');
    const els = (await c.get(`/pipelines/${mine.id}/elements`)).body;
    expect(els[0]).toMatchObject({ status: 'completed', result: { parameter_values: GEOMETRY.values } });
  });
});

describe('simulation boards', () => {
  it("saves views of a study's simulations: CRUD, only the study's simulations, names unique per study", async () => {
    const { org, c, project } = await setup();
    const study = (await c.post(`/projects/${project.id}/studies`, { name: 'Rate study' })).body;
    const simId = await insertSimulation(org.organization_id, project.id, org.user_id);
    expect((await c.post(`/projects/${project.id}/studies/${study.id}/simulations/${simId}`)).status).toBeLessThan(300);
    const base = `/projects/${project.id}/studies/${study.id}/simulation_boards`;
    const plots = [
      {
        title: 'Discharge',
        x: { variable: 'Time [s]' },
        y: { variables: ['Voltage [V]', 'Current [A]'], scale: 'linear' },
      },
    ];
    const made = await c.post(base, { name: 'Overview', simulation_ids: [simId], plots });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Overview', study_id: study.id, simulation_ids: [simId], plots });
    expect((await c.post(base, { name: 'Overview' })).body).toMatchObject({
      error_code: 'CONFLICT',
      detail: { existing_id: made.body.id },
    });
    const stranger = crypto.randomUUID();
    const bad = await c.post(base, { name: 'Other', simulation_ids: [stranger] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'simulation_ids', 0]);
    expect(
      (await c.post(base, { name: 'Bad axis', plots: [{ x: { variable: 'Time [s]' }, y: { variables: [] } }] })).status,
    ).toBe(422);
    expect((await c.get(base)).body).toMatchObject({ count: 1, total: 1 });
    const patched = await c.patch(`${base}/${made.body.id}`, { name: 'Renamed', simulation_ids: [] });
    expect(patched.body).toMatchObject({ name: 'Renamed', simulation_ids: [] });
    expect((await c.get(`${base}/${made.body.id}`)).body.name).toBe('Renamed');
    const other = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await other.get(`${base}/${made.body.id}`)).status).toBe(403);
    expect((await c.delete(`${base}/${made.body.id}`)).body).toEqual({ id: made.body.id, deleted: true });
    expect((await c.get(`${base}/${made.body.id}`)).status).toBe(404);
  });
});

/** A simulation row (with its batch and job), as a submission would leave it. */
async function insertSimulation(orgId: string, projectId: string, userId: string): Promise<string> {
  const em = api.orm.em.fork();
  const [batch, job, sim] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  await em.execute(
    `insert into simulation_batches (id, organization_id, project_id, name, model_config, protocol, simulator_version,
      size, created_by)
     values (?, ?, ?, 'b', '{}', '{}', '26.0', 1, ?)`,
    [batch, orgId, projectId, userId],
  );
  await em.execute(
    `insert into jobs (id, organization_id, project_id, job_type, status, created_by)
      values (?, ?, ?, 'simulation', 'completed', ?)`,
    [job, orgId, projectId, userId],
  );
  await em.execute(
    `insert into simulations (id, organization_id, project_id, batch_id, seq, job_id, name, content_hash, created_by)
      values (?, ?, ?, ?, 0, ?, 's', 'h', ?)`,
    [sim, orgId, projectId, batch, job, userId],
  );
  return sim;
}
