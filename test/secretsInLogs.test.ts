// No secret in any log line: the API process runs at the most verbose level with the secrets of
// this run (database password, S3 secret key, signing secret, API keys), serves a mix of
// requests (good, refused, failing, an upload with a signed URL), stops, and its whole output
// is searched for each secret. A start with an unparseable DATABASE_URL is searched too.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { freePort, startProcess } from '../stack/processes.ts';
import { openOrm } from '../db/orm.ts';
import { bootstrap } from '../api/services/bootstrap.ts';
import { client, eventually } from './harness.ts';
import { labFixture } from './inventoryHelpers.ts';

function runApi(env: Record<string, string>) {
  const lines: string[] = [];
  const proc = startProcess(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'api', 'main.ts')],
    {
      env: { PATH: process.env.PATH ?? '', ...env },
      onLine: (l) => lines.push(l),
    },
  );
  return { proc, lines };
}

describe('secrets in logs', () => {
  it("never appear in the API's output, at trace level, whatever the requests", async () => {
    // A role of its own with a random password (the test server's own password is a common word).
    const role = `logs_${randomBytes(4).toString('hex')}`;
    const rolePassword = randomBytes(18).toString('hex');
    const admin = await openOrm(inject('databaseUrl'), { poolMax: 1 });
    await admin.em.fork().execute(`create role ${role} with login superuser password '${rolePassword}'`);
    const adminUrl = new URL(inject('databaseUrl'));
    const databaseUrl = `postgres://${role}:${rolePassword}@${adminUrl.host}${adminUrl.pathname}`;
    const s3 = inject('s3');
    const signingSecret = randomBytes(24).toString('hex');
    const port = await freePort();
    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'trace',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: `cellar-logs-${randomBytes(4).toString('hex')}`,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      SIGNING_SECRET: signingSecret,
      DATA_DIR: path.join(inject('runDir'), `logs-${port}`),
      TASK_QUEUE: `cellar-logs-${port}`,
    };
    const issued = await bootstrap(admin.em.fork(), `Logs ${port}`, `logs-${port}@example.test`);
    const wrongKey = `${issued.api_key.slice(0, -4)}zzzz`;
    const api = runApi(env);
    const url = `http://127.0.0.1:${port}`;
    try {
      await eventually(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok, {
        what: 'the API to listen',
        timeoutMs: 180_000,
      });
      const c = client(url, issued.api_key);
      const lab = await labFixture(c, { channels: 1 });
      const init = await c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, {
        measurement: { name: 'run' },
      });
      expect(init.status, init.text).toBe(200);
      expect(
        (await fetch(init.body.uploads[0].signed_url, { method: 'PUT', body: 'Time [s],Voltage [V]\n0,4\n' })).ok,
      ).toBe(true);
      expect((await c.post('/projects', { name: 42 })).status).toBe(422);
      expect((await client(url, wrongKey).get('/projects')).status).toBe(401);
      expect((await fetch(`${url}/projects`, { headers: { Authorization: `Bearer ${issued.api_key}x` } })).status).toBe(
        401,
      );
      expect((await c.get('/no/such/route')).status).toBe(404);
      expect((await c.post('/projects', '{"name": ')).status).toBe(422);
    } finally {
      await api.proc.stop();
    }
    // A start that fails on its configuration quotes the URL without its password.
    const broken = runApi({ ...env, DATABASE_URL: databaseUrl.replace('@', '@@bad host:') });
    await eventually(async () => api.lines.length > 0 && broken.lines.some((l) => /DATABASE_URL/.test(l)), {
      what: 'the configuration error',
      timeoutMs: 30_000,
    });
    await broken.proc.stop();
    await admin.em.fork().execute(`drop role ${role}`);
    await admin.close();

    const output = [...api.lines, ...broken.lines].join('\n');
    expect(output).toContain('API listening');
    const secrets = {
      password: rolePassword,
      s3Secret: s3.secretAccessKey,
      signingSecret,
      apiKey: issued.api_key,
      apiKeyTail: issued.api_key.slice(-20),
      wrongKey,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(output.includes(secret), `${name} appears in the API's output`).toBe(false);
    }
  });
});
