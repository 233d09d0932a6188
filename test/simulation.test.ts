// Simulations end to end: the real API, the TypeScript worker, the Python worker running
// PyBaMM, and the Temporal server, PostgreSQL and storage of the test run.
import { describe, expect, inject, it, vi } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import {
  apiForSuite,
  batchOf,
  client,
  eventually,
  jobFinished,
  newOrg,
  startApi,
  startWorker,
  testConfig,
  type TestApi,
} from './harness.ts';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { connectWorker } from '../worker/temporalConnection.ts';
import { simulationWorkflowIds } from '../workflows/simulationIds.ts';
import { createSimulationActivities } from '../activities/simulations.ts';
import { addMember } from '../api/services/bootstrap.ts';

vi.setConfig({ testTimeout: 180_000 });

const api = apiForSuite({ python: true });

const QUICK = { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } };
const DISCHARGE_1C = 'Discharge at 1C until 2.5V';

async function setup() {
  const org = await newOrg(api.orm);
  const c = client(api.url, org.api_key);
  const project = (await c.post('/projects', { name: 'Sims' })).body;
  return { org, c, project };
}

/** The workflow of the batch a simulation belongs to. */
async function batchWorkflow(simulationId: string) {
  return api.temporal.workflow.getHandle(simulationWorkflowIds.batch(await batchOf(api.orm, simulationId)));
}

/**
 * A 1C discharge submitted through `api2` (an API whose batches nobody runs), its batch
 * workflow terminated, so that a test can run the legacy per-simulation workflow its own way
 * (as batches begun before sweeps ran in chunks still do); its job names that workflow, as
 * those batches' jobs do.
 */
async function simulationWithoutItsBatch(api2: TestApi) {
  const first = await setup(); // describes the quick model through a worker that runs
  expect(
    (
      await first.c.post('/simulations/protocol/batch', {
        parameterized_model: QUICK,
        protocol_experiment: { protocol: 'Rest for 1 minute' },
        project_id: first.project.id,
      })
    ).status,
  ).toBe(200);
  const c = client(api2.url, (await newOrg(api2.orm)).api_key);
  const project = (await c.post('/projects', { name: 'Run by the test' })).body;
  const res = await c.post('/simulations/protocol/batch', {
    parameterized_model: QUICK,
    protocol_experiment: { protocol: DISCHARGE_1C },
    project_id: project.id,
  });
  expect(res.status, res.text).toBe(200);
  const { simulation_id: simulationId, job_id: jobId } = res.body[0];
  const batchId = await batchOf(api2.orm, simulationId);
  await api2.temporal.workflow.getHandle(simulationWorkflowIds.batch(batchId)).terminate('replaced by the test');
  await api2.orm.em
    .fork()
    .execute(`update jobs set workflow_id = ? where id = ?`, [
      simulationWorkflowIds.simulation(batchId, simulationId),
      jobId,
    ]);
  return { c, simulationId, jobId, batchId };
}

async function countRows(orgId: string) {
  const [row] = await api.orm.em.fork().execute<{ sims: string; jobs: string }[]>(
    `select (select count(*) from simulations where organization_id = ?) as sims, (select count(*) from jobs
        where organization_id = ?) as jobs`,
    [orgId, orgId],
  );
  return { sims: Number(row!.sims), jobs: Number(row!.jobs) };
}

