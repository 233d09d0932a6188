// Bulk cancellation against the real stack: 50 pipelines, each with a running data_fit element
// (no Python worker listens, so each fit stays running), canceled in one request.
import { describe, expect, it, vi } from 'vitest';
import { apiForSuite, client, eventually, newOrg, startPythonWorker } from './harness.ts';
import { QUICK_MODEL, R0, quickDischarge } from './pipelineHelpers.ts';
import { cancelWorkflowId } from '../api/services/pipelines/cancellation.ts';

// 50 pipelines, their workflows and the cancel workflow take 7 to 20 s on this 2-core machine,
// and over a minute when another load shares it (one clean-clone CI run).
vi.setConfig({ testTimeout: 180_000 });

const api = apiForSuite();

const FIT = {
  element_type: 'data_fit',
  model: { kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' },
  parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
  data: { 'Time [s]': [0, 1, 2], 'Current [A]': [2, 2, 2], 'Voltage [V]': [4.1, 4.09, 4.08] },
};

describe('POST /pipelines/cancel', () => {
  const cancels50RunningPipelinesTitle =
    'cancels 50 running pipelines in one request; one workflow terminates every running ' + 'element after the answer';
  it(cancels50RunningPipelinesTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'bulk cancel' })).body;
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await c.post('/pipelines', {
        project_id: project.id,
        name: `fit ${i}`,
        elements: {
          values: { element_type: 'entry', values: { 'Ambient temperature [K]': 298.15 } },
          fit: FIT,
          after: { element_type: 'entry', values: { x: 1 } },
        },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const em = api.orm.em.fork();
    await eventually(
      async () => {
        const [row] = await em.execute<{ n: string }[]>(
          `select count(*) as n from pipeline_elements
            where pipeline_id in (select jsonb_array_elements_text(?::jsonb)::uuid) and name = 'fit'
              and status = 'running'`,
          [JSON.stringify(ids)],
        );
        return Number(row!.n) === 50;
      },
      { what: '50 running fits', timeoutMs: 180_000 },
    );

    const res = await c.post('/pipelines/cancel', { pipeline_ids: ids });
    const answeredAt = Date.now();
    expect(res.status).toBe(200);
    expect([...res.body.canceled_pipeline_ids].sort()).toEqual([...ids].sort());

    // At the answer the database already says canceled: pipelines, running and pending elements, their jobs.
    const states = await em.execute<{ name: string; status: string; job_status: string }[]>(
      `select e.name, e.status, j.status as job_status from pipeline_elements e join jobs j on j.id = e.job_id
        where e.pipeline_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
      [JSON.stringify(ids)],
    );
    for (const s of states) {
      if (s.name === 'values') expect(s.status).toBe('completed');
      else expect([s.status, s.job_status]).toEqual(['canceled', 'canceled']);
    }
    const pipelines = await em.execute<{ status: string }[]>(
      `select status from pipelines where id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
      [JSON.stringify(ids)],
    );
    expect(pipelines.every((p) => p.status === 'canceled')).toBe(true);

    // One background workflow, named by the request; a retried request finds the same one.
    const cancelHandle = api.temporal.workflow.getHandle(cancelWorkflowId(ids));
    const again = await c.post('/pipelines/cancel', { pipeline_ids: [...ids].reverse() });
    expect(again.status).toBe(200);
    const outcome = await cancelHandle.result();
    expect(outcome.pipelines).toBe(50);
    const runs = [];
    for await (const w of api.temporal.workflow.list({ query: `WorkflowId = '${cancelWorkflowId(ids)}'` }))
      runs.push(w);
    expect(runs.length).toBeLessThanOrEqual(1);

    // No element workflow is left running; each was closed after the answer went out.
    const closeTimes: number[] = [];
    for (const id of ids) {
      const child = await api.temporal.workflow.getHandle(`pipeline-${id}-element-fit`).describe();
      expect(child.status.name).toBe('TERMINATED');
      closeTimes.push(child.closeTime!.getTime());
      await expect(api.temporal.workflow.getHandle(`pipeline-${id}-element-after`).describe()).rejects.toThrow();
    }
    // The pipeline workflows, signalled, stop scheduling and end on their own.
    for (const id of ids) {
      const parent = api.temporal.workflow.getHandle(`pipeline-${id}`);
      expect(await parent.result()).toEqual({ status: 'canceled' });
    }
    const cancelDesc = await cancelHandle.describe();
    expect(cancelDesc.closeTime!.getTime()).toBeGreaterThanOrEqual(Math.max(...closeTimes) - 5);
    expect(Math.max(...closeTimes)).toBeGreaterThan(answeredAt - 5);
    await eventually(
      async () => {
        let running = 0;
        for await (const _w of api.temporal.workflow.list({
          query: `CellarProject = '${project.id}' AND ExecutionStatus = 'Running'`,
        }))
          running++;
        return running === 0;
      },
      { what: 'no running workflow for the project in visibility' },
    );

    // The elements and the pipelines read canceled through the API; completed elements kept their results.
    const one = await c.get(`/pipelines/${ids[0]}/elements`);
    expect(one.body.map((e: { status: string }) => e.status)).toEqual(['completed', 'canceled', 'canceled']);
    // A canceled element's job is failed and says why (a job answer has error when failed).
    expect((await c.get(`/jobs/${one.body[1].job_id}`)).body).toMatchObject({
      status: 'canceled',
      is_failed: true,
      error: 'canceled on request',
    });
    expect((await c.get(`/pipelines/${ids[0]}`)).body).toMatchObject({
      status: 'canceled',
      is_terminal: true,
      is_failed: true,
    });
  });

  it("ends the pipeline canceled when its running element's job is canceled through /jobs", async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'job cancel' })).body;
    const p = (
      await c.post('/pipelines', {
        project_id: project.id,
        name: 'one fit',
        elements: { fit: FIT, after: { element_type: 'entry', values: { x: 1 } } },
      })
    ).body;
    const fit = await eventually(
      async () => {
        const els = (await c.get(`/pipelines/${p.id}/elements`)).body;
        return els[0].status === 'running' ? els[0] : null;
      },
      { what: 'the fit to run' },
    );
    expect((await c.post(`/jobs/${fit.job_id}/cancel`)).status).toBe(200);
    const done = await eventually(
      async () => {
        const r = await c.get(`/pipelines/${p.id}`);
        return r.body.is_terminal ? r.body : null;
      },
      { what: 'the pipeline to end' },
    );
    expect(done).toMatchObject({ status: 'canceled', is_failed: true });
    // The element after it will never run: it ends canceled with the pipeline, its job too.
    const elements = (await c.get(`/pipelines/${p.id}/elements`)).body;
    expect(elements.map((e: { status: string }) => e.status)).toEqual(['canceled', 'canceled']);
    expect((await c.get(`/jobs/${fit.job_id}`)).body).toMatchObject({
      status: 'canceled',
      is_failed: true,
      error: 'canceled on request',
    });
    expect((await c.get(`/jobs/${elements[1].job_id}`)).body).toMatchObject({ status: 'canceled', is_terminal: true });
  });

  it("ends the pipeline canceled when a pending element's job is canceled through /jobs", async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'pending job cancel' })).body;
    const fit = {
      element_type: 'data_fit',
      model: QUICK_MODEL,
      data: await quickDischarge(),
      parameters: { [R0]: { bounds: [0.001, 0.1], initial_value: 0.05 } },
    };
    const p = (
      await c.post('/pipelines', {
        project_id: project.id,
        name: 'fit then entry',
        elements: { fit, after: { element_type: 'entry', values: { x: 1 } } },
      })
    ).body;
    // No Python worker yet: the fit waits, so `after` stays pending.
    const after = await eventually(
      async () => {
        const els = (await c.get(`/pipelines/${p.id}/elements`)).body;
        return els[0].status === 'running' ? els[1] : null;
      },
      { what: 'the fit to run' },
    );
    expect(after.status).toBe('pending');
    const res = await c.post(`/jobs/${after.job_id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'canceled', is_terminal: true });
    expect((await c.get(`/pipelines/${p.id}/elements`)).body.map((e: { status: string }) => e.status)).toEqual([
      'running',
      'canceled',
    ]);

    // The fit completes (and keeps its result); the pipeline then meets the canceled element.
    const python = startPythonWorker(api.config);
    try {
      const done = await eventually(
        async () => {
          const r = await c.get(`/pipelines/${p.id}`);
          return r.body.is_terminal ? r.body : null;
        },
        { what: 'the pipeline to end', timeoutMs: 180_000, intervalMs: 500 },
      );
      expect(done).toMatchObject({ status: 'canceled', is_failed: true });
    } finally {
      await python.stop();
    }
    const els = (await c.get(`/pipelines/${p.id}/elements`)).body;
    expect(els.map((e: { status: string }) => e.status)).toEqual(['completed', 'canceled']);
    expect(els[0].result.parameter_values[R0]).toBeGreaterThan(0);
    expect((await c.get(`/jobs/${after.job_id}`)).body.status).toBe('canceled');
    expect(await api.temporal.workflow.getHandle(`pipeline-${p.id}`).result()).toEqual({ status: 'canceled' });
  }, 240_000);
});
