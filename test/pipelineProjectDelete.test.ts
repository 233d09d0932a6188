// Deleting a project stops its work: a data_fit running in the Python worker, its pipeline
// and a running simulation batch end in Temporal after the delete.
import { describe, expect, it, vi } from 'vitest';
import { apiForSuite, batchOf, client, eventually, newOrg } from './harness.ts';
import { endlessFit, untilHeartbeating } from './pipelineHelpers.ts';
import { LONG_PROTOCOL } from './simulation/helpers.ts';
import { pipelineWorkflowIds } from '../workflows/pipelineIds.ts';
import { simulationWorkflowIds } from '../workflows/simulationIds.ts';
import { workflowIds } from '../worker/taskQueues.ts';

vi.setConfig({ testTimeout: 240_000 });

const api = apiForSuite({ python: true });

async function runningFor(projectId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const w of api.temporal.workflow.list({
    query: `CellarProject = '${projectId}' AND ExecutionStatus = 'Running'`,
  }))
    ids.push(w.workflowId);
  return ids;
}

describe('DELETE /projects/{id}', () => {
  it("stops the project's running pipeline, its fit and its simulation batch", async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'deleted with work' })).body;
    // The fit is still running at the delete.
    const fit = await endlessFit();
    const p = await c.post('/pipelines', {
      project_id: project.id,
      name: 'fit',
      elements: { fit, after: { element_type: 'entry', values: { x: 1 } } },
    });
    expect(p.status).toBe(201);
    // A long simulation (10,000 cycles), so that the batch is still running at the delete; one
    // point, so that it takes one solver slot of the two and the fit has the other.
    const sims = await c.post('/simulations/protocol/batch', {
      parameterized_model: { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } },
      protocol_experiment: {
        protocol: LONG_PROTOCOL,
      },
      max_backward_jumps: 10000,
      project_id: project.id,
    });
    expect(sims.status, sims.text).toBe(200);
    const batchId = await batchOf(api.orm, sims.body[0].simulation_id);
    const fitWorkflow = pipelineWorkflowIds.element(p.body.id, 'fit');
    await untilHeartbeating(api.temporal, fitWorkflow);
    // A running fit's job shows its progress: optimizer iterations against the budget.
    const [fitElement] = (await c.get(`/pipelines/${p.body.id}/elements`)).body;
    const progress = await eventually(
      async () => {
        const job = (await c.get(`/jobs/${fitElement.job_id}`)).body;
        return job.progress?.steps_total ? job.progress : null;
      },
      { what: "the fit's progress in its job" },
    );
    const budget = fit.optimizer.max_iterations;
    expect(progress.steps_total).toBe(budget);
    expect(progress.fraction).toBe(progress.steps_done / budget);
    const workflows = [pipelineWorkflowIds.pipeline(p.body.id), fitWorkflow, simulationWorkflowIds.batch(batchId)];
    for (const id of workflows)
      expect((await api.temporal.workflow.getHandle(id).describe()).status.name).toBe('RUNNING');

    expect((await c.delete(`/projects/${project.id}`)).status).toBe(200);
    expect((await c.get(`/pipelines/${p.body.id}`)).status).toBe(404);

    const stop = await api.temporal.workflow.getHandle(workflowIds.stopProjectWork(project.id)).result();
    // The pipeline and the batch are ended by the stop; the fit, a child of the pipeline, is ended by
    // whichever comes first: the stop's own terminate or its parent's close policy.
    expect(stop.terminated).toBeGreaterThanOrEqual(workflows.length - 1);
    for (const id of workflows)
      expect((await api.temporal.workflow.getHandle(id).describe()).status.name).toBe('TERMINATED');
    await eventually(async () => (await runningFor(project.id)).length === 0, {
      what: 'no running workflow for the project in visibility',
    });
  });
});