describe('simulation batches', () => {
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

  it('shows progress of a running job as it advances and cancels it', async () => {
    const { c, project } = await setup();
    const protocol = {
      steps: [
        { Discharge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Charge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Goto: { step: 0, repeat: 9999 } },
      ],
    };
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol, name: 'long' },
      project_id: project.id,
      max_backward_jumps: 10000,
    });
    expect(res.status, res.text).toBe(200);
    const jobId = res.body[0].job_id;
    const running = await eventually(
      async () => {
        const job = (await c.get(`/jobs/${jobId}`)).body;
        return job.status === 'running' && job.progress?.steps_done > 0 ? job : undefined;
      },
      { timeoutMs: 180_000, what: 'progress' },
    );
    expect(running.progress.steps_total).toBe(20_000);
    expect(running.progress.queued).toBe(false);
    expect(running.progress.fraction).toBeGreaterThan(0);
    expect(running.progress.fraction).toBeLessThan(1);
    // Progress keeps moving (the worker sends a heartbeat every couple of seconds, not once
    // per 48 s as the SDK would by default).
    const later = await eventually(
      async () => {
        const job = (await c.get(`/jobs/${jobId}`)).body;
        return job.progress?.steps_done > running.progress.steps_done ? job : undefined;
      },
      { timeoutMs: 45_000, what: 'progress to advance' },
    );
    expect(later.status).toBe('running');
    const cancel = await c.post(`/jobs/${jobId}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
    // The cancel reaches the solve with the next heartbeat.
    const ended = await jobFinished(c, jobId, 15_000);
    expect(ended).toMatchObject({ status: 'canceled', is_terminal: true });
    // Its chunk stops the solve at its next step and the batch ends, the point counted canceled.
    const handle = await batchWorkflow(res.body[0].simulation_id);
    expect(await handle.result()).toMatchObject({ completed: 0, failed: 0, canceled: 1 });
    // A resent cancel is answered with the canceled job (idempotent for retrying scripts).
    const resent = await c.post(`/jobs/${jobId}/cancel`);
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ job_id: jobId, status: 'canceled', is_terminal: true });
    const jobs = await c.get(`/jobs/?status=eq.canceled`);
    expect(jobs.status).toBe(200);
    expect(jobs.body.map((j: { job_id: string }) => j.job_id)).toContain(jobId);
  });

  it('follows a whole batch and cancels what is left of it in one request', async () => {
    const { c, project } = await setup();
    // Long runs, more than a batch starts at once: some jobs wait pending, some run.
    const protocol = {
      steps: [
        { Discharge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Charge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Goto: { step: 0, repeat: 9999 } },
      ],
    };
    const points = 70;
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol, name: 'long' },
      project_id: project.id,
      max_backward_jumps: 10000,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.004, max: 0.012, count: points }],
      },
    });
    expect(res.status, res.text).toBe(200);
    const sim = (await c.get(`/simulations/${res.body[0].simulation_id}`)).body;
    const batchUrl = `/simulations/batches/${sim.batch_id}`;
    const before = await eventually(
      async () => {
        const b = (await c.get(batchUrl)).body;
        return b.jobs.running > 0 && b.jobs.pending > 0 && b.jobs.pending + b.jobs.running === points ? b : undefined;
      },
      { timeoutMs: 180_000, what: 'some jobs running and some pending' },
    );
    expect(before).toMatchObject({ id: sim.batch_id, project_id: project.id, size: points, is_terminal: false });
    const listed = (await c.get(`/simulations/batches?project_id=${project.id}`)).body;
    expect(listed).toMatchObject({
      count: 1,
      total: 1,
      items: [{ id: sim.batch_id, name: 'long', size: points, max_backward_jumps: 10000 }],
    });
    expect(listed.items[0].protocol).toBeUndefined();
    expect(before.protocol).toEqual(sim.protocol);
    const runningSim = (await c.get(`/simulations?batch_id=${sim.batch_id}&status=eq.running&limit=1`)).body.items[0];

    const other = client(api.url, (await newOrg(api.orm)).api_key);
    // Another organization's request reads and changes nothing.
    expect((await other.post(`${batchUrl}/cancel`)).status).toBe(403);
    expect((await other.get(batchUrl)).status).toBe(403);
    expect((await other.get('/simulations/batches')).body.total).toBe(0);
    expect((await c.get(batchUrl)).body.jobs.pending).toBeGreaterThan(0);

    const canceled = await c.post(`${batchUrl}/cancel`);
    expect(canceled.status, canceled.text).toBe(200);
    // Every job not yet ended is canceled within seconds, running ones too (their chunks stop them).
    const over = await eventually(
      async () => {
        const b = (await c.get(batchUrl)).body;
        return b.is_terminal ? b : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 100, what: 'every job of the batch ended' },
    );
    expect(over.jobs).toEqual({ pending: 0, running: 0, completed: 0, failed: 0, canceled: points });
    const batchHandle = api.temporal.workflow.getHandle(simulationWorkflowIds.batch(sim.batch_id));
    await eventually(async () => (await batchHandle.describe()).status.name === 'CANCELLED', {
      what: 'the batch workflow canceled',
    });
    expect((await batchHandle.describe()).searchAttributes.CellarStatus).toEqual(['canceled']);
    const download = await c.get(`/simulations/${runningSim.id}/time_series/download`);
    expect(download.status).toBe(404);
    expect(download.body.message).toContain('none were stored: its job ended canceled');
    // Resent, it changes nothing.
    const again = await c.post(`${batchUrl}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ is_terminal: true, jobs: over.jobs });
  });

  it('describes a model not seen before while every worker slot is busy solving', async () => {
    const { c, project } = await setup();
    const protocol = {
      steps: [
        { Discharge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Charge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Goto: { step: 0, repeat: 9999 } },
      ],
    };
    const long = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol, name: 'long' },
      project_id: project.id,
      max_backward_jumps: 10000,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005, 0.006, 0.007] }],
      },
    });
    expect(long.status, long.text).toBe(200);
    // Every slot of the Python worker solving (one per core), the rest of the batch queued behind them.
    await eventually(
      async () => {
        const jobs = await Promise.all(
          long.body.map(async (r: { job_id: string }) => (await c.get(`/jobs/${r.job_id}`)).body),
        );
        return jobs.filter((j) => j.progress?.steps_done > 0).length >= 2 && jobs.some((j) => j.status === 'pending');
      },
      { timeoutMs: 180_000, what: 'the worker busy with long solves' },
    );
    // The model's description does not wait behind those solves (it used to, for 45 s, then 503).
    const fresh = await c.post('/simulations/protocol/batch', {
      parameterized_model: { model: { type: 'SPMe', options: { SEI: 'reaction limited' } }, parameters: {} },
      protocol_experiment: { protocol: 'Discharge at 1C until 3.0V' },
      project_id: project.id,
    });
    expect(fresh.status, fresh.text).toBe(200);
    for (const r of [long.body[0], fresh.body[0]]) {
      const { batch_id: batchId } = (await c.get(`/simulations/${r.simulation_id}`)).body;
      expect((await c.post(`/simulations/batches/${batchId}/cancel`)).status).toBe(200);
    }
  });

  it('reuses the stored result of an identical simulation unless force_rerun', async () => {
    const { c, project } = await setup();
    const body = {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: 'Discharge at 2C until 3.0V' },
      project_id: project.id,
    };
    const first = (await c.post('/simulations/protocol/batch', body)).body[0];
    expect((await jobFinished(c, first.job_id)).status).toBe('completed');
    // A job that completed cannot be canceled.
    const late = await c.post(`/jobs/${first.job_id}/cancel`);
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatchObject({ status: 'completed' });
    const second = (await c.post('/simulations/protocol/batch', body)).body[0];
    const reused = await jobFinished(c, second.job_id);
    expect(reused).toMatchObject({
      status: 'completed',
      result: { reused: true, reused_from_simulation_id: first.simulation_id },
    });
    const a = (await c.get(`/simulations/${first.simulation_id}`)).body;
    const b = (await c.get(`/simulations/${second.simulation_id}`)).body;
    expect(b.reused_from_simulation_id).toBe(first.simulation_id);
    expect(b.storage_folder).toBe(a.storage_folder);
    expect(b.metrics).toEqual(a.metrics);
    const forced = (await c.post('/simulations/protocol/batch', { ...body, force_rerun: true })).body[0];
    const solved = await jobFinished(c, forced.job_id);
    expect(solved.result.reused).toBe(false);
    expect((await c.get(`/simulations/${forced.simulation_id}`)).body.storage_folder).not.toBe(a.storage_folder);
  });
});

