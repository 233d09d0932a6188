// A simulation identical to one already solved reuses its stored result, unless force_rerun.
import { expect, it } from 'vitest';
import { jobFinished, type TestApi } from '../harness.ts';
import { QUICK, simulationHelpers } from './helpers.ts';

export function resultReuseCases(api: TestApi) {
  const { setup } = simulationHelpers(api);

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
}
