// Simulation boards: saved views of a study's simulations.
import { expect, it } from 'vitest';
import { client, newOrg, type TestApi } from '../harness.ts';
import { pipelineHelpers } from './helpers.ts';

export function simulationBoardCases(api: TestApi) {
  const { setup } = pipelineHelpers(api);

  it("saves views of a study's simulations: CRUD, only the study's simulations, names unique per study", async () => {
    const { org, c, project } = await setup();
    const study = (await c.post(`/projects/${project.id}/studies`, { name: 'Rate study' })).body;
    const simId = await insertSimulation(org.organization_id, project.id, org.user_id);
    expect((await c.post(`/projects/${project.id}/studies/${study.id}/simulations/${simId}`)).status).toBeLessThan(300);
    const base = `/projects/${project.id}/studies/${study.id}/simulation_boards`;
    const plots = [
      {
        title: 'Discharge',
        x: { variable: 'Time [s]' },
        y: { variables: ['Voltage [V]', 'Current [A]'], scale: 'linear' },
      },
    ];
    const made = await c.post(base, { name: 'Overview', simulation_ids: [simId], plots });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Overview', study_id: study.id, simulation_ids: [simId], plots });
    expect((await c.post(base, { name: 'Overview' })).body).toMatchObject({
      error_code: 'CONFLICT',
      detail: { existing_id: made.body.id },
    });
    const stranger = crypto.randomUUID();
    const bad = await c.post(base, { name: 'Other', simulation_ids: [stranger] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'simulation_ids', 0]);
    expect(
      (await c.post(base, { name: 'Bad axis', plots: [{ x: { variable: 'Time [s]' }, y: { variables: [] } }] })).status,
    ).toBe(422);
    expect((await c.get(base)).body).toMatchObject({ count: 1, total: 1 });
    const patched = await c.patch(`${base}/${made.body.id}`, { name: 'Renamed', simulation_ids: [] });
    expect(patched.body).toMatchObject({ name: 'Renamed', simulation_ids: [] });
    expect((await c.get(`${base}/${made.body.id}`)).body.name).toBe('Renamed');
    const other = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await other.get(`${base}/${made.body.id}`)).status).toBe(403);
    expect((await c.delete(`${base}/${made.body.id}`)).body).toEqual({ id: made.body.id, deleted: true });
    expect((await c.get(`${base}/${made.body.id}`)).status).toBe(404);
  });

  /** A simulation row (with its batch and job), as a submission would leave it. */
  async function insertSimulation(orgId: string, projectId: string, userId: string): Promise<string> {
    const em = api.orm.em.fork();
    const [batch, job, sim] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await em.execute(
      `insert into simulation_batches (id, organization_id, project_id, name, model_config, protocol, simulator_version,
        size, created_by)
       values (?, ?, ?, 'b', '{}', '{}', '26.0', 1, ?)`,
      [batch, orgId, projectId, userId],
    );
    await em.execute(
      `insert into jobs (id, organization_id, project_id, job_type, status, created_by)
        values (?, ?, ?, 'simulation', 'completed', ?)`,
      [job, orgId, projectId, userId],
    );
    await em.execute(
      `insert into simulations (id, organization_id, project_id, batch_id, seq, job_id, name, content_hash, created_by)
        values (?, ?, ?, ?, 0, ?, 's', 'h', ?)`,
      [sim, orgId, projectId, batch, job, userId],
    );
    return sim;
  }
}
