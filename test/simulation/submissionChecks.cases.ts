// What a submission is checked for before anything is created: bad input (422 at the field), the
// monthly limit (429), a resent Idempotency-Key, and other organizations.
import { expect, it } from 'vitest';
import { batchOf, client, jobFinished, newOrg, type TestApi } from '../harness.ts';
import { addMember } from '../../api/services/bootstrap.ts';
import { DISCHARGE_1C, QUICK, simulationHelpers } from './helpers.ts';
import { refusedSubmissions } from './refusedSubmissions.ts';

export function submissionCheckCases(api: TestApi) {
  const { setup, countRows } = simulationHelpers(api);

  it('refuses bad input with 422 naming the field, creating nothing', async () => {
    const { org, c, project } = await setup();
    const other = (await c.post('/projects', { name: 'Other' })).body;
    const foreignStudy = (await c.post(`/projects/${other.id}/studies`, { name: 'Elsewhere' })).body;
    const ok = { parameterized_model: QUICK, protocol_experiment: { protocol: DISCHARGE_1C }, project_id: project.id };
    const cases = refusedSubmissions(ok, foreignStudy);
    for (const [body, loc] of cases) {
      const res = await c.post('/simulations/protocol/batch', body);
      expect(res.status, `${JSON.stringify(loc)}: ${res.text}`).toBe(422);
      expect(res.body.detail[0].loc, res.text).toEqual(loc);
      expect(res.body.detail[0].msg).toBeTruthy();
    }
    // A number sent as text is told so, not that it should be greater than 0.
    const asText = await c.post('/simulations/protocol/batch', {
      ...ok,
      parameterized_model: { quick_model: { capacity: '5', chemistry: 'NMC/Graphite' } },
    });
    expect(asText.status).toBe(422);
    expect(asText.body.detail[0]).toMatchObject({
      loc: ['body', 'parameterized_model', 'quick_model', 'capacity'],
      type: 'float_type',
      input: '5',
    });
    expect(asText.body.detail[0].msg).toContain('given as a finite number');
    // A built-in column is already there.
    const builtIn = await c.post('/simulations/protocol/batch', { ...ok, extra_variables: ['Step count'] });
    expect(builtIn.status).toBe(422);
    expect(builtIn.body.detail[0]).toMatchObject({
      loc: ['body', 'extra_variables', 0],
      msg: '"Step count" is already a column',
    });
    // A variable that varies in space has no single value per time to put in a column.
    const spatial = await c.post('/simulations/protocol/batch', {
      ...ok,
      parameterized_model: { model: { type: 'SPM' }, parameters: {} },
      extra_variables: ['X-averaged cell temperature [K]', 'Electrolyte concentration [mol.m-3]'],
    });
    expect(spatial.status, spatial.text).toBe(422);
    expect(spatial.body.detail[0]).toMatchObject({
      loc: ['body', 'extra_variables', 1],
      input: 'Electrolyte concentration [mol.m-3]',
    });
    expect(spatial.body.detail[0].msg).toContain('varies in space');
    // A template's loops are counted against the batch's own max_backward_jumps.
    const looped = await c.post('/protocols/parse-to-template', {
      protocol_experiment: {
        protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 3 } }] },
        name: 'Loop',
      },
      project_id: project.id,
    });
    expect(looped.status, looped.text).toBe(200);
    const template = {
      parameterized_model: QUICK,
      experiment_template_id: looped.body.template_id,
      project_id: project.id,
    };
    const capped = await c.post('/simulations/with-template/batch', { ...template, max_backward_jumps: 2 });
    expect(capped.status, capped.text).toBe(422);
    expect(capped.body.detail[0].loc).toEqual(['body', 'max_backward_jumps']);
    expect(capped.body.detail[0].msg).toMatch(/steps\[1\] \(Goto\)\.repeat: .*max_backward_jumps=2/);
    const badSet = await c.post('/simulations/with-template/batch', {
      ...template,
      experiment_parameter_sets: [{ 'R0 [Ohm]': 0.004 }, { 'Initial SOC [%]': -5 }],
    });
    expect(badSet.status, badSet.text).toBe(422);
    expect(badSet.body.detail[0].loc).toEqual(['body', 'experiment_parameter_sets', 1, 'Initial SOC [%]']);
    expect(await countRows(org.organization_id)).toEqual({ sims: 0, jobs: 0 });
    const [wf] = await api.orm.em
      .fork()
      .execute<{ n: string }[]>(`select count(*) as n from simulation_batches where organization_id = ?`, [
        org.organization_id,
      ]);
    expect(Number(wf!.n)).toBe(0);
    const usage = await c.get('/organizations/current/usage');
    expect(usage.body.simulation).toMatchObject({ usage: 0, count: 0 });
  });

  it('refuses a batch past the monthly limit with 429 naming limit and usage', async () => {
    const { org, c, project } = await setup();
    await api.orm.em
      .fork()
      .execute(`update organizations set simulation_monthly_limit = 3 where id = ?`, [org.organization_id]);
    const body = {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: DISCHARGE_1C },
      project_id: project.id,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005] }],
      },
    };
    expect((await c.post('/simulations/protocol/batch', body)).status).toBe(200);
    const refused = await c.post('/simulations/protocol/batch', body);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error_code: 'USAGE_LIMIT_EXCEEDED',
      detail: { limit: 3, usage: 2, requested: 2 },
    });
    expect(refused.body.message).toMatch(/3/);
    const usage = await c.get('/organizations/current/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.simulation).toMatchObject({ count: 2, count_limit: 3, limit: null });
    expect(await countRows(org.organization_id)).toEqual({ sims: 2, jobs: 2 });
  });

  const answersASubmissionSentTitle =
    'answers a submission sent again with the same Idempotency-Key with the first batch, ' + 'counting it once';
  it(answersASubmissionSentTitle, async () => {
    const { org, c, project } = await setup();
    const body = {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: 'Rest for 1 minute' },
      project_id: project.id,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005] }],
      },
    };
    const key = { 'Idempotency-Key': `retry-${crypto.randomUUID()}` };
    // Three at once (a resend racing the request whose answer it thinks lost), then once more
    // later: the same two simulations every time.
    const [first, ...again] = await Promise.all([1, 2, 3].map(() => c.post('/simulations/protocol/batch', body, key)));
    expect(first!.status, first!.text).toBe(200);
    again.push(await c.post('/simulations/protocol/batch', body, key));
    for (const res of again) expect(res.status === 200 && res.body, res.text).toEqual(first!.body);
    expect((await c.get('/organizations/current/usage')).body.simulation.count).toBe(2);
    expect(await countRows(org.organization_id)).toEqual({ sims: 2, jobs: 2 });
    const other = await c.post('/simulations/protocol/batch', { ...body, force_rerun: true }, key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      error_code: 'CONFLICT',
      detail: { batch_id: await batchOf(api.orm, first!.body[0].simulation_id) },
    });
    // Keys are the user's: another user of the organization starts a batch of its own with it.
    const colleague = client(
      api.url,
      (await addMember(api.orm.em.fork(), org.org, `colleague-${crypto.randomUUID()}@lab.test`)).api_key,
    );
    await c.post(`/projects/${project.id}/members`, {
      user_id: (await colleague.get('/users/me')).body.id,
      project_role_id: (await c.get('/roles/project')).body.find(
        (r: { name: string }) => r.name === 'Project Contributor',
      ).id,
    });
    const theirs = await colleague.post('/simulations/protocol/batch', body, key);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body[0].simulation_id).not.toBe(first!.body[0].simulation_id);
    // Without a key, the same body is a new batch.
    const unkeyed = await c.post('/simulations/protocol/batch', body);
    expect(unkeyed.body[0].simulation_id).not.toBe(first!.body[0].simulation_id);
    expect((await c.get('/organizations/current/usage')).body.simulation.count).toBe(6);
    expect((await c.post('/simulations/protocol/batch', body, { 'Idempotency-Key': 'has space' })).status).toBe(422);
  });

  it('keeps organizations apart', async () => {
    const { c, project } = await setup();
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: 'Rest for 10 minutes' },
      project_id: project.id,
    });
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await stranger.get(`/simulations/${res.body[0].simulation_id}`)).status).toBe(403);
    expect((await stranger.get(`/jobs/${res.body[0].job_id}`)).status).toBe(403);
    expect((await stranger.post(`/jobs/${res.body[0].job_id}/cancel`)).status).toBe(403);
    expect((await stranger.get(`/simulations?project_id=${project.id}`)).body.total).toBe(0);
    await jobFinished(c, res.body[0].job_id);
  });
}
