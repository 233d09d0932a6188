// Workflow starts are recorded with the change that needs them: a request that cannot reach
// Temporal still succeeds, and its work runs once the dispatcher starts what it recorded; a
// start left behind by a request that stopped in between is started by the running dispatcher.
// Reads that only decorate with Temporal's view still answer while it is down; what needs it
// now is refused promptly with 503 and changes nothing.
import { describe, expect, it, vi } from 'vitest';
import { WorkflowNotFoundError } from '@temporalio/client';
import { apiForSuite, batchOf, client, eventually, jobFinished, newOrg, startApi, type TestApi } from './harness.ts';
import { freePort } from '../stack/processes.ts';
import { dispatchDueStarts, recordStarts, runStartDispatcher } from '../db/workflowStarts.ts';
import { purgeStart } from '../api/services/storedObjects.ts';
import { simulationWorkflowIds } from '../workflows/simulationIds.ts';
import { pipelineWorkflowIds } from '../workflows/pipelineIds.ts';
import { workflowIds } from '../worker/taskQueues.ts';
import { endlessFit, insertMeasurement, untilHeartbeating } from './pipelineHelpers.ts';
import { createPipelineActivities } from '../activities/pipelines.ts';

vi.setConfig({ testTimeout: 180_000 });

// This suite runs the dispatcher itself, when and against which Temporal it chooses.
const api = apiForSuite({ python: true, dispatcher: false });

/** A second API on the same database, queues and storage, whose Temporal address has no server. */
async function apiWithoutTemporal(): Promise<TestApi> {
  return startApi({ config: { ...api.config, temporalAddress: `127.0.0.1:${await freePort()}` } });
}

async function recordedFor(workflowId: string): Promise<{ attempts: number; last_error: string | null }[]> {
  return api.orm.em
    .fork()
    .execute(`select attempts, last_error from workflow_starts where workflow_id = ?`, [workflowId]);
}