describe('sweeps in chunks', () => {
  const runsABatchInTitle =
    'runs a batch in several chunks: every point once, correct per point, downloadable, ' + 'visible to operators';
  it(runsABatchInTitle, async () => {
    const { org, c, project } = await setup();
    const points = 40;
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: DISCHARGE_1C, name: 'R0 sweep' },
      project_id: project.id,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.004, max: 0.012, count: points }],
      },
    });
    expect(res.status, res.text).toBe(200);
    const handle = await batchWorkflow(res.body[0].simulation_id);
    const result = await handle.result();
    expect(result).toMatchObject({ completed: points, failed: 0, canceled: 0, reused: 0, failures: [] });
    const sims = (await c.get(`/simulations?project_id=${project.id}&limit=100`)).body.items as {
      id: string;
      job_id: string;
      design_parameters: Record<string, number>;
      metrics: Record<string, number>;
      storage_folder: string;
    }[];
    expect(sims).toHaveLength(points);
    // Each point its own result: capacity falls as the resistance rises.
    const byR0 = [...sims].sort((a, b) => a.design_parameters['R0 [Ohm]']! - b.design_parameters['R0 [Ohm]']!);
    for (let i = 1; i < byR0.length; i++)
      expect(byR0[i]!.metrics.discharge_capacity_ah).toBeLessThan(byR0[i - 1]!.metrics.discharge_capacity_ah!);
    for (const sim of sims) expect(sim.storage_folder).toBeTruthy();
    // Downloads read each simulation's own files out of its chunk's pack.
    for (const sim of [byR0[0]!, byR0[points - 1]!]) {
      const file = await fetch(`${api.url}/simulations/${sim.id}/time_series/download`, {
        headers: { 'X-API-Key': org.api_key },
      });
      expect(file.status).toBe(200);
      const rows = await parquetReadObjects({ file: await file.arrayBuffer(), columns: ['Time [s]', 'Current [A]'] });
      expect((Number(rows.at(-1)!['Time [s]']) * Number(rows[0]!['Current [A]'])) / 3600).toBeCloseTo(
        sim.metrics.discharge_capacity_ah!,
        1,
      );
      const steps = await fetch(`${api.url}/simulations/${sim.id}/steps/download`, {
        headers: { 'X-API-Key': org.api_key },
      });
      const stepRows = await parquetReadObjects({ file: await steps.arrayBuffer() });
      expect(stepRows).toHaveLength(1);
      expect(Number(stepRows[0]!['Discharge capacity [A.h]'])).toBeCloseTo(sim.metrics.discharge_capacity_ah!, 6);
    }
    // The Web UI: the batch with its search attributes, its chunks labelled with their points,
    // and a live summary of what is done.
    const described = await handle.describe();
    expect(described.searchAttributes).toMatchObject({
      CellarBatch: [expect.any(String)],
      CellarProject: [project.id],
      CellarStatus: ['completed'],
    });
    const history = await handle.fetchHistory();
    const chunks = history.events!.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'solveChunk',
    );
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.every((e) => e.userMetadata?.summary)).toBe(true);
    const meta = await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata');
    expect(meta.currentDetails).toContain(`**${points} done**`);
    // One pack (two files) per flush, all named by the batch's simulations: nothing left over.
    const files = await api.storage.list(sims[0]!.storage_folder);
    const named = await api.orm.em.fork().execute<{ key: string }[]>(
      `select distinct result_pack ->> 'key' as key from simulations where batch_id = (select batch_id
          from simulations where id = ?)`,
      [sims[0]!.id],
    );
    expect(files.sort()).toEqual(
      named.flatMap((r) => [`${r.key}-steps.parquet`, `${r.key}-time_series.parquet`]).sort(),
    );
  });

  it('fails a point with its own code inside a chunk while its siblings complete', async () => {
    const { c, project } = await setup();
    const template = await c.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol: 'Charge at 1C until 4.2V', name: 'charge' },
      project_id: project.id,
    });
    expect(template.status, template.text).toBe(200);
    const res = await c.post('/simulations/with-template/batch', {
      parameterized_model: QUICK,
      experiment_template_id: template.body.template_id,
      project_id: project.id,
      experiment_parameter_sets: [
        { 'Initial SOC [%]': 50 },
        // Full already: the end condition holds when the step starts.
        { 'Initial SOC [%]': 100 },
        // A zero thermal mass: the solver fails, also with tighter tolerances.
        { 'Initial SOC [%]': 50, 'Cell thermal mass [J/K]': 0 },
        { 'Initial SOC [%]': 60 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const jobs = await Promise.all(res.body.map((r: { job_id: string }) => jobFinished(c, r.job_id)));
    expect(jobs.map((j) => j.status)).toEqual(['completed', 'failed', 'failed', 'completed']);
    expect(jobs.map((j) => j.error_code ?? null)).toEqual([null, 'CONFIGURATION_ERROR', 'SOLVER_ERROR', null]);
    expect(jobs[1].error).toMatch(/steps\[0\]/);
    const result = await (await batchWorkflow(res.body[0].simulation_id)).result();
    expect(result).toMatchObject({ completed: 2, failed: 2 });
  });

  it('cancels one running point of a chunk: the chunk goes on with the next', async () => {
    const { c, project } = await setup();
    const protocol = {
      steps: [
        { Discharge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Charge: { mode: 'C-rate', value: 1, duration: 600 } },
        { Goto: { step: 0, repeat: 9999 } },
      ],
    };
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol, name: 'long' },
      project_id: project.id,
      max_backward_jumps: 10000,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005] }],
      },
    });
    expect(res.status, res.text).toBe(200);
    // Both points share the first (probe) chunk: the first runs, the second waits.
    const [first, second] = res.body as { job_id: string; simulation_id: string }[];
    await eventually(async () => (await c.get(`/jobs/${first!.job_id}`)).body.progress?.steps_done > 0, {
      timeoutMs: 120_000,
      what: 'the first point running',
    });
    expect((await c.get(`/jobs/${second!.job_id}`)).body.status).toBe('pending');
    expect((await c.post(`/jobs/${first!.job_id}/cancel`)).status).toBe(200);
    expect(await jobFinished(c, first!.job_id, 5_000)).toMatchObject({ status: 'canceled' });
    // The chunk stops that solve at its next step and goes on with its sibling.
    await eventually(async () => (await c.get(`/jobs/${second!.job_id}`)).body.progress?.steps_done > 0, {
      timeoutMs: 60_000,
      what: 'the second point running',
    });
    const batch = (await c.get(`/simulations/${second!.simulation_id}`)).body.batch_id;
    expect((await c.post(`/simulations/batches/${batch}/cancel`)).status).toBe(200);
    expect(await jobFinished(c, second!.job_id, 5_000)).toMatchObject({ status: 'canceled' });
  });
});

