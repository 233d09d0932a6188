// What the simulation cases share: the quick model, a 1C discharge, and helpers bound to the
// suite's API (a project to work in, a batch's workflow, a simulation run outside its batch).
import { expect } from 'vitest';
import { batchOf, client, newOrg, type TestApi } from '../harness.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';

export const QUICK = { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } };
export const DISCHARGE_1C = 'Discharge at 1C until 2.5V';

/** 10,000 one-hour cycles: a simulation still running when the test acts on it. */
export const LONG_PROTOCOL = {
  steps: [
    { Discharge: { mode: 'C-rate', value: 1, duration: 600 } },
    { Charge: { mode: 'C-rate', value: 1, duration: 600 } },
    { Goto: { step: 0, repeat: 9999 } },
  ],
};

/** A batch body of LONG_PROTOCOL on the quick model in `projectId`, with `more` (a DOE) added. */
export const longBatch = (projectId: string, more: Record<string, unknown> = {}) => ({
  parameterized_model: QUICK,
  protocol_experiment: { protocol: LONG_PROTOCOL, name: 'long' },
  project_id: projectId,
  max_backward_jumps: 10000,
  ...more,
});

/** The helpers, bound to the suite's API. */
export function simulationHelpers(api: TestApi) {
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

  return { setup, batchWorkflow, simulationWithoutItsBatch, countRows };
}
