// The authorization gaps of issue 31, closed: a project of one's own gives no say over the
// organization's sites; model:* is checked; a simulation without a project needs
// simulation:create somewhere; references (db:<measurement>, cell_spec_id, protocol_id) need
// read access in the project that holds them, not only the same organization.
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, newMember, newOrg } from './harness.ts';
import { insertMeasurement } from './pipelineHelpers.ts';
import { PROJECT_ROLES } from '../db/roles.ts';

const api = apiForSuite();
const VIEWER = PROJECT_ROLES.find((r) => r.name === 'Project Viewer')!.id;
const QUICK = { capacity: 5, chemistry: 'NMC/Graphite' };

/**
 * An owner with a project (and in it a site, cell specification and experiment template), a member with a project of
 * their own, and one with no role.
 */
async function setup() {
  const org = await newOrg(api.orm);
  const owner = client(api.url, org.api_key);
  const project = (await owner.post('/projects', { name: 'Lab' })).body;
  const site = (await owner.post('/sites', { name: 'Main hall' })).body;
  const spec = (await owner.post('/cell_specifications', { project_id: project.id, name: 'LFP 18650' })).body;
  const template = (
    await owner.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol: 'Rest for 1 hour', name: 'Rest' },
      project_id: project.id,
      experiment_parameters: {},
    })
  ).body;
  expect([site.id, spec.id, template.template_id].every(Boolean), JSON.stringify({ site, spec, template })).toBe(true);
  const memberUser = await newMember(api.orm, org.organization_id);
  const member = client(api.url, memberUser.api_key);
  const own = await member.post('/projects', { name: 'Mine' });
  expect(own.status, own.text).toBe(201);
  const noRoleKey = (await newMember(api.orm, org.organization_id)).api_key;
  return {
    org,
    owner,
    project,
    site,
    spec,
    template,
    memberUser,
    member,
    ownProject: own.body,
    noRole: client(api.url, noRoleKey),
    noRoleKey,
  };
}