describe('legacy and queued work', () => {
  it('keeps a job pending while its chunk waits for a free worker, and cancels it at once', async () => {
    // A second API whose solves go to a queue that no Python worker serves.
    const api2 = await startApi({
      config: testConfig('fs', {
        SIMULATION_TASK_QUEUE: `idle-solver-${Date.now()}`,
        STORAGE_DIR: (api.config.storage as { dir: string }).dir,
      }),
    });
    let worker2: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      const first = await setup(); // describes the quick model through the worker that runs
      expect(
        (
          await first.c.post('/simulations/protocol/batch', {
            parameterized_model: QUICK,
            protocol_experiment: { protocol: DISCHARGE_1C },
            project_id: first.project.id,
          })
        ).status,
      ).toBe(200);
      worker2 = await startWorker(api2);
      const org = await newOrg(api2.orm);
      const c = client(api2.url, org.api_key);
      const project = (await c.post('/projects', { name: 'Queued' })).body;
      const res = await c.post('/simulations/protocol/batch', {
        parameterized_model: QUICK,
        protocol_experiment: { protocol: DISCHARGE_1C },
        project_id: project.id,
      });
      expect(res.status, res.text).toBe(200);
      const jobId = res.body[0].job_id;
      // Its chunk is scheduled on the solver queue; no worker has taken it.
      const batch = api2.temporal.workflow.getHandle(
        simulationWorkflowIds.batch(await batchOf(api2.orm, res.body[0].simulation_id)),
      );
      await eventually(async () => ((await batch.describe()).raw.pendingActivities ?? []).length === 1, {
        what: 'the chunk scheduled',
      });
      expect((await c.get(`/jobs/${jobId}`)).body).toMatchObject({ status: 'pending', is_terminal: false });
      // A queued point is canceled at once, without a worker ever taking it.
      const canceled = await c.post(`/jobs/${jobId}/cancel`);
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({ status: 'canceled', is_terminal: true });
    } finally {
      await worker2?.stop();
      await api2.close();
    }
  });

  it('ends a canceled job canceled when its solve then fails (the worker died before it saw the cancel)', async () => {
    // A second API whose batches nobody runs, so the test starts the simulation's workflow
    // itself, with its solve on a queue served by a worker that fails once it is cancelled.
    const lostQueue = `lost-solver-${Date.now()}`;
    const api2 = await startApi({
      config: testConfig('fs', {
        SIMULATION_TASK_QUEUE: api.config.simulationTaskQueue,
        STORAGE_DIR: (api.config.storage as { dir: string }).dir,
      }),
    });
    const connection = await connectWorker(api.config.temporalAddress!);
    const solver = await Worker.create({
      connection,
      namespace: api.config.temporalNamespace,
      taskQueue: lostQueue,
      // Sends heartbeats as often as the Python worker does (see pyworker/cellar_worker/main.py).
      maxHeartbeatThrottleInterval: '2 seconds',
      activities: {
        async runSimulation() {
          const ctx = Context.current();
          for (;;) {
            ctx.heartbeat();
            if (ctx.cancellationSignal.aborted)
              throw ApplicationFailure.nonRetryable('the worker was lost mid-solve', 'WORKER_LOST');
            await new Promise((r) => setTimeout(r, 100));
          }
        },
      },
    });
    const solving = solver.run();
    let worker2: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      const { c, simulationId, jobId, batchId } = await simulationWithoutItsBatch(api2);
      worker2 = await startWorker(api2);
      const handle = await api2.temporal.workflow.start('simulation', {
        taskQueue: api2.config.taskQueue,
        workflowId: simulationWorkflowIds.simulation(batchId, simulationId),
        args: [{ simulationId, simulationTaskQueue: lostQueue }],
      });
      await eventually(async () => (await c.get(`/jobs/${jobId}`)).body.status === 'running', {
        what: 'the job to start',
      });
      expect((await c.post(`/jobs/${jobId}/cancel`)).status).toBe(200);
      // The cancel reaches the solver with its next heartbeat.
      expect(await jobFinished(c, jobId, 30_000)).toMatchObject({ status: 'canceled', is_terminal: true });
      await eventually(async () => (await handle.describe()).status.name === 'CANCELLED', {
        what: 'the workflow canceled',
      });
    } finally {
      await worker2?.stop();
      solver.shutdown();
      await solving;
      await connection.close();
      await api2.close();
    }
  });
});