async function exists(workflowId: string): Promise<boolean> {
  try {
    await api.temporal.workflow.getHandle(workflowId).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

const QUICK = { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } };
const REST = { protocol: 'Rest for 1 minute' };

describe('when Temporal is down, or a request stops midway', () => {
  it('accepts a simulation batch while Temporal is down and runs it once the dispatcher starts it', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Starts' })).body;
    // Through the API with Temporal: the model's description is cached, and the start made at
    // once leaves nothing recorded.
    const first = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: REST,
      project_id: project.id,
    });
    expect(first.status, first.text).toBe(200);
    const firstBatch = simulationWorkflowIds.batch(await batchOf(api.orm, first.body[0].simulation_id));
    expect(await exists(firstBatch)).toBe(true);
    expect(await recordedFor(firstBatch)).toEqual([]);

    const down = await apiWithoutTemporal();
    try {
      const began = Date.now();
      const res = await client(down.url, org.api_key).post('/simulations/protocol/batch', {
        parameterized_model: QUICK,
        protocol_experiment: REST,
        project_id: project.id,
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.006, 0.008] }],
        },
      });
      expect(res.status, res.text).toBe(200);
      // The request gave up on Temporal after a few seconds rather than hanging.
      expect(Date.now() - began).toBeLessThan(15_000);
      expect(res.body).toHaveLength(3);
      const workflowId = simulationWorkflowIds.batch(await batchOf(api.orm, res.body[0].simulation_id));
      expect(await exists(workflowId)).toBe(false);
      const [recorded] = await recordedFor(workflowId);
      expect(recorded?.last_error).toBeTruthy();
      for (const r of res.body) expect((await c.get(`/jobs/${r.job_id}`)).body.status).toBe('pending');
      // Canceling the whole batch needs Temporal: refused with 503, and its jobs stay pending.
      const batchCancel = await client(down.url, org.api_key).post(
        `/simulations/batches/${await batchOf(api.orm, res.body[0].simulation_id)}/cancel`,
      );
      expect(batchCancel.status, batchCancel.text).toBe(503);
      for (const r of res.body) expect((await c.get(`/jobs/${r.job_id}`)).body.status).toBe('pending');
      // A job canceled before its turn is never handed to a chunk when the batch runs.
      expect((await c.post(`/jobs/${res.body[2].job_id}/cancel`)).body.status).toBe('canceled');

      // A dispatcher that cannot reach Temporal either keeps the row and tries again later.
      expect(await dispatchDueStarts({ orm: api.orm, temporal: down.temporal })).toEqual({ started: 0, failed: 1 });
      const [postponed] = await api.orm.em
        .fork()
        .execute<{ attempts: number; later: boolean }[]>(
          `select attempts, next_attempt_at > now() as later from workflow_starts where workflow_id = ?`,
          [workflowId],
        );
      expect(postponed).toEqual({ attempts: 1, later: true });
      await api.orm.em
        .fork()
        .execute(`update workflow_starts set next_attempt_at = now() where workflow_id = ?`, [workflowId]);

      expect((await dispatchDueStarts({ orm: api.orm, temporal: api.temporal })).started).toBeGreaterThanOrEqual(1);
      expect(await recordedFor(workflowId)).toEqual([]);
      const jobs = await Promise.all(res.body.map((r: { job_id: string }) => jobFinished(c, r.job_id)));
      expect(jobs.map((j) => j.status)).toEqual(['completed', 'completed', 'canceled']);
      // One run of the batch: the request's failed start left nothing behind in Temporal.
      expect(await api.temporal.workflow.getHandle(workflowId).result()).toMatchObject({
        completed: 2,
        canceled: 1,
        failed: 0,
      });
      const history = await api.temporal.workflow.getHandle(workflowId).fetchHistory();
      const handedOut = history.events!.flatMap((e) => {
        const input = e.activityTaskScheduledEventAttributes?.input?.payloads?.[0];
        return input
          ? ((JSON.parse(Buffer.from(input.data!).toString()) as { simulation_ids?: string[] }).simulation_ids ?? [])
          : [];
      });
      expect(handedOut.sort()).toEqual([res.body[0].simulation_id, res.body[1].simulation_id].sort());
      await eventually(
        async () => {
          const runs: string[] = [];
          for await (const wf of api.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
            runs.push(wf.status.name);
          return runs.length === 1 && runs[0] === 'COMPLETED';
        },
        { what: 'one completed run of the batch in visibility' },
      );
    } finally {
      await down.close();
    }
  });

  it('keeps a pipeline created and a project deleted while Temporal is down, and carries both out later', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const kept = (await c.post('/projects', { name: 'Kept' })).body;
    const doomed = (await c.post('/projects', { name: 'Doomed' })).body;
    const prefix = `orgs/${org.organization_id}/projects/${doomed.id}/`;
    await api.storage.put(`${prefix}simulations/s1/time_series.parquet`, Buffer.from('data'));

    const down = await apiWithoutTemporal();
    let pipelineId: string;
    try {
      const cd = client(down.url, org.api_key);
      const p = await cd.post('/pipelines', {
        project_id: kept.id,
        name: 'later',
        elements: { values: { element_type: 'entry', values: { x: 1 } } },
      });
      expect(p.status, p.text).toBe(201);
      expect(p.body.status).toBe('pending');
      pipelineId = p.body.id;
      expect((await cd.delete(`/projects/${doomed.id}`)).status).toBe(200);
    } finally {
      await down.close();
    }
    expect((await c.get(`/projects/${doomed.id}`)).status).toBe(404);
    const owed = [
      pipelineWorkflowIds.pipeline(pipelineId),
      workflowIds.stopProjectWork(doomed.id),
      purgeStart(api.config, prefix).workflowId,
    ];
    for (const id of owed) {
      expect(await exists(id)).toBe(false);
      expect(await recordedFor(id)).toHaveLength(1);
    }
    expect(await api.storage.list(prefix)).toHaveLength(1);

    await dispatchDueStarts({ orm: api.orm, temporal: api.temporal });
    for (const id of owed) expect(await recordedFor(id)).toEqual([]);
    await api.temporal.workflow.getHandle(pipelineWorkflowIds.pipeline(pipelineId)).result();
    expect((await c.get(`/pipelines/${pipelineId}`)).body.status).toBe('completed');
    await eventually(async () => (await api.storage.list(prefix)).length === 0, {
      what: 'the purge of the deleted project',
    });
  });

  it('a scheduled retry that cannot reach Temporal leaves its claimed pipelines to the dispatcher', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Retry' })).body;
    const p = (
      await c.post('/pipelines', {
        project_id: project.id,
        name: 'retried',
        elements: { values: { element_type: 'entry', values: { x: 1 } } },
      })
    ).body;
    await api.temporal.workflow.getHandle(pipelineWorkflowIds.pipeline(p.id)).result();
    // As if its element had failed for a retryable cause a while ago.
    const em = api.orm.em.fork();
    await em.execute(
      `update pipeline_elements set status = 'failed', error_code = 'SOLVER_ERROR', attempts = 1,
        finished_at = now() - interval '1 hour' where pipeline_id = ?`,
      [p.id],
    );
    await em.execute(
      `update jobs set status = 'failed' where id in (select job_id from pipeline_elements where pipeline_id = ?)`,
      [p.id],
    );
    await em.execute(`update pipelines set status = 'failed', finished_at = now() where id = ?`, [p.id]);

    const down = await apiWithoutTemporal();
    try {
      const activities = createPipelineActivities({ orm: api.orm, temporal: down.temporal, config: api.config });
      expect(await activities.claimAndRestartPipelines(3, 1, 50)).toBeGreaterThanOrEqual(1);
    } finally {
      await down.close();
    }
    // Claimed: pending again, with its start recorded though not made.
    expect((await c.get(`/pipelines/${p.id}`)).body.status).toBe('pending');
    const workflowId = pipelineWorkflowIds.pipeline(p.id);
    expect(await recordedFor(workflowId)).toHaveLength(1);
    await api.orm.em
      .fork()
      .execute(`update workflow_starts set next_attempt_at = now() where workflow_id = ?`, [workflowId]);
    await dispatchDueStarts({ orm: api.orm, temporal: api.temporal });
    expect(await recordedFor(workflowId)).toEqual([]);
    await eventually(async () => (await c.get(`/pipelines/${p.id}`)).body.status === 'completed', {
      what: 'the retried pipeline to complete',
    });
  });

  it('counts a run that fails before it begins as an attempt of its own', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Gone data' })).body;
    const measurement = await insertMeasurement(api.orm, org.organization_id, project.id, org.user_id, 'ready');
    const fit = {
      element_type: 'data_fit',
      model: { kind: 'quick', capacity: 2, chemistry: 'NMC/Graphite' },
      data: `db:${measurement}`,
      parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
    };
    // Created while Temporal is down, so it runs only once the measurement is gone.
    const down = await apiWithoutTemporal();
    let pipelineId: string;
    try {
      const p = await client(down.url, org.api_key).post('/pipelines', {
        project_id: project.id,
        name: 'gone',
        elements: { fit },
      });
      expect(p.status, p.text).toBe(201);
      pipelineId = p.body.id;
    } finally {
      await down.close();
    }
    await api.orm.em.fork().execute(`delete from cell_measurements where id = ?`, [measurement]);
    await api.orm.em
      .fork()
      .execute(`update workflow_starts set next_attempt_at = now() where workflow_id = ?`, [
        pipelineWorkflowIds.pipeline(pipelineId),
      ]);
    await dispatchDueStarts({ orm: api.orm, temporal: api.temporal });
    await api.temporal.workflow.getHandle(pipelineWorkflowIds.pipeline(pipelineId)).result();
    const [element] = (await c.get(`/pipelines/${pipelineId}/elements`)).body;
    expect(element).toMatchObject({ status: 'failed', error_code: 'CONFIGURATION_ERROR', attempts: 1 });
    expect(element.attempt_log).toHaveLength(1);
    expect(element.attempt_log[0]).toMatchObject({ attempt: 1, status: 'failed', error_code: 'CONFIGURATION_ERROR' });
  });

  it('starts what a request recorded but never started, once its grace has passed', async () => {
    const org = await newOrg(api.orm);
    const prefix = `orgs/${org.organization_id}/projects/00000000-0000-4000-8000-00000000abcd/`;
    await api.storage.put(`${prefix}a.bin`, Buffer.from('a'));
    // A request that committed its delete and stopped before starting the purge.
    const start = purgeStart(api.config, prefix);
    await api.orm.em.fork().transactional((em) => recordStarts(em, [start]));
    const dispatcher = runStartDispatcher({ orm: api.orm, temporal: api.temporal }, { intervalMs: 200 });
    try {
      // Within its grace the row is left to its request.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await exists(start.workflowId)).toBe(false);
      // The request is long gone: the grace has passed.
      await api.orm.em
        .fork()
        .execute(`update workflow_starts set next_attempt_at = now() - interval '1 second' where workflow_id = ?`, [
          start.workflowId,
        ]);
      await eventually(async () => (await recordedFor(start.workflowId)).length === 0, {
        what: 'the dispatcher to start the recorded purge',
      });
      await eventually(async () => (await api.storage.list(prefix)).length === 0, { what: 'the purge' });
    } finally {
      await dispatcher.stop();
    }
  });

  const readsJobsWithoutProgressTitle =
    'reads jobs without progress, renames pipelines, and refuses what needs Temporal with ' +
    '503, while Temporal is down';
  it(readsJobsWithoutProgressTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Running fit' })).body;
    const fit = await endlessFit();
    const p = await c.post('/pipelines', { project_id: project.id, name: 'fit', elements: { fit } });
    expect(p.status, p.text).toBe(201);
    const [element] = (await c.get(`/pipelines/${p.body.id}/elements`)).body;
    const jobId: string = element.job_id;
    await untilHeartbeating(api.temporal, pipelineWorkflowIds.element(p.body.id, 'fit'));
    const withTemporal = (await c.get(`/jobs/${jobId}`)).body;
    expect(withTemporal.status).toBe('running');
    expect(withTemporal.progress).toBeDefined();

    const down = await apiWithoutTemporal();
    try {
      const cd = client(down.url, org.api_key);
      const began = Date.now();
      const job = await cd.get(`/jobs/${jobId}`);
      expect(job.status, job.text).toBe(200);
      expect(job.body.status).toBe('running');
      expect(job.body.progress).toBeUndefined();
      const cancel = await cd.post(`/jobs/${jobId}/cancel`);
      expect(cancel.status, cancel.text).toBe(503);
      expect(cancel.body.error_code).toBe('SERVICE_UNAVAILABLE');
      expect(cancel.headers.get('retry-after')).toBe('5');
      // Each answer came within a few seconds, not after the SDK's 20 s of retries.
      expect(Date.now() - began).toBeLessThan(10_000);
      const renamed = await cd.patch(`/pipelines/${p.body.id}`, { name: 'fit, renamed' });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body.name).toBe('fit, renamed');
    } finally {
      await down.close();
    }
    // The refused cancel changed nothing; with Temporal it goes through.
    expect((await c.get(`/jobs/${jobId}`)).body.status).toBe('running');
    expect((await c.get(`/pipelines/${p.body.id}`)).body.name).toBe('fit, renamed');
    expect((await c.post(`/jobs/${jobId}/cancel`)).status).toBe(200);
    await eventually(async () => (await c.get(`/jobs/${jobId}`)).body.status === 'canceled', {
      what: 'the fit to end canceled',
      timeoutMs: 180_000,
    });
  });
});
