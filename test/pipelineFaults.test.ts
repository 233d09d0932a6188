// A pipeline whose fit loses its Python worker (SIGKILL) midway: the fit is retried on a new
// worker, resumes from its last heartbeat, and the pipeline completes with one result and one
// job per element.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { ManagedProcess } from '../stack/processes.ts';
import {
  client,
  eventually,
  killPythonWorker,
  newOrg,
  startApi,
  startPythonWorker,
  startWorker,
  testConfig,
  type TestApi,
} from './harness.ts';
import { QUICK_MODEL, R0, TRUE_R0, quickDischarge } from './pipelineHelpers.ts';

vi.setConfig({ testTimeout: 300_000 });

let api: TestApi;
let worker: Awaited<ReturnType<typeof startWorker>>;
let python: ManagedProcess | undefined;
beforeAll(async () => {
  // A lost worker is noticed after 4 s without a heartbeat (the worker beats every 2 s).
  api = await startApi({ config: testConfig('fs', { PIPELINE_HEARTBEAT_TIMEOUT_SECONDS: '4' }) });
  worker = await startWorker(api);
});
afterAll(async () => {
  await python?.stop();
  await worker?.stop();
  await api?.close();
});

async function fitProgress(workflowId: string): Promise<{ evaluations: number } | null> {
  const { raw } = await api.temporal.workflow.getHandle(workflowId).describe();
  const payload = raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
  return payload ? defaultPayloadConverter.fromPayload<{ evaluations: number }>(payload as Payload) : null;
}

describe('pipeline faults', () => {
  it('survives a SIGKILL of the Python worker in the middle of a data_fit', async () => {
    const data = await quickDischarge();
    // Frequent heartbeats: the fit must have checkpointed before it is killed, however fast it is.
    process.env.FIT_HEARTBEAT_INTERVAL_S = '0.25';
    python = startPythonWorker(api.config);
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'faults' })).body;
    const res = await c.post('/pipelines', {
      project_id: project.id,
      name: 'fit through a crash',
      elements: {
        conditions: { element_type: 'entry', values: { 'Ambient temperature [K]': 298.15 } },
        fit: {
          element_type: 'data_fit',
          model: QUICK_MODEL,
          data,
          cost: 'RMSE',
          parameters: { [R0]: { bounds: [0.001, 0.1], initial_value: 0.05 } },
          // Many evaluations and a negligible tolerance, so the fit is still running when the worker dies.
          optimizer: { method: 'differential_evolution', max_iterations: 200, tolerance: 1e-300 },
        },
        check: { element_type: 'validation', model: QUICK_MODEL, data },
      },
    });
    expect(res.status).toBe(201);
    const id = res.body.id;

    const before = await eventually(
      async () => {
        const p = await fitProgress(`pipeline-${id}-element-fit`).catch(() => null);
        return p && p.evaluations > 0 ? p : null;
      },
      { what: 'the fit to report progress', timeoutMs: 120_000, intervalMs: 250 },
    );
    killPythonWorker(python);
    await new Promise((r) => python!.child.once('exit', r));
    python = startPythonWorker(api.config);

    const done = await eventually(
      async () => {
        const r = await c.get(`/pipelines/${id}`);
        return r.body.is_terminal ? r.body : null;
      },
      { what: 'the pipeline to finish', timeoutMs: 240_000, intervalMs: 500 },
    );
    expect(done).toMatchObject({ status: 'completed', error_detail: null });

    const result = (await c.get(`/pipelines/${id}/result`)).body;
    expect(Object.keys(result.element_results)).toEqual(['conditions', 'fit', 'check']);
    const fit = result.element_results.fit;
    expect(fit.resumed).toBe(true);
    expect(fit.evaluations).toBeGreaterThan(before.evaluations);
    expect(fit.parameter_values[R0]).toBeCloseTo(TRUE_R0, 3);
    expect(result.result.parameter_values[R0]).toBe(fit.parameter_values[R0]);
    expect(result.element_results.check.summary_stats.RMSE).toBeLessThan(0.01);

    // One job and one run per element: the crash cost an activity retry, not a new element run.
    const elements = (await c.get(`/pipelines/${id}/elements`)).body;
    expect(elements.map((e: { attempts: number }) => e.attempts)).toEqual([1, 1, 1]);
    const [jobs] = await api.orm.em
      .fork()
      .execute<{ n: string }[]>(`select count(*) as n from jobs where workflow_id like ?`, [`pipeline-${id}-%`]);
    expect(Number(jobs!.n)).toBe(3);
    for (const e of elements) expect((await c.get(`/jobs/${e.job_id}`)).body).toMatchObject({ status: 'completed' });
  });
});