describe('canceled while its job is being started', () => {
  it('ends the job canceled, though its start committed before the cancel arrived', async () => {
    // A second API whose batches nobody runs; the test runs the simulation's workflow on a
    // worker whose job start commits at once but answers 3 s later. The workflow waits for
    // that answer (a local activity is not abandoned when canceled), then skips the solve and
    // ends the job canceled: a batch cancel meets many children in this state.
    const slowQueue = `slow-begin-${Date.now()}`;
    const api2 = await startApi({
      config: testConfig('fs', {
        SIMULATION_TASK_QUEUE: api.config.simulationTaskQueue,
        STORAGE_DIR: (api.config.storage as { dir: string }).dir,
      }),
    });
    const connection = await connectWorker(api.config.temporalAddress!);
    const real = createSimulationActivities({ orm: api2.orm, storage: api2.storage });
    const worker = await Worker.create({
      connection,
      namespace: api.config.temporalNamespace,
      taskQueue: slowQueue,
      workflowBundle: { codePath: inject('workflowBundlePath') },
      activities: {
        ...real,
        async beginSimulation(simulationId: string) {
          const outcome = await real.beginSimulation(simulationId);
          await new Promise((r) => setTimeout(r, 3000));
          return outcome;
        },
      },
    });
    const running = worker.run();
    try {
      const { c, simulationId, jobId, batchId } = await simulationWithoutItsBatch(api2);
      const handle = await api2.temporal.workflow.start('simulation', {
        taskQueue: slowQueue,
        workflowId: simulationWorkflowIds.simulation(batchId, simulationId),
        args: [{ simulationId, simulationTaskQueue: `${slowQueue}-nobody` }],
      });
      await eventually(async () => (await c.get(`/jobs/${jobId}`)).body.status === 'running', {
        what: 'the job start to commit',
      });
      await handle.cancel();
      expect(await jobFinished(c, jobId, 30_000)).toMatchObject({ status: 'canceled', is_terminal: true });
      await eventually(async () => (await handle.describe()).status.name === 'CANCELLED', {
        what: 'the workflow canceled',
      });
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
      await api2.close();
    }
  });
});

describe('canceled as its solve finishes', () => {
  it('keeps no result files: what the solve wrote before the cancel reached it is deleted', async () => {
    // The solve (a stand-in for the Python worker on a queue of the test's) writes its two
    // files and answers 2 s later, without heartbeating in between: a worker that finished just
    // as the cancel came. The workflow then ends the job canceled, and its files must go.
    const queue = `late-solve-${Date.now()}`;
    const api2 = await startApi({
      config: testConfig('fs', {
        SIMULATION_TASK_QUEUE: api.config.simulationTaskQueue,
        STORAGE_DIR: (api.config.storage as { dir: string }).dir,
      }),
    });
    const connection = await connectWorker(api.config.temporalAddress!);
    const workflows = await Worker.create({
      connection,
      namespace: api.config.temporalNamespace,
      taskQueue: queue,
      workflowBundle: { codePath: inject('workflowBundlePath') },
      activities: createSimulationActivities({ orm: api2.orm, storage: api2.storage }),
    });
    let wrote: string | undefined;
    const solver = await Worker.create({
      connection,
      namespace: api.config.temporalNamespace,
      taskQueue: `${queue}-sim`,
      activities: {
        async runSimulation(request: { output_prefix: string }) {
          for (const file of ['time_series.parquet', 'steps.parquet'])
            await api2.storage.put(`${request.output_prefix}${file}`, Buffer.from('written'));
          wrote = request.output_prefix;
          await new Promise((r) => setTimeout(r, 2000));
          return {
            storage_folder: request.output_prefix,
            files: ['time_series.parquet', 'steps.parquet'],
            metrics: { solve_time_s: 0.1 },
            simulator_version: 'test',
            cache_hit: false,
          };
        },
      },
    });
    const running = Promise.all([workflows.run(), solver.run()]);
    try {
      const { c, simulationId, jobId, batchId } = await simulationWithoutItsBatch(api2);
      const handle = await api2.temporal.workflow.start('simulation', {
        taskQueue: queue,
        workflowId: simulationWorkflowIds.simulation(batchId, simulationId),
        args: [{ simulationId, simulationTaskQueue: `${queue}-sim` }],
      });
      await eventually(async () => wrote, { what: 'the solve to write its files' });
      expect(await api2.storage.list(wrote!)).toHaveLength(2);
      await handle.cancel();
      expect(await jobFinished(c, jobId, 30_000)).toMatchObject({ status: 'canceled', is_terminal: true });
      expect((await c.get(`/simulations/${simulationId}`)).body.storage_folder).toBeNull();
      expect(await api2.storage.list(wrote!)).toEqual([]);
    } finally {
      workflows.shutdown();
      solver.shutdown();
      await running;
      await connection.close();
      await api2.close();
    }
  });
});

