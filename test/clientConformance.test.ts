// The real public Python client, ionworks-api 0.38.0 (hash-locked in test/client/requirements.txt,
// installed by `stack/provision.sh --tests` in .tools/client-venv), driven by pytest against this
// suite's stack: the API, the TypeScript worker and the Python worker on their own task queues,
// with the run's PostgreSQL, Temporal and S3-compatible server. Responses are validated against
// openapi.yaml by the API itself (validateResponses), so a shape the spec does not allow fails too.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { apiForSuite, client, newMember, newOrg, testConfig } from './harness.ts';

const api = apiForSuite({ python: true, config: testConfig('s3') });
const python = path.join(ROOT, '.tools', 'client-venv', 'bin', 'python');

function pytest(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  // CELLAR_CLIENT_PYTEST narrows a run while working on one flow, e.g. "-k measurement".
  const extra = (process.env.CELLAR_CLIENT_PYTEST ?? '').split(' ').filter(Boolean);
  return new Promise((resolve) => {
    const child = spawn(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-x', '--tb=short', ...extra], {
      cwd: path.join(ROOT, 'test', 'client'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('ionworks-api 0.38.0 against Cellar', () => {
  it('runs the client conformance suite green', async () => {
    expect(fs.existsSync(python), 'no .tools/client-venv: run bash stack/provision.sh --tests').toBe(true);
    const org = await newOrg(api.orm);
    const other = await newMember(api.orm, org.organization_id);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      IONWORKS_API_URL: api.url,
      IONWORKS_API_KEY: org.api_key,
      CELLAR_TEST_MEMBER_ID: other.user_id,
      CELLAR_TEST_MEMBER_EMAIL: other.email,
      PYBAMM_DISABLE_TELEMETRY: 'true',
      MPLBACKEND: 'Agg',
    };
    const { code, output } = await pytest(env);
    if (code !== 0) console.log(output);
    expect(code, 'pytest failed: its output is printed above').toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/\d+ (failed|error)/);
  }, 900_000);

  it("keeps member administration to owners, and a removed member's key stops working", async () => {
    const org = await newOrg(api.orm);
    const member = await newMember(api.orm, org.organization_id);
    const asMember = client(api.url, member.api_key);
    const asOwner = client(api.url, org.api_key);
    const users = `/organizations/${org.organization_id}/users`;
    expect((await asMember.get(users)).status).toBe(403);
    expect((await asMember.post(`${users}/by-email`, { email: 'x@example.test' })).status).toBe(403);
    expect((await asOwner.get(`/organizations/${(await newOrg(api.orm)).organization_id}/users`)).status).toBe(403);
    expect((await asOwner.post(`${users}/by-email`, { email: 'not an address' })).status).toBe(422);
    // A Project Admin who is not an owner gives project roles to members, never brings people in.
    const project = (await asOwner.post('/projects', { name: 'Invites' })).body;
    const roles = (await asOwner.get('/roles/project')).body as { id: string; name: string }[];
    const roleId = (name: string) => roles.find((r) => r.name === name)!.id;
    expect(
      (
        await asOwner.post(`/projects/${project.id}/members`, {
          user_id: member.user_id,
          project_role_id: roleId('Project Admin'),
        })
      ).status,
    ).toBe(201);
    const outsider = await asMember.post(`/projects/${project.id}/invites`, {
      email: 'outsider@example.test',
      project_role_id: roleId('Project Viewer'),
    });
    expect(outsider.status).toBe(403);
    expect((await asOwner.get(users)).body.map((u: { email: string }) => u.email)).not.toContain(
      'outsider@example.test',
    );
    const colleague = await asMember.post(`/projects/${project.id}/invites`, {
      email: org.email,
      project_role_id: roleId('Project Viewer'),
    });
    expect(colleague.status, colleague.text).toBe(200);
    expect(colleague.body).toMatchObject({ user_id: org.user_id, already_member: true, invite_sent: false });
    expect((await asMember.get('/users/me')).status).toBe(200);
    // Deactivated, the member's key is refused; reactivated, it works again.
    expect((await asMember.patch(`${users}/${member.user_id}`, { is_active: false })).status).toBe(403);
    expect((await asOwner.patch(`${users}/${member.user_id}`, { is_active: 'no' })).status).toBe(422);
    const off = await asOwner.patch(`${users}/${member.user_id}`, { is_active: false });
    expect(off.body).toMatchObject({ id: member.user_id, is_active: false });
    const refused = await asMember.get('/users/me');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/deactivated/);
    expect((await asOwner.get(users)).body.find((u: { id: string }) => u.id === member.user_id).is_active).toBe(false);
    expect((await asOwner.patch(`${users}/${member.user_id}`, { is_active: true })).status).toBe(200);
    expect((await asMember.get('/users/me')).status).toBe(200);
    expect((await asOwner.delete(`${users}/${member.user_id}`)).status).toBe(200);
    expect((await asMember.get('/users/me')).status).toBe(401);
  });
});
