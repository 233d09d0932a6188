// Following and canceling simulations while they run: a job's progress and cancel, a whole batch
// canceled in one request, and a new model described while every solver slot is busy.
import { expect, it } from 'vitest';
import { client, eventually, jobFinished, newOrg, type TestApi } from '../harness.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';
import { longBatch, simulationHelpers } from './helpers.ts';

export function batchCancelCases(api: TestApi) {
  const { setup, batchWorkflow } = simulationHelpers(api);

  it('shows progress of a running job as it advances and cancels it', async () => {
    const { c, project } = await setup();
    const res = await c.post('/simulations/protocol/batch', longBatch(project.id));
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
    const points = 70;
    const res = await c.post(
      '/simulations/protocol/batch',
      longBatch(project.id, {
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.004, max: 0.012, count: points }],
        },
      }),
    );
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
    const long = await c.post(
      '/simulations/protocol/batch',
      longBatch(project.id, {
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005, 0.006, 0.007] }],
        },
      }),
    );
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
}