describe('submission checks', () => {
  it('refuses bad input with 422 naming the field, creating nothing', async () => {
    const { org, c, project } = await setup();
    const other = (await c.post('/projects', { name: 'Other' })).body;
    const foreignStudy = (await c.post(`/projects/${other.id}/studies`, { name: 'Elsewhere' })).body;
    const ok = { parameterized_model: QUICK, protocol_experiment: { protocol: DISCHARGE_1C }, project_id: project.id };
    const protocolAt = ['body', 'protocol_experiment', 'protocol'];
    const rateProtocol = {
      steps: [{ Discharge: { mode: 'C-rate', value: "input['Rate']", ends: ['Voltage < 2.5'] } }],
    };
    const fixedStart = {
      global: { initial_state_type: 'soc_percentage', initial_state_value: 50, initial_temperature: 25 },
      steps: [{ Rest: { duration: 60 } }],
    };
    const startFromInputs = {
      global: {
        initial_state_type: 'soc_percentage',
        initial_state_value: "input['SOC']",
        initial_temperature: "input['T']",
      },
      steps: [{ Rest: { duration: 60 } }],
    };
    const cases: [unknown, (string | number)[]][] = [
      [
        { ...ok, protocol_experiment: { protocol: { steps: [{ Jump: { to: 0 } }] } } },
        ['body', 'protocol_experiment', 'protocol', 'steps', 0, 'Jump'],
      ],
      [
        {
          ...ok,
          protocol_experiment: {
            protocol: { steps: [{ Discharge: { mode: 'C-rate', value: 'fast', ends: ['Voltage < 2.5'] } }] },
          },
        },
        ['body', 'protocol_experiment', 'protocol', 'steps', 0, 'Discharge', 'value'],
      ],
      [
        {
          ...ok,
          protocol_experiment: {
            protocol: { steps: [{ Discharge: { mode: 'C-rate', value: 1, ends: ['Temperature > 40'] } }] },
          },
        },
        ['body', 'protocol_experiment', 'protocol', 'steps', 0, 'Discharge', 'ends', 0],
      ],
      [
        { ...ok, design_parameters_doe: { sampling: 'grid', rows: [{ type: 'discrete', name: 'R0 [Ohm]' }] } },
        ['body', 'design_parameters_doe', 'rows', 0, 'values'],
      ],
      [
        {
          ...ok,
          design_parameters_doe: {
            sampling: 'grid',
            rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.001, max: 0.01 }],
          },
        },
        ['body', 'design_parameters_doe', 'rows', 0, 'count'],
      ],
      [
        {
          ...ok,
          design_parameters_doe: {
            sampling: 'random',
            rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.001, max: 0.01 }],
          },
        },
        ['body', 'design_parameters_doe', 'count'],
      ],
      [
        {
          ...ok,
          design_parameters_doe: {
            sampling: 'grid',
            rows: [
              { type: 'range', name: 'R0 [Ohm]', min: 0.001, max: 0.01, count: 101 },
              { type: 'range', name: 'Initial SOC [%]', min: 50, max: 100, count: 100 },
            ],
          },
        },
        ['body', 'design_parameters_doe', 'rows'],
      ],
      [
        { ...ok, parameterized_model: { quick_model: { capacity: 5, chemistry: 'Unobtainium' } } },
        ['body', 'parameterized_model', 'quick_model', 'chemistry'],
      ],
      [{ ...ok, extra_variables: ['Flux capacitance [F]'] }, ['body', 'extra_variables', 0]],
      [
        { ...ok, experiment_parameters: { 'Warp factor [-]': 9 } },
        ['body', 'experiment_parameters', 'Warp factor [-]'],
      ],
      [
        {
          ...ok,
          design_parameters_doe: {
            sampling: 'grid',
            rows: [{ type: 'discrete', name: 'Warp factor [-]', values: [1] }],
          },
        },
        ['body', 'design_parameters_doe', 'rows', 0, 'name'],
      ],
      [{ ...ok, study_id: foreignStudy.id }, ['body', 'study_id']],
      [
        {
          ...ok,
          protocol_experiment: {
            protocol: { steps: [{ Discharge: { mode: 'C-rate', value: "input['Rate']", ends: ['Voltage < 2.5'] } }] },
          },
        },
        ['body', 'experiment_parameters'],
      ],
      // What the worker refuses of the protocol: loops past max_backward_jumps or its step limit, values out of range.
      [
        {
          ...ok,
          protocol_experiment: {
            protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 1001 } }] },
          },
        },
        [...protocolAt, 'steps', 1, 'Goto', 'repeat'],
      ],
      [
        {
          ...ok,
          protocol_experiment: { protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 3 } }] } },
          max_backward_jumps: 2,
        },
        [...protocolAt, 'steps', 1, 'Goto', 'repeat'],
      ],
      [
        {
          ...ok,
          protocol_experiment: {
            protocol: {
              steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 999 } }, { Goto: { step: 0, repeat: 99 } }],
            },
          },
          max_backward_jumps: 1_000_000,
        },
        [...protocolAt, 'steps'],
      ],
      [
        { ...ok, protocol_experiment: { protocol: 'Discharge at 1C until 0 V' } },
        [...protocolAt, 'steps', 0, 'Discharge', 'ends', 0],
      ],
      [
        { ...ok, protocol_experiment: { protocol: { steps: [{ Rest: { ends: ['Time > 0'] } }] } } },
        [...protocolAt, 'steps', 0, 'Rest', 'ends', 0],
      ],
      [
        {
          ...ok,
          protocol_experiment: {
            protocol: {
              global: { initial_state_type: 'soc_percentage', initial_state_value: 120 },
              steps: [{ Rest: { duration: 1 } }],
            },
          },
        },
        [...protocolAt, 'global', 'initial_state_value'],
      ],
      [
        {
          ...ok,
          protocol_experiment: {
            protocol: { global: { initial_temperature: -300 }, steps: [{ Rest: { duration: 1 } }] },
          },
        },
        [...protocolAt, 'global', 'initial_temperature'],
      ],
      // What the worker refuses of a design point's values, at the row or parameter that gives it.
      [
        {
          ...ok,
          protocol_experiment: { protocol: rateProtocol },
          design_parameters_doe: { sampling: 'grid', rows: [{ type: 'discrete', name: 'Rate', values: [1, -1] }] },
        },
        ['body', 'design_parameters_doe', 'rows', 0],
      ],
      [
        { ...ok, protocol_experiment: { protocol: rateProtocol }, experiment_parameters: { Rate: 0 } },
        ['body', 'experiment_parameters', 'Rate'],
      ],
      [
        { ...ok, experiment_parameters: { 'Initial SOC [%]': 150 } },
        ['body', 'experiment_parameters', 'Initial SOC [%]'],
      ],
      [
        { ...ok, protocol_experiment: { protocol: fixedStart }, experiment_parameters: { 'Initial SOC [%]': 80 } },
        ['body', 'experiment_parameters', 'Initial SOC [%]'],
      ],
      [
        { ...ok, protocol_experiment: { protocol: fixedStart }, experiment_parameters: { 'Initial SoC': 0.5 } },
        ['body', 'experiment_parameters', 'Initial SoC'],
      ],
      [
        {
          ...ok,
          protocol_experiment: { protocol: fixedStart },
          design_parameters_doe: {
            sampling: 'grid',
            rows: [
              { type: 'discrete', name: 'R0 [Ohm]', values: [0.004] },
              { type: 'discrete', name: 'Ambient temperature [K]', values: [298, 308] },
            ],
          },
        },
        ['body', 'design_parameters_doe', 'rows', 1],
      ],
      [
        {
          ...ok,
          protocol_experiment: { protocol: startFromInputs },
          design_parameters_doe: { sampling: 'grid', rows: [{ type: 'discrete', name: 'SOC', values: [50, 101] }] },
          experiment_parameters: { T: 25 },
        },
        ['body', 'design_parameters_doe', 'rows', 0],
      ],
      [
        { ...ok, protocol_experiment: { protocol: startFromInputs }, experiment_parameters: { SOC: 50, T: -300 } },
        ['body', 'experiment_parameters', 'T'],
      ],
      // A negative value of a quantity that cannot be negative (a resistance, a temperature, a thickness).
      [
        {
          ...ok,
          design_parameters_doe: {
            sampling: 'grid',
            rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, -0.001] }],
          },
        },
        ['body', 'design_parameters_doe', 'rows', 0],
      ],
      [
        { ...ok, experiment_parameters: { 'Ambient temperature [K]': -5 } },
        ['body', 'experiment_parameters', 'Ambient temperature [K]'],
      ],
      [
        { ...ok, experiment_parameters: { 'Nominal cell capacity [A.h]': 0 } },
        ['body', 'experiment_parameters', 'Nominal cell capacity [A.h]'],
      ],
      [
        {
          ...ok,
          parameterized_model: { model: { type: 'SPM' }, parameters: { 'Negative electrode thickness [m]': -1e-5 } },
        },
        ['body', 'parameterized_model', 'parameters', 'Negative electrode thickness [m]'],
      ],
      // {"model", "parameters"}: a model id that is none, an inline config the worker would refuse.
      [
        { ...ok, parameterized_model: { model: 'no-such-model', parameters: {} } },
        ['body', 'parameterized_model', 'model'],
      ],
      [
        { ...ok, parameterized_model: { model: { id: '00000000-0000-4000-8000-000000000000' }, parameters: {} } },
        ['body', 'parameterized_model', 'model', 'id'],
      ],
      [
        { ...ok, parameterized_model: { model: { type: 'Bogus' }, parameters: {} } },
        ['body', 'parameterized_model', 'model', 'type'],
      ],
      [
        { ...ok, parameterized_model: { model: { type: 'SPM', colour: 'red' }, parameters: {} } },
        ['body', 'parameterized_model', 'model', 'colour'],
      ],
      [
        { ...ok, parameterized_model: { model: { type: 'SPM', kind: 'quick' }, parameters: {} } },
        ['body', 'parameterized_model', 'model', 'kind'],
      ],
      [
        { ...ok, parameterized_model: { model: { type: 'SPM', simulation_settings: { var_pts: { x_n: 0 } } } } },
        ['body', 'parameterized_model', 'model', 'simulation_settings', 'var_pts', 'x_n'],
      ],
      [
        { ...ok, parameterized_model: { model: { type: 'SPM', simulation_settings: { solver: { name: 'Euler' } } } } },
        ['body', 'parameterized_model', 'model', 'simulation_settings', 'solver', 'name'],
      ],
      [
        { ...ok, parameterized_model: { model: { type: 'SPM' }, parameters: { 'Flux capacitance [F]': 1 } } },
        ['body', 'parameterized_model', 'parameters', 'Flux capacitance [F]'],
      ],
      [
        {
          ...ok,
          parameterized_model: { model: { type: 'SPM', parameters: { "Warp's factor [-]": 1 } }, parameters: {} },
        },
        ['body', 'parameterized_model', 'model', 'parameters', "Warp's factor [-]"],
      ],
      [
        {
          ...ok,
          parameterized_model: { quick_model: { ...QUICK.quick_model, simulation_settings: { solver: { rtol: 0 } } } },
        },
        ['body', 'parameterized_model', 'quick_model', 'simulation_settings', 'solver', 'rtol'],
      ],
    ];
    for (const [body, loc] of cases) {
      const res = await c.post('/simulations/protocol/batch', body);
      expect(res.status, `${JSON.stringify(loc)}: ${res.text}`).toBe(422);
      expect(res.body.detail[0].loc, res.text).toEqual(loc);
      expect(res.body.detail[0].msg).toBeTruthy();
    }
    // A number sent as text is told so, not that it should be greater than 0.
    const asText = await c.post('/simulations/protocol/batch', {
      ...ok,
      parameterized_model: { quick_model: { capacity: '5', chemistry: 'NMC/Graphite' } },
    });
    expect(asText.status).toBe(422);
    expect(asText.body.detail[0]).toMatchObject({
      loc: ['body', 'parameterized_model', 'quick_model', 'capacity'],
      type: 'float_type',
      input: '5',
    });
    expect(asText.body.detail[0].msg).toContain('given as a finite number');
    // A built-in column is already there.
    const builtIn = await c.post('/simulations/protocol/batch', { ...ok, extra_variables: ['Step count'] });
    expect(builtIn.status).toBe(422);
    expect(builtIn.body.detail[0]).toMatchObject({
      loc: ['body', 'extra_variables', 0],
      msg: '"Step count" is already a column',
    });
    // A variable that varies in space has no single value per time to put in a column.
    const spatial = await c.post('/simulations/protocol/batch', {
      ...ok,
      parameterized_model: { model: { type: 'SPM' }, parameters: {} },
      extra_variables: ['X-averaged cell temperature [K]', 'Electrolyte concentration [mol.m-3]'],
    });
    expect(spatial.status, spatial.text).toBe(422);
    expect(spatial.body.detail[0]).toMatchObject({
      loc: ['body', 'extra_variables', 1],
      input: 'Electrolyte concentration [mol.m-3]',
    });
    expect(spatial.body.detail[0].msg).toContain('varies in space');
    // A template's loops are counted against the batch's own max_backward_jumps.
    const looped = await c.post('/protocols/parse-to-template', {
      protocol_experiment: {
        protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 3 } }] },
        name: 'Loop',
      },
      project_id: project.id,
    });
    expect(looped.status, looped.text).toBe(200);
    const template = {
      parameterized_model: QUICK,
      experiment_template_id: looped.body.template_id,
      project_id: project.id,
    };
    const capped = await c.post('/simulations/with-template/batch', { ...template, max_backward_jumps: 2 });
    expect(capped.status, capped.text).toBe(422);
    expect(capped.body.detail[0].loc).toEqual(['body', 'max_backward_jumps']);
    expect(capped.body.detail[0].msg).toMatch(/steps\[1\] \(Goto\)\.repeat: .*max_backward_jumps=2/);
    const badSet = await c.post('/simulations/with-template/batch', {
      ...template,
      experiment_parameter_sets: [{ 'R0 [Ohm]': 0.004 }, { 'Initial SOC [%]': -5 }],
    });
    expect(badSet.status, badSet.text).toBe(422);
    expect(badSet.body.detail[0].loc).toEqual(['body', 'experiment_parameter_sets', 1, 'Initial SOC [%]']);
    expect(await countRows(org.organization_id)).toEqual({ sims: 0, jobs: 0 });
    const [wf] = await api.orm.em
      .fork()
      .execute<{ n: string }[]>(`select count(*) as n from simulation_batches where organization_id = ?`, [
        org.organization_id,
      ]);
    expect(Number(wf!.n)).toBe(0);
    const usage = await c.get('/organizations/current/usage');
    expect(usage.body.simulation).toMatchObject({ usage: 0, count: 0 });
  });

  it('refuses a batch past the monthly limit with 429 naming limit and usage', async () => {
    const { org, c, project } = await setup();
    await api.orm.em
      .fork()
      .execute(`update organizations set simulation_monthly_limit = 3 where id = ?`, [org.organization_id]);
    const body = {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: DISCHARGE_1C },
      project_id: project.id,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005] }],
      },
    };
    expect((await c.post('/simulations/protocol/batch', body)).status).toBe(200);
    const refused = await c.post('/simulations/protocol/batch', body);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error_code: 'USAGE_LIMIT_EXCEEDED',
      detail: { limit: 3, usage: 2, requested: 2 },
    });
    expect(refused.body.message).toMatch(/3/);
    const usage = await c.get('/organizations/current/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.simulation).toMatchObject({ count: 2, count_limit: 3, limit: null });
    expect(await countRows(org.organization_id)).toEqual({ sims: 2, jobs: 2 });
  });

  const answersASubmissionSentTitle =
    'answers a submission sent again with the same Idempotency-Key with the first batch, ' + 'counting it once';
  it(answersASubmissionSentTitle, async () => {
    const { org, c, project } = await setup();
    const body = {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: 'Rest for 1 minute' },
      project_id: project.id,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005] }],
      },
    };
    const key = { 'Idempotency-Key': `retry-${crypto.randomUUID()}` };
    // Three at once (a resend racing the request whose answer it thinks lost), then once more
    // later: the same two simulations every time.
    const [first, ...again] = await Promise.all([1, 2, 3].map(() => c.post('/simulations/protocol/batch', body, key)));
    expect(first!.status, first!.text).toBe(200);
    again.push(await c.post('/simulations/protocol/batch', body, key));
    for (const res of again) expect(res.status === 200 && res.body, res.text).toEqual(first!.body);
    expect((await c.get('/organizations/current/usage')).body.simulation.count).toBe(2);
    expect(await countRows(org.organization_id)).toEqual({ sims: 2, jobs: 2 });
    const other = await c.post('/simulations/protocol/batch', { ...body, force_rerun: true }, key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      error_code: 'CONFLICT',
      detail: { batch_id: await batchOf(api.orm, first!.body[0].simulation_id) },
    });
    // Keys are the user's: another user of the organization starts a batch of its own with it.
    const colleague = client(
      api.url,
      (await addMember(api.orm.em.fork(), org.org, `colleague-${crypto.randomUUID()}@lab.test`)).api_key,
    );
    await c.post(`/projects/${project.id}/members`, {
      user_id: (await colleague.get('/users/me')).body.id,
      project_role_id: (await c.get('/roles/project')).body.find(
        (r: { name: string }) => r.name === 'Project Contributor',
      ).id,
    });
    const theirs = await colleague.post('/simulations/protocol/batch', body, key);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body[0].simulation_id).not.toBe(first!.body[0].simulation_id);
    // Without a key, the same body is a new batch.
    const unkeyed = await c.post('/simulations/protocol/batch', body);
    expect(unkeyed.body[0].simulation_id).not.toBe(first!.body[0].simulation_id);
    expect((await c.get('/organizations/current/usage')).body.simulation.count).toBe(6);
    expect((await c.post('/simulations/protocol/batch', body, { 'Idempotency-Key': 'has space' })).status).toBe(422);
  });

  it('keeps organizations apart', async () => {
    const { c, project } = await setup();
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: 'Rest for 10 minutes' },
      project_id: project.id,
    });
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await stranger.get(`/simulations/${res.body[0].simulation_id}`)).status).toBe(403);
    expect((await stranger.get(`/jobs/${res.body[0].job_id}`)).status).toBe(403);
    expect((await stranger.post(`/jobs/${res.body[0].job_id}/cancel`)).status).toBe(403);
    expect((await stranger.get(`/simulations?project_id=${project.id}`)).body.total).toBe(0);
    await jobFinished(c, res.body[0].job_id);
  });
});
