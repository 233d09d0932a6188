// The API process as people run it: JSON logs without secrets, fail-fast configuration, and a
// graceful stop.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { inject, describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { freePort, portInUse, waitForPort } from '../stack/processes.ts';
import { eventually } from './harness.ts';
import { NODE, API_LISTEN_MS, baseEnv, admin } from './processHelpers.ts';

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
