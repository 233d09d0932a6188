// The long schemathesis run of issue 31 (not in npm test, which runs a short one with the
// server-error check only): every operation of openapi.yaml, about 40 generated cases each
// (≥ 5,000 in all), against the bench stack with the Python worker, with schemathesis's checks
// of the spec telling the truth: no server error, every status and response as documented,
// invalid data refused, valid data accepted, auth not ignored. Prints the run's summary and
// the failures by check.
// Run: bash stack/node.sh bench/schemathesis.ts   (SCHEMATHESIS_EXAMPLES=N to change the 40)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { startBenchStack } from './benchStack.ts';

const SCHEMATHESIS = path.join(ROOT, '.tools', 'schemathesis', 'bin', 'schemathesis');
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'positive_data_acceptance',
  'missing_required_header',
  'unsupported_method',
  'ignored_auth',
];
if (!fs.existsSync(SCHEMATHESIS))
  throw new Error(`no schemathesis at ${SCHEMATHESIS}: run bash stack/provision.sh --tests`);

const stack = await startBenchStack('schemathesis');
stack.startPython();
await fetch(`${stack.url}/projects`, {
  method: 'POST',
  headers: { 'X-API-Key': stack.key, 'Content-Type': 'application/json' },
  body: JSON.stringify({ name: 'Fuzzed' }),
});
const report = path.join(stack.tmp, 'schemathesis-report');
const args = [
  'run',
  `${stack.url}/openapi.json`,
  '--url',
  stack.url,
  '-H',
  `X-API-Key: ${stack.key}`,
  '--checks',
  CHECKS.join(','),
  '--phases',
  'examples,coverage,fuzzing',
  '--max-examples',
  process.env.SCHEMATHESIS_EXAMPLES ?? '40',
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
  'junit',
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

// The summary schemathesis prints last, and the failures per check from its JUnit report.
const summary = out.text.slice(out.text.lastIndexOf('SUMMARY') >= 0 ? out.text.lastIndexOf('SUMMARY') : -4000);
console.log(summary.trim());
const junit = fs
  .readdirSync(report)
  .filter((f) => f.endsWith('.xml'))
  .map((f) => fs.readFileSync(path.join(report, f), 'utf8'))
  .join('\n');
// An operation's failure message names each failed check by code (ST103...).
const byCheck = new Map<string, string[]>();
for (const m of junit.matchAll(/<testcase[^>]*name="([^"]*)"[^>]*>\s*<failure[^>]*message="([^"]*)"/g)) {
  for (const code of new Set(m[2]!.match(/ST\d{3}/g) ?? ['other']))
    byCheck.set(code, [...(byCheck.get(code) ?? []), m[1]!]);
}
for (const [code, operations] of [...byCheck].sort()) console.log(`${code}: ${operations.join('; ')}`);
console.log(`operations with a failure: ${(junit.match(/<failure/g) ?? []).length}`);
console.log(
  `\nschemathesis ${args.slice(args.indexOf('--max-examples'), args.indexOf('--max-examples') + 2).join(' ')}: ` +
    `exit ${out.code}, ${minutes.toFixed(1)} min`,
);
console.log(
  `operations failing, by check code (JUnit; \`st explain <code>\`): ` +
    `${byCheck.size ? [...byCheck].map(([c, ops]) => `${c} ${ops.length}`).join(', ') : 'none'}`,
);
await stack.stop();
process.exit(0);
