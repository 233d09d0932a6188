// POST /fit-from-measurements and POST /fit-from-file against the real API, database, Temporal
// server and both workers: each becomes a simple pipeline with one data_fit element named "fit".
// Fits stay quick: the quick equivalent-circuit model, one parameter, a capped optimizer.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, eventually, newOrg } from './harness.ts';
import {
  dataEnv,
  generatedSeries,
  readParquet,
  settled,
  toCsv,
  uploadSeries,
  type Columns,
  type DataEnv,
} from './measurementDataHelpers.ts';
import { insertMeasurement, QUICK_MODEL, R0, TRUE_R0, quickDischarge } from './pipelineHelpers.ts';

vi.setConfig({ testTimeout: 240_000 });

let env: DataEnv;
beforeAll(async () => {
  env = await dataEnv('fs');
});
afterAll(async () => {
  await env?.close();
});

const TIME = 'Time [s]';
const CURRENT = 'Current [A]';
const VOLTAGE = 'Voltage [V]';
const PARAMETERS = { [R0]: { bounds: [0.001, 0.1], initial_value: 0.05 } };
// One parameter converges well within this; the default (200) only costs time.
const OPTIMIZER = { method: 'Nelder-Mead', max_iterations: 40 };

/** POST /fit-from-file with form fields (objects JSON-encoded) and an optional file part. */
async function postFile(
  key: string,
  fields: Record<string, unknown>,
  file?: { bytes: Uint8Array | string; name: string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  if (file) form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer> | string]), file.name);
  const res = await fetch(`${env.api.url}/fit-from-file`, {
    method: 'POST',
    headers: { 'X-API-Key': key, Accept: 'application/json' },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function finished(id: string) {
  return eventually(
    async () => {
      const r = await env.c.get(`/simple_pipelines/${id}`);
      return r.body.is_terminal ? r.body : null;
    },
    { what: `simple pipeline ${id} to finish`, timeoutMs: 180_000, intervalMs: 500 },
  );
}

/** The quick discharge as a measurement upload: steps numbered at each change between load and rest. */
function asMeasurement(data: Record<string, number[]>): Columns {
  let step = 0;
  const steps = data[CURRENT]!.map((i, k, all) => {
    if (k > 0 && Math.abs(i) < 1e-3 !== Math.abs(all[k - 1]!) < 1e-3) step++;
    return step;
  });
  return {
    [TIME]: data[TIME]!,
    [CURRENT]: data[CURRENT]!,
    [VOLTAGE]: data[VOLTAGE]!,
    'Step count': steps,
    'Cycle count': steps.map(() => 0),
  };
}

describe('fits from data', () => {
  it('fits a stored measurement: 202 with the simple pipeline, which completes with parameter_values', async () => {
    const data = await quickDischarge();
    const measurementId = await uploadSeries(env, toCsv(asMeasurement(data)));
    expect((await settled(env, measurementId)).processing_status).toBe('ready');

    const res = await env.c.post('/fit-from-measurements', {
      project_id: env.lab.project.id,
      name: 'R0 from the discharge',
      description: 'quick model',
      model: QUICK_MODEL,
      parameters: PARAMETERS,
      measurement_ids: [measurementId],
      cost: 'RMSE',
      optimizer: OPTIMIZER,
      time_range: [0, 1800], // the first half hour of the discharge
    });
    expect(res.status, res.text).toBe(202);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('location')).toBe(`/simple_pipelines/${res.body.id}`);
    expect(res.body).toMatchObject({
      name: 'R0 from the discharge',
      description: 'quick model',
      status: 'pending',
      is_terminal: false,
      project_id: env.lab.project.id,
      organization_id: env.org.organization_id,
    });
    // The same records as POST /simple_pipelines: one data_fit element reading the measurement.
    const elements = (await env.c.get(`/pipelines/${res.body.id}/elements`)).body;
    expect(elements).toHaveLength(1);
    expect(elements[0]).toMatchObject({ name: 'fit', element_type: 'data_fit' });
    expect(elements[0].config).toEqual({
      model: QUICK_MODEL,
      parameters: PARAMETERS,
      data: `db:${measurementId}`,
      cost: 'RMSE',
      optimizer: OPTIMIZER,
      time_range: [0, 1800],
    });
    const listed = (await env.c.get(`/simple_pipelines?project_id=${env.lab.project.id}`)).body.items.map(
      (p: { id: string }) => p.id,
    );
    expect(listed).toContain(res.body.id);

    expect(await finished(res.body.id)).toMatchObject({ status: 'completed', is_failed: false });
    const result = (await env.c.get(`/pipelines/${res.body.id}/result`)).body;
    expect(result.element_results.fit.parameter_values[R0]).toBeCloseTo(TRUE_R0, 2);
    expect(result.result.parameter_values[R0]).toBe(result.element_results.fit.parameter_values[R0]);

    // The time_range reaches the worker: a window after the data leaves it nothing to fit.
    const empty = await env.c.post('/fit-from-measurements', {
      project_id: env.lab.project.id,
      name: 'after the data',
      model: QUICK_MODEL,
      parameters: PARAMETERS,
      measurement_ids: [measurementId],
      time_range: [1e6, 2e6],
    });
    expect(empty.status, empty.text).toBe(202);
    expect(await finished(empty.body.id)).toMatchObject({ status: 'failed' });
    const [element] = (await env.c.get(`/pipelines/${empty.body.id}/elements`)).body;
    expect((await env.c.get(`/jobs/${element.job_id}`)).body).toMatchObject({
      status: 'failed',
      error_code: 'CONFIGURATION_ERROR',
    });
  });

  it("fits an uploaded CSV file: its fit columns become the element's inline data, and the fit completes", async () => {
    const data = await quickDischarge();
    // A column the fit does not read, and not a number, is left out.
    const csv = toCsv({ ...data, Label: data[TIME]!.map(() => 'discharge') });
    const res = await postFile(
      env.org.api_key,
      {
        project_id: env.lab.project.id,
        name: 'R0 from a CSV',
        model: QUICK_MODEL,
        parameters: PARAMETERS,
        optimizer: OPTIMIZER,
      },
      { bytes: csv, name: 'discharge.csv' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.headers.get('location')).toBe(`/simple_pipelines/${res.body.id}`);
    expect(res.body).toMatchObject({ name: 'R0 from a CSV', status: 'pending', project_id: env.lab.project.id });
    const [element] = (await env.c.get(`/pipelines/${res.body.id}/elements`)).body;
    expect(element).toMatchObject({ name: 'fit', element_type: 'data_fit' });
    expect(element.config.data).toEqual({ [TIME]: data[TIME], [VOLTAGE]: data[VOLTAGE], [CURRENT]: data[CURRENT] });

    expect(await finished(res.body.id)).toMatchObject({ status: 'completed' });
    const result = (await env.c.get(`/pipelines/${res.body.id}/result`)).body;
    expect(result.element_results.fit.parameter_values[R0]).toBeCloseTo(TRUE_R0, 2);
  });

  it('reads Parquet, and CSV separated by semicolons, the same way', async () => {
    const bytes = await generatedSeries(600, 1, 'fit-from-file-600.parquet');
    const expected = await readParquet(bytes);
    const small: Columns = { [TIME]: [0, 1, 2], [CURRENT]: [2, 2, 2], [VOLTAGE]: [4.1, 4.09, 4.08] };
    const cases: [{ bytes: Uint8Array | string; name: string }, Columns][] = [
      [{ bytes, name: 'series.parquet' }, expected],
      [{ bytes: toCsv(small).replaceAll(',', ';'), name: 'series.csv' }, small],
    ];
    for (const [file, columns] of cases) {
      const res = await postFile(
        env.org.api_key,
        {
          project_id: env.lab.project.id,
          name: `from ${file.name}`,
          model: QUICK_MODEL,
          parameters: PARAMETERS,
          optimizer: OPTIMIZER,
        },
        file,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const [element] = (await env.c.get(`/pipelines/${res.body.id}/elements`)).body;
      expect(Object.keys(element.config.data).sort()).toEqual([CURRENT, TIME, VOLTAGE]);
      for (const column of [TIME, CURRENT, VOLTAGE]) expect(element.config.data[column]).toEqual(columns[column]);
      // Only the reading is of interest here.
      expect((await env.c.post(`/simple_pipelines/${res.body.id}/cancel`)).status).toBe(200);
    }
  });

  it('answers bad input with a 4xx naming the field, and creates and starts nothing', async () => {
    const project = (await env.c.post('/projects', { name: `bad fits ${Date.now()}` })).body;
    const fields = { project_id: project.id, name: 'bad', model: QUICK_MODEL, parameters: PARAMETERS };
    const fromMeasurements = (body: Record<string, unknown>) =>
      env.c.post('/fit-from-measurements', { ...fields, ...body });
    const detail = (r: { body: { detail: { loc: unknown[] }[] } }) => r.body.detail[0]!;

    const unknown = crypto.randomUUID();
    let r = await fromMeasurements({ measurement_ids: [unknown] });
    expect(r.status).toBe(422);
    expect(detail(r)).toMatchObject({ loc: ['body', 'measurement_ids', 0], input: unknown });

    const other = await newOrg(env.api.orm);
    const otherProject = (await client(env.api.url, other.api_key).post('/projects', { name: 'theirs' })).body;
    const foreign = await insertMeasurement(
      env.api.orm,
      other.organization_id,
      otherProject.id,
      other.user_id,
      'ready',
    );
    r = await fromMeasurements({ measurement_ids: [foreign] });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error_code: 'FORBIDDEN', detail: { loc: ['body', 'measurement_ids', 0] } });

    const processing = await insertMeasurement(
      env.api.orm,
      env.org.organization_id,
      project.id,
      env.org.user_id,
      'running',
    );
    r = await fromMeasurements({ measurement_ids: [processing] });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      error_code: 'CONFLICT',
      detail: { loc: ['body', 'measurement_ids', 0], processing_status: 'running' },
    });
    expect(r.body.message).toContain('still processing');

    // A failed measurement never becomes usable; a stored series without the target cannot be fitted.
    const failed = await insertMeasurement(env.api.orm, env.org.organization_id, project.id, env.org.user_id, 'failed');
    r = await fromMeasurements({ measurement_ids: [failed] });
    expect(r.status).toBe(422);
    expect(detail(r)).toMatchObject({ loc: ['body', 'measurement_ids', 0] });
    expect(r.body.detail[0].msg).toContain('failed processing');
    const stored = await insertMeasurement(env.api.orm, env.org.organization_id, project.id, env.org.user_id, 'ready');
    await env.api.orm.em
      .fork()
      .execute(`update cell_measurements set data_columns = ? where id = ?`, [
        JSON.stringify([TIME, CURRENT, VOLTAGE]),
        stored,
      ]);
    r = await fromMeasurements({ measurement_ids: [stored], target: 'Temperature [degC]' });
    expect(r.status).toBe(422);
    expect(detail(r)).toMatchObject({ loc: ['body', 'measurement_ids', 0], ctx: { missing: ['Temperature [degC]'] } });

    r = await fromMeasurements({ measurement_ids: [unknown, crypto.randomUUID()] });
    expect(r.status).toBe(422);
    expect(detail(r).loc).toEqual(['body', 'measurement_ids']);

    r = await fromMeasurements({
      measurement_ids: [unknown],
      parameters: { [R0]: { bounds: [0.1, 0.001], initial_value: 0.05 } },
    });
    expect(r.status).toBe(422);
    expect(detail(r).loc).toEqual(['body', 'parameters', R0, 'bounds']);

    r = await fromMeasurements({ measurement_ids: [unknown], parameters: undefined });
    expect(r.status).toBe(422);
    expect(detail(r).loc).toEqual(['body', 'parameters']);

    r = await fromMeasurements({ measurement_ids: [unknown], cost: 'R2' });
    expect(r.status).toBe(422);
    expect(detail(r).loc).toEqual(['body', 'cost']);

    const key = env.org.api_key;
    const rows = (n: number) => ({
      [TIME]: Array.from({ length: n }, (_, i) => i),
      [CURRENT]: Array.from({ length: n }, () => 2),
      [VOLTAGE]: Array.from({ length: n }, (_, i) => 4.1 - i * 1e-4),
    });
    const csv = (cols: Columns) => ({ bytes: toCsv(cols), name: 'data.csv' });

    let f = await postFile(key, fields);
    expect(f.status).toBe(422);
    expect(detail(f).loc).toEqual(['body', 'file']);
    // A text field named "file" is not a file.
    f = await postFile(key, { ...fields, file: 'Time [s],Voltage [V]' });
    expect(f.status).toBe(422);
    expect(detail(f)).toMatchObject({ loc: ['body', 'file'], type: 'missing' });

    f = await postFile(key, fields, csv(rows(1001)));
    expect(f.status).toBe(422);
    expect(detail(f)).toMatchObject({ loc: ['body', 'file'], type: 'too_long', ctx: { max_rows: 1000 } });
    expect(f.body.detail[0].msg).toContain('at most 1000');

    const { [VOLTAGE]: _v, ...noVoltage } = rows(10);
    f = await postFile(key, fields, csv(noVoltage));
    expect(f.status).toBe(422);
    expect(detail(f).loc).toEqual(['body', 'file']);
    expect(f.body.detail[0].msg).toContain(VOLTAGE);

    f = await postFile(key, fields, csv({ ...rows(3), [TIME]: [0, 2, 1] }));
    expect(f.status).toBe(422);
    expect(detail(f)).toMatchObject({ loc: ['body', 'file', TIME, 2] });
    expect(f.body.detail[0].msg).toContain('decreases');

    f = await postFile(key, fields, csv({ ...rows(3), [VOLTAGE]: [4.1, 'four', 4.0] }));
    expect(f.status).toBe(422);
    expect(detail(f).loc).toEqual(['body', 'file', VOLTAGE]);

    f = await postFile(key, fields, {
      bytes: new Uint8Array([0x50, 0x41, 0x52, 0x31, 0, 1, 2, 3]),
      name: 'broken.parquet',
    });
    expect(f.status).toBe(422);
    expect(detail(f).loc).toEqual(['body', 'file']);

    f = await postFile(key, { ...fields, parameters: '{"R0 [Ohm]": ' }, csv(rows(10)));
    expect(f.status).toBe(422);
    expect(detail(f).loc).toEqual(['body', 'parameters']);

    // A PyBaMM name with dots is named whole.
    const diffusivity = 'Negative electrode diffusivity [m2.s-1]';
    f = await postFile(
      key,
      { ...fields, parameters: { [diffusivity]: { bounds: [1e-15, 1e-13], initial_value: 1 } } },
      csv(rows(10)),
    );
    expect(f.status).toBe(422);
    expect(detail(f).loc).toEqual(['body', 'parameters', diffusivity, 'initial_value']);

    f = await postFile(key, { ...fields, optimizer: { method: 'gradient_descent' } }, csv(rows(10)));
    expect(f.status).toBe(422);
    expect(detail(f).loc).toEqual(['body', 'optimizer', 'method']);

    const em = env.api.orm.em.fork();
    const [pipelines] = await em.execute<{ n: string }[]>(`select count(*) as n from pipelines where project_id = ?`, [
      project.id,
    ]);
    expect(Number(pipelines!.n)).toBe(0);
    const [jobs] = await em.execute<{ n: string }[]>(`select count(*) as n from jobs where project_id = ?`, [
      project.id,
    ]);
    expect(Number(jobs!.n)).toBe(0);
  });
});
