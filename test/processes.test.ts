// The API and admin processes as people run them: JSON logs without secrets, fail-fast
// configuration, and the admin command's keys.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { inject, describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { PROJECT_ROLES } from '../db/roles.ts';
import { startEmbeddedPostgres, stopLeftover } from '../stack/postgres.ts';
import {
  descendants,
  ephemeralRange,
  freePort,
  portInUse,
  processAlive,
  processTable,
  waitForPort,
} from '../stack/processes.ts';
import { eventually } from './harness.ts';

const NODE = [process.execPath, '--disable-warning=ExperimentalWarning'] as const;
// A limit, not a target: the API builds every request validator before it listens, 8 s on this
// host at load 2 and 40 s or more at load 12; the tests' own timeout (180 s) stays above it.
const API_LISTEN_MS = 150_000;

function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    DATA_DIR: path.join(inject('runDir'), 'process-data'),
    ...extra,
  };
}

function admin(args: string[]) {
  const res = spawnSync(NODE[0], [NODE[1], path.join(ROOT, 'api/admin.ts'), ...args], {
    env: baseEnv(),
    encoding: 'utf8',
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

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

describe('embedded PostgreSQL module', () => {
  it('leaves the exit code and signals to the importing process (the test runner relies on it)', () => {
    const script = `await import(${JSON.stringify(path.join(ROOT, 'stack/postgres.ts'))}); process.exitCode = 3;`;
    const res = spawnSync(NODE[0], [NODE[1], '--input-type=module', '-e', script], {
      env: baseEnv(),
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(3);
  });

  const letsTheAdminCommandTitle =
    "lets the admin command use the running service's PostgreSQL, whatever POSTGRES_PORT it " +
    'is given, without stopping it';
  it(letsTheAdminCommandTitle, async () => {
    const dataDir = path.join(inject('runDir'), `admin-beside-${Date.now()}`);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.chmodSync(inject('runDir'), 0o755); // PostgreSQL runs as its own OS user when we are root
    const server = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'postgres'),
      port: await freePort(),
      database: 'cellar',
    });
    try {
      const postmaster = Number(
        fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      // As when the service was started with its own ports and the admin command without them.
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        POSTGRES_PORT: String(await freePort()),
      };
      const res = spawnSync(
        NODE[0],
        [NODE[1], path.join(ROOT, 'api/admin.ts'), 'bootstrap', '--org', 'Beside', '--email', 'b@lab.test'],
        { env, encoding: 'utf8' },
      );
      expect(res.status, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout).api_key).toMatch(/^cellar_/);
      expect(processAlive(postmaster)).toBe(true);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from organizations where name = 'Beside'`,
      );
      await client.end();
      expect(rows[0]!.n).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('stops a server that Ctrl-C already stopped (the signal reaches the whole process group)', async () => {
    const dataDir = path.join(inject('runDir'), `pg-stopped-${Date.now()}`);
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    fs.chmodSync(inject('runDir'), 0o755); // PostgreSQL runs as its own OS user when we are root
    const port = await freePort();
    const server = await startEmbeddedPostgres({ dataDir, port, database: 'stopped' });
    const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(postmaster, 'SIGINT');
    for (let i = 0; i < 100 && (await portInUse(port)); i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500)); // the exit reaches the parent
    const stopped = await Promise.race([
      server.stop().then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('still waiting'), 10_000)),
    ]);
    expect(stopped).toBe('stopped');
  });

  it('stops a PostgreSQL left running on its data dir before starting', async () => {
    const dataDir = path.join(inject('runDir'), `pg-leftover-${Date.now()}`);
    fs.chmodSync(inject('runDir'), 0o755); // PostgreSQL runs as its own OS user when we are root
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'leftover' });
    const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    try {
      await stopLeftover(dataDir);
      expect(processAlive(postmaster)).toBe(false);
    } finally {
      await server.stop();
    }
  });

  const leavesAloneAProcessTitle =
    'leaves alone a process that took the pid of a stale postmaster.pid (after a reboot), ' + 'and removes the file';
  it(leavesAloneAProcessTitle, async () => {
    const dataDir = fs.mkdtempSync(path.join(inject('runDir'), 'pg-stale-'));
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    const pidFile = path.join(dataDir, 'postmaster.pid');
    try {
      await new Promise((r) => other.once('spawn', r));
      // The first lines of a real postmaster.pid: pid, data dir, start time, port.
      fs.writeFileSync(pidFile, `${other.pid}\n${dataDir}\n1700000000\n55432\n`);
      const lines: string[] = [];
      await stopLeftover(dataDir, (line) => lines.push(line));
      await new Promise((r) => setTimeout(r, 300)); // a signal would have ended it by now
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
      expect(processAlive(other.pid!)).toBe(true);
      expect(fs.existsSync(pidFile)).toBe(false); // PostgreSQL would refuse to start while that pid lives
      expect(lines.join('\n')).toContain(`pid ${other.pid}`);
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('API process', () => {
  it('writes JSON logs with correlation ids and never a key or secret; keeps idle connections 65 s', async () => {
    const key = JSON.parse(admin(['bootstrap', '--org', `Logs ${Date.now()}`, '--email', 'logs@lab.test']).stdout)
      .api_key as string;
    const port = await freePort();
    const api = spawn(NODE[0], [NODE[1], path.join(ROOT, 'api/main.ts')], {
      env: baseEnv({
        PORT: String(port),
        LOG_LEVEL: 'debug',
        SIGNING_SECRET: 'a-signing-secret-that-must-never-be-logged',
      }),
    });
    let output = '';
    api.stdout.on('data', (d) => (output += d));
    api.stderr.on('data', (d) => (output += d));
    try {
      await waitForPort(port, 'API', API_LISTEN_MS, api);
      const base = `http://127.0.0.1:${port}`;
      const health = await fetch(`${base}/auth/health`, {
        headers: { 'X-API-Key': key, 'x-correlation-id': 'corr-logs-1' },
      });
      // Idle connections are kept longer than clients keep theirs (Node's own default is 5 s).
      expect(health.headers.get('keep-alive')).toBe('timeout=65');
      await fetch(`${base}/projects`, { headers: { Authorization: `Bearer ${key}` } });
      await fetch(`${base}/auth/health`, { headers: { 'X-API-Key': `${key}x` } });
      await fetch(`${base}/projects`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: '{"name":',
      });
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      api.kill('SIGTERM');
      await new Promise((r) => api.once('exit', r));
    }
    const lines = output.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.some((l) => JSON.parse(l).correlation_id === 'corr-logs-1')).toBe(true);
    // The secret is base64url and may itself contain '_', so it is everything after the prefix.
    const secretPart = /^cellar_[a-f0-9]{12}_(.+)$/.exec(key)![1]!;
    expect(secretPart).toHaveLength(32);
    expect(output).not.toContain(secretPart);
    expect(output).not.toContain('a-signing-secret-that-must-never-be-logged');
  });

  it('stops at start-up naming a bad variable', () => {
    const res = spawnSync(NODE[0], [NODE[1], path.join(ROOT, 'api/main.ts')], {
      env: baseEnv({ PORT: 'eighty' }),
      encoding: 'utf8',
    });
    expect(res.status).not.toBe(0);
    expect(res.stdout + res.stderr).toContain('PORT');
  });

  it('stops at start-up naming a bad LOG_LEVEL (the logger is created before the configuration is read)', () => {
    const api = spawnSync(NODE[0], [NODE[1], path.join(ROOT, 'api/main.ts')], {
      env: baseEnv({ LOG_LEVEL: 'loud' }),
      encoding: 'utf8',
    });
    expect(api.status).not.toBe(0);
    const apiOutput = api.stdout + api.stderr;
    expect(apiOutput).toContain('configuration: LOG_LEVEL');
    expect(apiOutput).not.toContain('    at '); // a message, not a stack trace
    // npm start: the supervisor reports it before starting anything.
    const dataDir = path.join(inject('runDir'), 'bad-log-level');
    const start = spawnSync(NODE[0], [NODE[1], path.join(ROOT, 'stack/start.ts')], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'loud' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(start.status).toBe(2);
    expect(start.stderr).toMatch(/^\[cellar\] configuration: LOG_LEVEL must be one of/);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('lets running requests finish when stopped, up to WORKER_SHUTDOWN_GRACE_S, then exits', async () => {
    const key = JSON.parse(admin(['bootstrap', '--org', `Stop ${Date.now()}`, '--email', 'stop@lab.test']).stdout)
      .api_key as string;
    const port = await freePort();
    const api = spawn(NODE[0], [NODE[1], path.join(ROOT, 'api/main.ts')], {
      env: baseEnv({ PORT: String(port), LOG_LEVEL: 'silent', WORKER_SHUTDOWN_GRACE_S: '3' }),
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      api.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    try {
      await waitForPort(port, 'API', API_LISTEN_MS, api);
      const post = (body: string) => {
        const req = http.request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/projects',
          agent: false,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-API-Key': key },
        });
        const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
          req.once('response', (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d) => (text += d));
            res.once('end', () => resolve({ status: res.statusCode!, body: text }));
            res.once('error', reject);
          });
          req.once('error', reject);
        });
        response.catch(() => {});
        return { req, response };
      };
      // A request whose body is still arriving when the stop comes, and one that never completes.
      const body = JSON.stringify({ name: `In flight ${Date.now()}` });
      const inFlight = post(body);
      inFlight.req.write(body.slice(0, 5));
      const stuck = post('{"name": "never sent in full"}');
      stuck.req.write('{');
      // A request answered after both were sent: the server accepts connections in order, so it
      // has taken both and read what they sent (a fixed wait could fall short on a busy machine).
      expect((await fetch(`http://127.0.0.1:${port}/auth/health`, { headers: { 'X-API-Key': key } })).status).toBe(200);
      const stoppedAt = Date.now();
      api.kill('SIGTERM');
      // New connections are refused at once...
      await eventually(async () => !(await portInUse(port)), {
        what: 'the API to stop listening',
        timeoutMs: 2_000,
        intervalMs: 50,
      });
      // ...while the running request is answered, with the database still open.
      inFlight.req.end(body.slice(5));
      const answer = await inFlight.response;
      expect(answer.status, answer.body).toBe(201);
      expect(JSON.parse(answer.body).name).toBe(JSON.parse(body).name);
      // The other holds the stop for the grace time only.
      await expect(stuck.response).rejects.toThrow();
      const { code, at } = await exited;
      expect(code).toBe(0);
      expect(at - stoppedAt).toBeGreaterThanOrEqual(2_500);
      expect(at - stoppedAt).toBeLessThan(8_000);
    } finally {
      api.kill('SIGKILL');
    }
  });
});

