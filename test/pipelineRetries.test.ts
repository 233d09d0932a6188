// The scheduled retry of failed elements: a real Temporal Schedule (1 s interval here) that
// restarts pipelines whose failed element failed for a retryable cause, never re-running
// completed elements, at most PIPELINE_RETRY_MAX_ATTEMPTS runs per element.
import { afterAll, describe, expect, it } from 'vitest';
import { apiForSuite, client, eventually, newOrg, testConfig } from './harness.ts';
import { ensurePipelineRetrySchedule } from '../activities/pipelineRetries.ts';

const api = apiForSuite({
  config: testConfig('fs', { PIPELINE_RETRY_INTERVAL_SECONDS: '1', PIPELINE_RETRY_MAX_ATTEMPTS: '2' }),
});
let scheduleId: string | undefined;
// Runs before the stack stops: after-hooks run in reverse order of registration.
afterAll(async () => {
  if (scheduleId)
    await api.temporal.schedule
      .getHandle(scheduleId)
      .delete()
      .catch(() => undefined);
});

const ENTRY = { element_type: 'entry', values: { 'Electrode height [m]': 0.065, 'Electrode width [m]': 1.58 } };
const CALC = {
  element_type: 'calculation',
  type: 'electrode_capacity',
  electrode: 'positive',
  max_concentration: 51765,
  active_material_volume_fraction: 0.665,
  thickness: 75.6e-6,
};

/**
 * Makes a finished pipeline look as if its calculation had failed with `code` on its last run
 * (as the element workflow records it) and its last element had never run.
 */
async function failCalculation(pipelineId: string, code: string, attempts: number) {
  const em = api.orm.em.fork();
  await em.execute(
    `update pipeline_elements set status = 'failed', error_code = ?, result = null, attempts = ?,
      finished_at = now() - interval '10 seconds',
            error_detail = jsonb_build_object('exception_type', ?::text, 'error_code', ?::text),
            attempt_log = (select jsonb_agg(jsonb_build_object('attempt', n, 'status', 'failed', 'error_code',
              ?::text)) from generate_series(1, ?) n)
      where pipeline_id = ? and name = 'calc'`,
    [code, attempts, code, code, code, attempts, pipelineId],
  );
  await em.execute(
    `update pipeline_elements set status = 'pending', result = null, attempts = 0, attempt_log = '[]',
      started_at = null, finished_at = null
      where pipeline_id = ? and name = 'last'`,
    [pipelineId],
  );
  await em.execute(`update pipelines set status = 'failed', result = null, finished_at = now() where id = ?`, [
    pipelineId,
  ]);
}

describe('scheduled retries', () => {
  const retriesRetryableFailuresThroughTitle =
    'retries retryable failures through a pausable schedule, keeps completed elements, and ' +
    'stops at the attempt limit';
  it(retriesRetryableFailuresThroughTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'retries' })).body;
    const make = async (name: string) => {
      const r = await c.post('/pipelines', {
        project_id: project.id,
        name,
        elements: { first: ENTRY, calc: CALC, last: ENTRY },
      });
      await eventually(async () => (await c.get(`/pipelines/${r.body.id}`)).body.status === 'completed');
      return r.body.id as string;
    };
    const [transient, exhausted, configuration] = [
      await make('solver hiccup'),
      await make('out of attempts'),
      await make('bad config'),
    ];
    const firstBefore = (await c.get(`/pipelines/${transient}/elements`)).body[0];
    await failCalculation(transient, 'SOLVER_ERROR', 1);
    await failCalculation(exhausted, 'WORKER_ERROR', 2);
    await failCalculation(configuration, 'CONFIGURATION_ERROR', 1);

    // Created idempotently: a second start finds the schedule and leaves it as configured.
    scheduleId = await ensurePipelineRetrySchedule(api.temporal, api.config);
    expect(await ensurePipelineRetrySchedule(api.temporal, api.config)).toBe(scheduleId);
    const schedule = api.temporal.schedule.getHandle(scheduleId);
    const desc = await schedule.describe();
    expect(desc.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'retryFailedElements',
      taskQueue: api.config.taskQueue,
    });
    expect(desc.spec.intervals?.[0]?.every).toBe(1000);
    expect(desc.state.paused).toBe(false);

    const done = await eventually(
      async () => {
        const r = await c.get(`/pipelines/${transient}`);
        return r.body.status === 'completed' ? r.body : null;
      },
      { what: 'the retried pipeline to complete', timeoutMs: 90_000 },
    );
    expect(done.error_detail).toBeNull();
    const els = (await c.get(`/pipelines/${transient}/elements`)).body;
    // The completed element was not run again; the failed one got a second, recorded attempt.
    expect(els[0]).toMatchObject({ status: 'completed', attempts: 1, finished_at: firstBefore.finished_at });
    expect(els[1]).toMatchObject({ status: 'completed', attempts: 2 });
    expect(els[1].attempt_log.map((a: { status: string }) => a.status)).toEqual(['failed', 'completed']);
    expect(els[2]).toMatchObject({ status: 'completed', attempts: 1 });
    expect((await c.get(`/jobs/${els[1].job_id}`)).body.status).toBe('completed');

    // Pausable like any schedule; while paused nothing runs, and the others never qualify.
    await schedule.pause('operator pause in a test');
    expect((await schedule.describe()).state.paused).toBe(true);
    const taken = (await schedule.describe()).info.numActionsTaken;
    expect(taken).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await schedule.describe()).info.numActionsTaken).toBe(taken);
    for (const id of [exhausted, configuration]) {
      expect((await c.get(`/pipelines/${id}`)).body.status).toBe('failed');
      const calc = (await c.get(`/pipelines/${id}/elements`)).body[1];
      expect(calc.status).toBe('failed');
    }
  });
});
