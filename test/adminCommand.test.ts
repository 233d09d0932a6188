// The admin command as people run it (keys issued and revoked, the API honouring them), and the
// free ports the local servers take.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { PROJECT_ROLES } from '../db/roles.ts';
import { ephemeralRange, freePort, waitForPort } from '../stack/processes.ts';
import { NODE, API_LISTEN_MS, baseEnv, admin } from './processHelpers.ts';

describe('admin command', () => {
  it('bootstraps an organization, issues and revokes keys; the API honours them', async () => {
    const org = `Lab ${Date.now()}`;
    const boot = admin(['bootstrap', '--org', org, '--email', 'lead@lab.test']);
    expect(boot.status, boot.stderr).toBe(0);
    const first = JSON.parse(boot.stdout);
    expect(Object.keys(first).sort()).toEqual(['api_key', 'organization_id', 'user_id']);
    // Running it again reuses the organization and user, with a new key.
    const again = JSON.parse(admin(['bootstrap', '--org', org, '--email', 'lead@lab.test']).stdout);
    expect(again.organization_id).toBe(first.organization_id);
    expect(again.user_id).toBe(first.user_id);
    expect(again.api_key).not.toBe(first.api_key);
    const second = JSON.parse(admin(['create-api-key', '--email', 'lead@lab.test', '--org', org]).stdout);
    // A colleague joins as a member (not an owner); an owner stays one.
    const member = JSON.parse(admin(['add-member', '--org', org, '--email', `tech-${Date.now()}@lab.test`]).stdout);
    expect(member).toMatchObject({ organization_id: first.organization_id, role: 'member' });
    expect(member.user_id).not.toBe(first.user_id);
    expect(JSON.parse(admin(['add-member', '--org', org, '--email', 'lead@lab.test']).stdout)).toMatchObject({
      user_id: first.user_id,
      role: 'owner',
    });
    // Settings in the ranges of their variables; "default" goes back to the variable.
    for (const [command, flag, bad] of [
      ['set-stale-window', '--hours', '0'],
      ['set-stale-window', '--hours', '99999999999'],
      ['set-simulation-limit', '--limit', '2000000000'],
    ]) {
      const refused = admin([command!, '--org', org, flag!, bad!]);
      expect(refused.status, `${command} ${bad}`).toBe(2);
      expect(refused.stderr).toContain('takes a whole number from');
    }
    expect(JSON.parse(admin(['set-stale-window', '--org', org, '--hours', '12']).stdout)).toEqual({
      organization: org,
      stale_after_hours: 12,
    });
    expect(JSON.parse(admin(['set-stale-window', '--org', org, '--hours', 'default']).stdout)).toEqual({
      organization: org,
      stale_after_hours: null,
    });
    const noOrg = admin(['add-member', '--org', `No such lab ${Date.now()}`, '--email', 'x@lab.test']);
    expect(noOrg.status).not.toBe(0);
    expect(noOrg.stderr).toContain('no organization');

    const port = await freePort();
    const api = spawn(NODE[0], [NODE[1], path.join(ROOT, 'api/main.ts')], {
      env: baseEnv({ PORT: String(port), LOG_LEVEL: 'silent' }),
    });
    try {
      await waitForPort(port, 'API', API_LISTEN_MS, api);
      const health = async (key: string) =>
        (await fetch(`http://127.0.0.1:${port}/auth/health`, { headers: { 'X-API-Key': key } })).status;
      expect(await health(first.api_key)).toBe(200);
      expect(await health(second.api_key)).toBe(200);
      const prefix = second.api_key.split('_')[1];
      const revoke = admin(['revoke-api-key', '--prefix', prefix]);
      expect(revoke.status, revoke.stderr).toBe(0);
      expect(await health(second.api_key)).toBe(401);
      expect(await health(first.api_key)).toBe(200);
      // The member reads a project only once a Project Admin gives them a role in it.
      expect(await health(member.api_key)).toBe(200);
      const call = async (key: string, method: string, p: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${port}${p}`, {
          method,
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const project = (await (await call(first.api_key, 'POST', '/projects', { name: 'Cells' })).json()) as {
        id: string;
      };
      expect((await call(member.api_key, 'GET', `/projects/${project.id}`)).status).toBe(403);
      const viewer = PROJECT_ROLES.find((r) => r.name === 'Project Viewer')!.id;
      expect(
        (
          await call(first.api_key, 'POST', `/projects/${project.id}/members`, {
            user_id: member.user_id,
            project_role_id: viewer,
          })
        ).status,
      ).toBe(201);
      expect((await call(member.api_key, 'GET', `/projects/${project.id}`)).status).toBe(200);
      expect((await call(member.api_key, 'PATCH', `/projects/${project.id}`, { name: 'Mine' })).status).toBe(403);
    } finally {
      api.kill('SIGTERM');
    }
    expect(admin(['revoke-api-key', '--prefix', 'ffffffffffff']).status).not.toBe(0);
    const usage = admin(['bootstrap', '--org', org]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--email');
  });
});

describe('free ports for local servers', () => {
  const picksPortsBelowTheTitle =
    'picks ports below the ephemeral range (the kernel hands those to connections and port-0 ' +
    'listeners), never twice';
  it(picksPortsBelowTheTitle, async () => {
    const [ephemeralLow] = ephemeralRange();
    const ports = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(ephemeralLow);
    }
  });
});
