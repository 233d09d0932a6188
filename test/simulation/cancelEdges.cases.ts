// Cancels at the edges of a simulation's life, each against a second API and stand-in workers:
// a point still queued, a legacy per-simulation workflow whose solve then fails, a job being
// started, and a solve that finishes as the cancel arrives.
import { expect, inject, it } from 'vitest';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import {
  batchOf,
  client,
  eventually,
  jobFinished,
  newOrg,
  startApi,
  startWorker,
  testConfig,
  type TestApi,
} from '../harness.ts';
import { connectWorker } from '../../worker/temporalConnection.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';
import { createSimulationActivities } from '../../activities/simulations.ts';
import { DISCHARGE_1C, QUICK, simulationHelpers } from './helpers.ts';

/** Legacy and queued work. */
export function queuedAndLegacyCases(api: TestApi) {
  const { setup, simulationWithoutItsBatch } = simulationHelpers(api);

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
}

/** Canceled while its job is being started. */
export function cancelWhileStartingCases(api: TestApi) {
  const { simulationWithoutItsBatch } = simulationHelpers(api);

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
}

/** Canceled as its solve finishes. */
export function cancelAsSolveFinishesCases(api: TestApi) {
  const { simulationWithoutItsBatch } = simulationHelpers(api);

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
}