describe('authorization gaps', () => {
  it("a project of one's own gives no say over the organization's sites", async () => {
    const f = await setup();
    for (const c of [f.member, f.noRole]) {
      const created = await c.post('/sites', { name: 'Squatter hall' });
      expect(created.status, created.text).toBe(403);
      expect(created.body.detail.permission).toBe('cycler:create');
      expect((await c.patch(`/sites/${f.site.id}`, { name: 'Renamed' })).status).toBe(403);
      expect((await c.delete(`/sites/${f.site.id}`)).status).toBe(403);
    }
    // Reading stays open to every member; nothing changed.
    const site = await f.member.get(`/sites/${f.site.id}`);
    expect(site.status).toBe(200);
    expect(site.body.name).toBe('Main hall');
    expect((await f.owner.get('/sites')).body.total).toBe(1);
    // A role someone else gave still counts (the Contributor of the inventory tests adds sites).
    await f.owner.post(`/projects/${f.project.id}/members`, {
      user_id: f.memberUser.user_id,
      project_role_id: PROJECT_ROLES[1].id,
    });
    expect((await f.member.post('/sites', { name: 'Annex' })).status).toBe(201);
  });

  it('checks model:* permissions', async () => {
    const f = await setup();
    const list = await f.noRole.get('/models');
    expect(list.status, list.text).toBe(403);
    expect(list.body.detail.permission).toBe('model:read');
    expect((await f.noRole.post('/models', { name: 'Nope', config: { type: 'SPM' } })).body.detail.permission).toBe(
      'model:create',
    );
    const form = new FormData();
    form.append('name', 'Nope');
    form.append('file', new Blob([JSON.stringify({ type: 'ECM' })]), 'model.json');
    const upload = await fetch(`${api.url}/models/upload-custom`, {
      method: 'POST',
      headers: { 'X-API-Key': f.noRoleKey, Accept: 'application/json' },
      body: form,
    });
    expect(upload.status).toBe(403);
    // A viewer reads models but may not create them.
    const viewerUser = await newMember(api.orm, f.org.organization_id);
    await f.owner.post(`/projects/${f.project.id}/members`, { user_id: viewerUser.user_id, project_role_id: VIEWER });
    const viewer = client(api.url, viewerUser.api_key);
    expect((await viewer.get('/models')).status).toBe(200);
    const create = await viewer.post('/models', { name: 'Nope', config: { type: 'SPM' } });
    expect(create.status).toBe(403);
    expect(create.body.detail.permission).toBe('model:create');
    expect((await f.owner.get('/models')).body.total).toBe(0);
  });

  it('a simulation without a project needs simulation:create in some project', async () => {
    const f = await setup();
    const res = await f.noRole.post('/simulations/protocol/batch', {
      parameterized_model: { quick_model: QUICK },
      protocol_experiment: { protocol: 'Rest for 1 minute' },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.body.detail.permission).toBe('simulation:create');
    const [row] = await api.orm.em
      .fork()
      .execute<{ n: string }[]>(`select count(*) as n from simulations where organization_id = ?`, [
        f.org.organization_id,
      ]);
    expect(Number(row!.n)).toBe(0);
  });

  it('references name what the caller can read in its project, not only in the organization', async () => {
    const f = await setup();
    // db:<measurement> of the owner's project, in a fit of the member's own project.
    const measurementId = await insertMeasurement(api.orm, f.org.organization_id, f.project.id, f.org.user_id, 'ready');
    const fit = await f.member.post('/fit-from-measurements', {
      project_id: f.ownProject.id,
      name: 'Borrowed data',
      measurement_ids: [measurementId],
      model: { kind: 'quick', capacity: 2, chemistry: 'NMC/Graphite' },
      parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
    });
    expect(fit.status, fit.text).toBe(403);
    expect(fit.body.detail.permission).toBe('cell_measurement:read');
    // cell_spec_id of the owner's project: in a parameterized model and in a quick model of the member's project.
    const pm = await f.member.post('/parameterized_models', {
      name: 'Borrowed spec',
      project_id: f.ownProject.id,
      model_id: crypto.randomUUID(),
      cell_spec_id: f.spec.id,
    });
    expect(pm.status, pm.text).toBe(422);
    expect(pm.body.detail[0].loc).toEqual(['body', 'cell_spec_id']);
    const sim = await f.member.post('/simulations/protocol/batch', {
      parameterized_model: { quick_model: { ...QUICK, cell_spec_id: f.spec.id } },
      protocol_experiment: { protocol: 'Rest for 1 minute' },
      project_id: f.ownProject.id,
    });
    expect(sim.status, sim.text).toBe(422);
    expect(sim.body.detail[0].loc).toEqual(['body', 'parameterized_model', 'quick_model', 'cell_spec_id']);
    // protocol_id: a template of the owner's project on a measurement of the member's project.
    const spec = (await f.member.post('/cell_specifications', { project_id: f.ownProject.id, name: 'Mine' })).body;
    const cell = (await f.member.post(`/cell_specifications/${spec.id}/cell_instances`, { name: 'cell 1' })).body;
    const measurement = await f.member.post(`/cell_instances/${cell.id}/cell_measurements/create`, {
      name: 'run',
      properties: {},
      protocol_id: f.template.template_id,
    });
    expect(measurement.status, measurement.text).toBe(422);
    expect(measurement.body.detail[0].loc).toEqual(['body', 'protocol_id']);
    // The owner, who reads both projects, may make these references.
    const ownerSpec = (await f.owner.post('/cell_specifications', { project_id: f.project.id, name: 'Owner cell' }))
      .body;
    const ownerCell = (await f.owner.post(`/cell_specifications/${ownerSpec.id}/cell_instances`, { name: 'cell 1' }))
      .body;
    const allowed = await f.owner.post(`/cell_instances/${ownerCell.id}/cell_measurements/create`, {
      name: 'run',
      properties: {},
      protocol_id: f.template.template_id,
    });
    expect(allowed.status, allowed.text).toBe(201);
  });
});
