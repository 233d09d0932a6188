// npm start (stack/start.ts) as a terminal runs it: the ready block, Ctrl-C in order, restarts
// of Temporal and PostgreSQL, nothing left behind.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject, describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { startEmbeddedPostgres } from '../stack/postgres.ts';
import { descendants, freePort, portInUse, processAlive, processTable } from '../stack/processes.ts';
import { eventually } from './harness.ts';
import { NODE } from './processHelpers.ts';

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
  /** The pipeline completes; then Ctrl-C stops the service with exit 0, and nothing is left. */
  async function completesThenStops(
    run: Awaited<ReturnType<typeof start>>,
    call: ReturnType<typeof apiCaller>,
    pipelineId: string,
  ) {
    await eventually(async () => (await call('GET', `/pipelines/${pipelineId}`)).body.status === 'completed', {
      what: 'the pipeline to run',
      timeoutMs: 90_000,
      intervalMs: 500,
    });
    process.kill(-run.front.pid!, 'SIGINT');
    expect(await run.exited).toBe(0);
    expect(await leftAfter([...run.processes], 10_000)).toEqual([]);
  }

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
    await completesThenStops(run, call, created.body.id);
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
    await completesThenStops(run, call, created.body.id);
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
