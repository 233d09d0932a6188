// DELETE /simulations/{id} with the real API, workers, Temporal, PostgreSQL and storage: a
// running simulation is stopped with its batch workflow, stored results are purged once no
// simulation reads them, and another organization's simulation cannot be deleted.
import { describe, expect, it, vi } from 'vitest';
import { apiForSuite, batchOf, client, eventually, jobFinished, newOrg } from './harness.ts';
import { simulationWorkflowIds } from '../workflows/simulationIds.ts';
import { QUICK, longBatch } from './simulation/helpers.ts';

vi.setConfig({ testTimeout: 240_000 });

const api = apiForSuite({ python: true });

async function setup() {
  const org = await newOrg(api.orm);
  const c = client(api.url, org.api_key);
  const project = (await c.post('/projects', { name: 'Deletes' })).body;
  return { org, c, project };
}

async function packFiles(simulationId: string): Promise<string[]> {
  const [row] = await api.orm.em
    .fork()
    .execute<{ key: string }[]>(`select result_pack ->> 'key' as key from simulations where id = ?`, [simulationId]);
  return ['time_series', 'steps'].map((kind) => `${row!.key}-${kind}.parquet`);
}

async function searchDocuments(simulationId: string): Promise<number> {
  const rows = await api.orm.em
    .fork()
    .execute(`select 1 from search_documents where entity_type = 'simulation' and entity_id = ?`, [simulationId]);
  return rows.length;
}

async function stored(keys: string[]): Promise<boolean[]> {
  return Promise.all(
    keys.map((key) =>
      api.storage.get(key).then(
        (s) => (s.destroy(), true),
        () => false,
      ),
    ),
  );
}

describe('DELETE /simulations/{id}', () => {
  it('stops a running simulation: its batch workflow is canceled and its job goes with it', async () => {
    const { c, project } = await setup();
    const res = await c.post('/simulations/protocol/batch', longBatch(project.id));
    expect(res.status, res.text).toBe(200);
    const { simulation_id: id, job_id: jobId } = res.body[0];
    await eventually(async () => (await c.get(`/jobs/${jobId}`)).body.progress?.steps_done > 0, {
      timeoutMs: 180_000,
      what: 'the solve to run',
    });
    expect(await searchDocuments(id)).toBe(1);
    const handle = api.temporal.workflow.getHandle(simulationWorkflowIds.batch(await batchOf(api.orm, id)));
    const del = await c.delete(`/simulations/${id}`);
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ id, deleted: true });
    expect((await c.get(`/simulations/${id}`)).status).toBe(404);
    expect((await c.get(`/jobs/${jobId}`)).status).toBe(404);
    await eventually(async () => (await handle.describe()).status.name === 'CANCELLED', {
      timeoutMs: 30_000,
      what: 'the batch workflow to be canceled',
    });
    expect(await searchDocuments(id)).toBe(0);
    expect((await c.delete(`/simulations/${id}`)).status).toBe(404);
  });

  it('keeps a result another simulation reuses, and purges it with the last one', async () => {
    const { c, project } = await setup();
    const body = {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: 'Discharge at 2C until 3.1V' },
      project_id: project.id,
    };
    const first = (await c.post('/simulations/protocol/batch', body)).body[0];
    expect((await jobFinished(c, first.job_id)).status).toBe('completed');
    const second = (await c.post('/simulations/protocol/batch', body)).body[0];
    expect((await jobFinished(c, second.job_id)).result.reused).toBe(true);
    const files = await packFiles(first.simulation_id);
    expect(await stored(files)).toEqual([true, true]);

    expect((await c.delete(`/simulations/${first.simulation_id}`)).status).toBe(200);
    const still = await c.get(`/simulations/${second.simulation_id}/time_series/download`);
    expect(still.status).toBe(200);
    expect(await stored(files)).toEqual([true, true]);

    expect((await c.delete(`/simulations/${second.simulation_id}`)).status).toBe(200);
    await eventually(async () => (await stored(files)).every((s) => !s), {
      timeoutMs: 30_000,
      what: 'the result pack to be purged',
    });
  });

  it("answers 403 for another organization's simulation and 422 for a bad id, deleting nothing", async () => {
    const { c, project } = await setup();
    const sim = (
      await c.post('/simulations/protocol/batch', {
        parameterized_model: QUICK,
        protocol_experiment: { protocol: 'Rest for 1 minute' },
        project_id: project.id,
      })
    ).body[0];
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    const refused = await stranger.delete(`/simulations/${sim.simulation_id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe('FORBIDDEN');
    const bad = await c.delete('/simulations/not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toContain('simulation_id');
    expect((await c.get(`/simulations/${sim.simulation_id}`)).status).toBe(200);
    await jobFinished(c, sim.job_id);
  });
});
