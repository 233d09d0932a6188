// Simulation batches that run to their end: a DOE grid, a template with parameter sets, a model
// given as {model, parameters}, and the codes a failed point ends with.
import { expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { jobFinished, type TestApi } from '../harness.ts';
import { DISCHARGE_1C, QUICK, simulationHelpers } from './helpers.ts';

export function batchRunCases(api: TestApi) {
  const { setup, batchWorkflow } = simulationHelpers(api);

  it('runs a DOE grid of 1C discharges of a 5 A.h quick model with an extra variable', async () => {
    const { org, c, project } = await setup();
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: DISCHARGE_1C, name: '1C' },
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.008] }],
      },
      extra_variables: ['Open-circuit voltage [V]'],
      project_id: project.id,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(2);
    for (const { simulation_id, job_id } of res.body) {
      const job = await jobFinished(c, job_id);
      expect(job, JSON.stringify(job)).toMatchObject({
        status: 'completed',
        is_terminal: true,
        is_failed: false,
        job_type: 'simulation',
      });
      const sim = (await c.get(`/simulations/${simulation_id}`)).body;
      expect(sim.storage_folder).toBeTruthy();
      expect(sim.project_id).toBe(project.id);
      expect(sim.metrics.discharge_capacity_ah).toBeGreaterThan(4.75);
      expect(sim.metrics.discharge_capacity_ah).toBeLessThan(5.05);
      const file = await fetch(`${api.url}/simulations/${simulation_id}/time_series/download`, {
        headers: { 'X-API-Key': org.api_key, Accept: 'application/json' },
      });
      expect(file.status).toBe(200);
      const buf = await file.arrayBuffer();
      const columns = parquetMetadata(buf)
        .schema.slice(1)
        .map((s) => s.name);
      expect(columns).toEqual(
        expect.arrayContaining([
          'Time [s]',
          'Voltage [V]',
          'Current [A]',
          'Discharge capacity [A.h]',
          'Open-circuit voltage [V]',
        ]),
      );
      const rows = await parquetReadObjects({ file: buf, columns: ['Open-circuit voltage [V]'] });
      expect(Number(rows[0]!['Open-circuit voltage [V]'])).toBeGreaterThan(3.5);
      const steps = await fetch(`${api.url}/simulations/${simulation_id}/steps/download`, {
        headers: { 'X-API-Key': org.api_key },
      });
      expect(steps.status).toBe(200);
    }
    const sims = await Promise.all(
      res.body.map((r: { simulation_id: string }) => c.get(`/simulations/${r.simulation_id}`)),
    );
    expect(sims.map((s) => s.body.design_parameters['R0 [Ohm]']).sort()).toEqual([0.004, 0.008]);
    // The higher resistance reaches the cut-off earlier.
    const [low, high] = [...sims].sort(
      (a, b) => a.body.design_parameters['R0 [Ohm]'] - b.body.design_parameters['R0 [Ohm]'],
    );
    expect(high!.body.metrics.discharge_capacity_ah).toBeLessThan(low!.body.metrics.discharge_capacity_ah);
    const listed = await c.get(`/simulations?project_id=${project.id}`);
    expect(listed.body.total).toBe(2);
  });

  it('runs a template batch with parameter sets, linked to a study', async () => {
    const { c, project } = await setup();
    const study = (await c.post(`/projects/${project.id}/studies`, { name: 'Rates' })).body;
    const protocol =
      'steps:\n  - Discharge: {mode: C-rate, value: "input[\'Rate\']", ends: ["Voltage < 3.0"]}\n  - Rest: ' +
      '{duration: 60}\n';
    const tpl = await c.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol, name: 'Rate test' },
      project_id: project.id,
    });
    expect(tpl.status, tpl.text).toBe(200);
    const again = await c.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol, name: 'Rate test' },
      project_id: project.id,
    });
    expect(again.body.template_id).toBe(tpl.body.template_id);
    const res = await c.post('/simulations/with-template/batch', {
      parameterized_model: { capacity: 2, chemistry: 'LFP/Graphite' },
      experiment_template_id: tpl.body.template_id,
      experiment_parameter_sets: [{ Rate: 0.5 }, { Rate: 2 }],
      study_id: study.id,
      project_id: project.id,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(2);
    const jobs = await Promise.all(res.body.map((r: { job_id: string }) => jobFinished(c, r.job_id)));
    expect(jobs.map((j) => j.status)).toEqual(['completed', 'completed']);
    const inStudy = await c.get(`/simulations?study_id=${study.id}`);
    expect(inStudy.body.total).toBe(2);
    const rates = inStudy.body.items
      .map((s: { experiment_parameters: { Rate: number } }) => s.experiment_parameters.Rate)
      .sort();
    expect(rates).toEqual([0.5, 2]);
    const durations = Object.fromEntries(
      inStudy.body.items.map((s: { experiment_parameters: { Rate: number }; metrics: { duration_s: number } }) => [
        s.experiment_parameters.Rate,
        s.metrics.duration_s,
      ]),
    );
    expect(durations[0.5]).toBeGreaterThan(durations[2] * 3);
    expect((await c.get(`/projects/${project.id}/studies/${study.id}`)).body.simulation_ids).toHaveLength(2);
  });

  it('runs a model given as {model, parameters}: a config inline or a stored model id', async () => {
    const { c, project } = await setup();
    const stored = await c.post('/models', { name: 'SPM', config: { type: 'SPM' } });
    expect(stored.status, stored.text).toBe(201);
    const parameters = { 'Ambient temperature [K]': 298.15 };
    // The stored model twice, by id and as {"id"}: the second reuses the first's result.
    for (const model of [
      { type: 'SPM', simulation_settings: { solver: { rtol: 1e-5 } } },
      stored.body.id,
      { id: stored.body.id },
    ]) {
      const res = await c.post('/simulations/protocol/batch', {
        parameterized_model: { model, parameters },
        protocol_experiment: { protocol: 'Discharge at 1C until 3.0V', name: 'SPM 1C' },
        experiment_parameters: { 'Initial SOC [%]': 100 },
        project_id: project.id,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toHaveLength(1);
      const job = await jobFinished(c, res.body[0].job_id);
      expect(job, JSON.stringify(job)).toMatchObject({ status: 'completed' });
      const sim = (await c.get(`/simulations/${res.body[0].simulation_id}`)).body;
      expect(sim.storage_folder).toBeTruthy();
      // The Chen2020 cell is 5 A.h.
      expect(sim.metrics.discharge_capacity_ah).toBeGreaterThan(4);
      expect(sim.metrics.discharge_capacity_ah).toBeLessThan(5.1);
    }
  });

  it('ends a job with CONFIGURATION_ERROR or SOLVER_ERROR', async () => {
    const { c, project } = await setup();
    // A full quick cell cannot be charged to its top voltage: the end condition holds at once.
    const infeasible = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: 'Charge at 1C until 4.2V' },
      project_id: project.id,
    });
    expect(infeasible.status, infeasible.text).toBe(200);
    // A zero thermal mass divides by zero in the thermal equation: the solver fails (see pyworker runner.py).
    const solver = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: DISCHARGE_1C },
      experiment_parameters: { 'Cell thermal mass [J/K]': 0 },
      project_id: project.id,
    });
    expect(solver.status, solver.text).toBe(200);
    const config = await jobFinished(c, infeasible.body[0].job_id);
    expect(config).toMatchObject({
      status: 'failed',
      is_failed: true,
      is_terminal: true,
      error_code: 'CONFIGURATION_ERROR',
    });
    expect(config.error).toMatch(/steps\[0\]/);
    const failed = await jobFinished(c, solver.body[0].job_id);
    expect(failed).toMatchObject({ status: 'failed', error_code: 'SOLVER_ERROR' });
    // Operators find the failures without the database: the batch's result and its query name them.
    for (const [body, code] of [
      [infeasible.body[0], 'CONFIGURATION_ERROR'],
      [solver.body[0], 'SOLVER_ERROR'],
    ] as const) {
      const handle = await batchWorkflow(body.simulation_id);
      const result = (await handle.result()) as {
        failed: number;
        failures: { simulation_id: string; error_code: string }[];
      };
      expect(result.failed).toBe(1);
      expect(result.failures).toEqual([
        expect.objectContaining({ simulation_id: body.simulation_id, error_code: code }),
      ]);
      expect((await handle.describe()).searchAttributes.CellarStatus).toEqual(['completed_with_failures']);
    }
    const sim = (await c.get(`/simulations/${solver.body[0].simulation_id}`)).body;
    expect(sim.storage_folder).toBeNull();
    expect((await c.get(`/simulations/${solver.body[0].simulation_id}/time_series/download`)).status).toBe(404);
  });
}
