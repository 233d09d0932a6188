// The long schemathesis run of issue 31 (npm test runs a short one of the same kind): every
// operation of openapi.yaml, about 40 generated cases each (≥ 5,000 in all), against the bench
// stack with the Python worker, with all of schemathesis's default checks (no server error,
// every status, content type and response as documented, invalid data refused, valid data
// accepted, auth not ignored...) and its stateful phase, configured as the short run is.
// Prints the cases and the failures per check.
// Run: bash stack/node.sh bench/schemathesis.ts
//   SCHEMATHESIS_EXAMPLES=N   cases per operation and phase (default 40)
//   SCHEMATHESIS_PHASES=...   default examples,coverage,fuzzing,stateful
//   SCHEMATHESIS_OUT=dir      keep schemathesis's full output and reports there
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { startBenchStack } from './benchStack.ts';
import { schemathesisConfig, type OpenApi } from '../test/schemathesisConfig.ts';

const SCHEMATHESIS = path.join(ROOT, '.tools', 'schemathesis', 'bin', 'schemathesis');
if (!fs.existsSync(SCHEMATHESIS))
  throw new Error(`no schemathesis at ${SCHEMATHESIS}: run bash stack/provision.sh --tests`);

const stack = await startBenchStack('schemathesis');
stack.startPython();
const call = (method: string, p: string, body?: unknown) =>
  fetch(`${stack.url}${p}`, {
    method,
    headers: { 'X-API-Key': stack.key, 'Content-Type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then((r) => r.json() as Promise<Record<string, any>>);
await call('POST', '/projects', { name: 'Fuzzed' });
const me = await call('GET', '/users/me');
const other = await call('POST', `/organizations/${me.authorized_organization.id}/users/by-email`, {
  email: 'fuzzed-member@lab.test',
});
const report = process.env.SCHEMATHESIS_OUT ?? path.join(stack.tmp, 'schemathesis-report');
fs.mkdirSync(report, { recursive: true });
// The short run's configuration (test/schemathesisConfig.ts): refusals a rule on stored data may
// answer, the one list with bare-string filters, membership changes on another member.
const spec = await call('GET', '/openapi.json');
const config = path.join(report, 'schemathesis.toml');
fs.writeFileSync(config, schemathesisConfig(spec as OpenApi, other.user_id).toml);
const examples = process.env.SCHEMATHESIS_EXAMPLES ?? '40';
const args = [
  '--config-file',
  config,
  'run',
  `${stack.url}/openapi.json`,
  '--url',
  stack.url,
  '-H',
  `X-API-Key: ${stack.key}`,
  '--phases',
  process.env.SCHEMATHESIS_PHASES ?? 'examples,coverage,fuzzing,stateful',
  '--max-examples',
  examples,
  // PostgreSQL cannot store NUL in text: every string refuses it (422), as the spec's description says.
  '--generation-allow-x00',
  'false',
  '--seed',
  '31',
  '--workers',
  '1',
  '--generation-database',
  'none',
  '--no-shrink',
  '--request-timeout',
  '120',
  '--continue-on-failure',
  '--report',
  'json',
  '--report-dir',
  report,
];
const started = performance.now();
const out = await new Promise<{ code: number; text: string }>((resolve) => {
  execFile(
    SCHEMATHESIS,
    args,
    { maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
    (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, text: stdout + stderr });
    },
  );
});
const minutes = (performance.now() - started) / 60_000;
fs.writeFileSync(path.join(report, 'output.txt'), out.text);

interface Verdict {
  test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
  failures: { type: string; code: string; title: string; count: number; operations: string[] }[];
  errors: { title: string; count: number }[];
}
const jsonFile = fs.readdirSync(report).find((f) => f.endsWith('.json'));
const verdict = jsonFile ? (JSON.parse(fs.readFileSync(path.join(report, jsonFile), 'utf8')) as Verdict) : undefined;
if (!verdict) console.log(out.text.slice(-4000));
else {
  for (const f of verdict.failures) console.log(`${f.code} ${f.title}: ${f.operations.join('; ')}`);
  console.log(`\nschemathesis --max-examples ${examples}: exit ${out.code}, ${minutes.toFixed(1)} min`);
  const cases = verdict.test_cases;
  console.log(
    `cases ${cases.generated}, with failures ${cases.with_failures}, unique failures ${cases.unique_failures}, ` +
      `errored ${cases.errored}`,
  );
  console.log('unique failures per check (code title: count):');
  for (const f of verdict.failures) console.log(`  ${f.code} ${f.title}: ${f.count}`);
  if (!verdict.failures.length) console.log('  none');
  for (const e of verdict.errors) console.log(`error ${e.title}: ${e.count}`);
}
console.log(`full output and reports: ${report}`);
await stack.stop();
process.exit(0);
