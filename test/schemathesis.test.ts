// schemathesis (pinned in test/schemathesis-requirements.txt, provisioned by `npm test`) over
// every operation of openapi.yaml against the real API: a short, seeded run with all of
// schemathesis's default checks (no server error, every status, content type and response as
// documented, invalid requests refused, valid ones accepted, auth not ignored) and its stateful
// phase. bench/schemathesis.ts is the long run (docs/benchmarks.md has its figures).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { apiForSuite, client, newOrg } from './harness.ts';
import { BARE_FILTERS, schemathesisConfig, type OpenApi } from './schemathesisConfig.ts';

const SCHEMATHESIS = path.join(ROOT, '.tools', 'schemathesis', 'bin', 'schemathesis');
// The Python worker builds and describes models (POST /models and simulations wait on it).
const api = apiForSuite({ python: true });

/** The config file for this run; the spec's bare-string filters must be exactly BARE_FILTERS's. */
function configFile(spec: OpenApi, otherUser: string): string {
  const { toml, bare } = schemathesisConfig(spec, otherUser);
  expect(bare, 'a list filter written as a bare string: state it as a Filter* pattern').toEqual(
    Object.keys(BARE_FILTERS),
  );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'schemathesis-')), 'schemathesis.toml');
  fs.writeFileSync(file, toml);
  return file;
}

describe('schemathesis', () => {
  it('finds every operation as the spec says, with all default checks', async () => {
    expect(fs.existsSync(SCHEMATHESIS), `no schemathesis at ${SCHEMATHESIS}: run bash stack/provision.sh --tests`).toBe(
      true,
    );
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    // Something for the id parameters to find.
    await c.post('/projects', { name: 'Fuzzed' });
    const me = await c.get('/users/me');
    const other = await c.post(`/organizations/${me.body.authorized_organization.id}/users/by-email`, {
      email: 'fuzzed-member@lab.test',
    });
    expect(other.status, other.text).toBe(200);
    const spec = (await c.get<OpenApi>('/openapi.json')).body;
    const args = [
      '--config-file',
      configFile(spec, other.body.user_id),
      'run',
      `${api.url}/openapi.json`,
      '--url',
      api.url,
      '-H',
      `X-API-Key: ${org.api_key}`,
      '--phases',
      'examples,coverage,fuzzing,stateful',
      '--max-examples',
      process.env.SCHEMATHESIS_EXAMPLES ?? '3',
      // PostgreSQL cannot store NUL in text; every string field refuses it (422), which the spec does not repeat.
      '--generation-allow-x00',
      'false',
      // One worker: CPython 3.11's ast.parse, which hypothesis calls to describe strategies, is not thread-safe.
      '--seed',
      '31',
      '--workers',
      '1',
      '--generation-database',
      'none',
      '--no-shrink',
      '--continue-on-failure',
      '--request-timeout',
      '120',
    ];
    const run = await promisify(execFile)(SCHEMATHESIS, args, {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1' },
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
    if (process.env.SCHEMATHESIS_LOG) fs.writeFileSync(process.env.SCHEMATHESIS_LOG, run.out);
    expect(run.code, run.out.slice(-20_000)).toBe(0);
  }, 1_800_000);
});