describe('npm start (stack/start.ts)', () => {
  // As a terminal runs it: in a process group of its own, which Ctrl-C signals as a whole.
  const dataDir = (name = 'npm-start') => path.join(inject('runDir'), name);

  /**
   * Starts the service and waits until the output has every line of `until`. `processes` is
   * every process it has started so far (polled until it exits).
   */
  async function start(
    until = ['[cellar] Ctrl-C stops everything.', '"msg":"worker started"', '"msg": "connected"'],
    dir = dataDir(),
    extraEnv: Record<string, string> = {},
  ) {
    const ports = {
      PORT: await freePort(),
      POSTGRES_PORT: await freePort(),
      TEMPORAL_PORT: await freePort(),
      TEMPORAL_UI_PORT: await freePort(),
    };
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dir,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      ...extraEnv,
    };
    const front = spawn(NODE[0], [NODE[1], path.join(ROOT, 'stack/start.ts')], {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    front.stdout.on('data', (d) => (output += d));
    front.stderr.on('data', (d) => (output += d));
    const processes = new Set<number>();
    const poll = setInterval(() => descendants(front.pid!).forEach((pid) => processes.add(pid)), 100);
    const exited = new Promise<number | null>((resolve) => front.once('exit', (code) => resolve(code))).finally(() =>
      clearInterval(poll),
    );
    const deadline = Date.now() + 110_000;
    while (!until.every((line) => output.includes(line))) {
      if (front.exitCode !== null || Date.now() > deadline)
        throw new Error(`npm start did not come up: ${output.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    descendants(front.pid!).forEach((pid) => processes.add(pid));
    const postmaster = () =>
      Number(fs.readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { front, ports, exited, processes, postmaster, output: () => output };
  }

  /** Requests to a run's API with the first key it printed. */
  function apiCaller(run: Awaited<ReturnType<typeof start>>) {
    const key = /cellar_[a-f0-9]{12}_[A-Za-z0-9_-]+/.exec(run.output())![0];
    return async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${run.ports.PORT}${p}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
  }

  /** Waits for every process of a run to end; returns those still alive after `ms`, killing them. */
  async function leftAfter(pids: number[], ms: number): Promise<number[]> {
    const deadline = Date.now() + ms;
    while (pids.some(processAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const left = pids.filter(processAlive);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    return left;
  }

  const stopsOnCtrlCTitle =
    'stops on Ctrl-C in order: the workers finish while Temporal and PostgreSQL still run, ' +
    'then the servers; nothing is left';
  it(
    stopsOnCtrlCTitle,
    async () => {
      fs.chmodSync(inject('runDir'), 0o755); // PostgreSQL runs as its own OS user when we are root
      const run = await start();
      expect(run.processes).toContain(run.postmaster());
      process.kill(-run.front.pid!, 'SIGINT'); // what a terminal's Ctrl-C does
      expect(await run.exited).toBe(0);
      expect(await leftAfter([...run.processes], 10_000)).toEqual([]);
      const out = run.output();
      const stop = out.slice(out.indexOf('[cellar] stopping: '));
      const temporalStops = stop.indexOf('[temporal] Stopping server');
      expect(temporalStops, stop).toBeGreaterThan(0);
      expect(stop.indexOf('"msg":"worker stopped"'), stop).toBeGreaterThan(0);
      expect(stop.indexOf('"msg":"worker stopped"'), stop).toBeLessThan(temporalStops);
      expect(stop.indexOf('"msg": "stopped"'), stop).toBeGreaterThan(0);
      expect(stop.indexOf('"msg": "stopped"'), stop).toBeLessThan(temporalStops);
      // No error of the dev server, except the one it may log about its own shutdown once our
      // workers are gone: a call between its services ending after gRPC closed the stream (its
      // metrics interceptor then cannot set the trailer).
      const temporalError = /\[temporal\].*level=ERROR/;
      expect(stop.slice(0, temporalStops)).not.toMatch(temporalError);
      const afterItsStop = stop
        .slice(temporalStops)
        .split('\n')
        .filter((line) => temporalError.test(line));
      expect(
        afterItsStop.filter((line) => !line.includes('msg="unable to add metrics baggage to gRPC trailer"')),
        stop,
      ).toEqual([]);
      expect(stop.trimEnd().endsWith('[cellar] stopped')).toBe(true);
      for (const port of Object.values(run.ports)) expect(await portInUse(port)).toBe(false);
    },
    180_000,
  );

  it('stops the whole service when npm start itself is killed outright', async () => {
    const run = await start();
    const postmaster = run.postmaster();
    process.kill(run.front.pid!, 'SIGKILL');
    await run.exited;
    expect(await leftAfter([...run.processes], 30_000)).toEqual([]);
    expect(processAlive(postmaster)).toBe(false);
  }, 180_000);

  it('restarts the Temporal dev server when it dies; a pipeline created meanwhile runs once it is back', async () => {
    const run = await start(undefined, dataDir('npm-start-temporal-restart'));
    const call = apiCaller(run);
    const project = await call('POST', '/projects', { name: 'Through a Temporal crash' });
    const table = processTable();
    const server = [...run.processes].find((pid) => table.get(pid)?.comm === 'temporal')!;
    expect(server).toBeDefined();
    process.kill(server, 'SIGKILL');
    await eventually(async () => run.output().includes('[cellar] the Temporal dev server exited (SIGKILL)'), {
      what: 'the supervisor to notice',
    });
    const created = await call('POST', '/pipelines', {
      project_id: project.body.id,
      name: 'later',
      elements: { v: { element_type: 'entry', values: { x: 1 } } },
    });
    expect(created.status).toBe(201);
    await eventually(async () => run.output().includes('[cellar] the Temporal dev server is back'), {
      what: 'the Temporal dev server to restart',
      timeoutMs: 180_000,
    });
    await eventually(async () => (await call('GET', `/pipelines/${created.body.id}`)).body.status === 'completed', {
      what: 'the pipeline to run',
      timeoutMs: 90_000,
      intervalMs: 500,
    });
    process.kill(-run.front.pid!, 'SIGINT');
    expect(await run.exited).toBe(0);
    expect(await leftAfter([...run.processes], 10_000)).toEqual([]);
  }, 240_000);

  it('restarts PostgreSQL when it dies; the API answers again and a pipeline created then runs', async () => {
    const run = await start(undefined, dataDir('npm-start-postgres-restart'));
    const call = apiCaller(run);
    const project = await call('POST', '/projects', { name: 'Through a PostgreSQL crash' });
    const postmaster = run.postmaster();
    process.kill(postmaster, 'SIGKILL');
    await eventually(async () => run.output().includes('[cellar] PostgreSQL exited (SIGKILL)'), {
      what: 'the supervisor to notice',
    });
    await eventually(async () => run.output().includes('[cellar] PostgreSQL is back'), {
      what: 'PostgreSQL to restart',
      timeoutMs: 120_000,
    });
    expect(run.postmaster()).not.toBe(postmaster);
    const created = await eventually(
      async () => {
        const res = await call('POST', '/pipelines', {
          project_id: project.body.id,
          name: 'after',
          elements: { v: { element_type: 'entry', values: { x: 1 } } },
        }).catch(() => null);
        return res?.status === 201 ? res : null;
      },
      { what: 'the API to write again', timeoutMs: 60_000, intervalMs: 500 },
    );
    await eventually(async () => (await call('GET', `/pipelines/${created.body.id}`)).body.status === 'completed', {
      what: 'the pipeline to run',
      timeoutMs: 90_000,
      intervalMs: 500,
    });
    process.kill(-run.front.pid!, 'SIGINT');
    expect(await run.exited).toBe(0);
    expect(await leftAfter([...run.processes], 10_000)).toEqual([]);
  }, 300_000);

  it('leaves nothing behind when Ctrl-C comes while the service is still starting', async () => {
    // Right after the migrations of a first start: the servers are up, the workers not yet.
    const dir = dataDir('npm-start-interrupted');
    const run = await start(['[cellar] applied migrations'], dir);
    process.kill(-run.front.pid!, 'SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('[cellar] stopped');
    expect(run.output()).not.toContain('[cellar] ready');
    expect(run.processes.size).toBeGreaterThan(0);
    expect(await leftAfter([...run.processes], 10_000)).toEqual([]);
    for (const port of Object.values(run.ports)) expect(await portInUse(port)).toBe(false);
    // Nor a first key that was never shown: it is made once the API is ready.
    const server = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'postgres'),
      port: await freePort(),
      database: 'cellar',
    });
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from organizations');
      await client.end();
      expect(rows[0]!.n).toBe(0);
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('comes up with the API on another address (HOST) and shows the first key once ready', async () => {
    // 127.0.0.2 is a loopback address, but a server bound to it is not reachable at 127.0.0.1.
    const run = await start(['[cellar] Ctrl-C stops everything.'], dataDir('npm-start-host'), { HOST: '127.0.0.2' });
    const out = run.output();
    const ready = out.slice(out.indexOf('[cellar] ready'));
    expect(ready).toContain(`[cellar]   API:              http://127.0.0.2:${run.ports.PORT}`);
    expect(ready).toContain(
      '[cellar]   A first organization and API key were created. The key is shown only this once:',
    );
    const key = /cellar_[a-f0-9]{12}_[A-Za-z0-9_-]+/.exec(ready)![0];
    const health = await fetch(`http://127.0.0.2:${run.ports.PORT}/auth/health`, { headers: { 'X-API-Key': key } });
    expect(health.status).toBe(200);
    process.kill(-run.front.pid!, 'SIGINT');
    expect(await run.exited).toBe(0);
    expect(await leftAfter([...run.processes], 10_000)).toEqual([]);
  }, 180_000);
});
