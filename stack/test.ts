// `npm test`: lint, format and typecheck, the TypeScript suites (Vitest, against real PostgreSQL,
// Temporal and S3 servers that the global setup provisions), the Python worker's lint and
// format check (ruff, settings in pyworker/pyproject.toml, also over test/client, test/fixtures and
// bench) and its pytest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { ROOT } from './config.ts';

interface Step {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

const node = process.execPath;
const nodeArgs = ['--disable-warning=ExperimentalWarning'];
const python = path.join(ROOT, '.tools', 'venv', 'bin', 'python');
const ruff = path.join(ROOT, '.tools', 'venv', 'bin', 'ruff');
const pyworker = path.join(ROOT, 'pyworker');
const extra = process.argv.slice(2); // e.g. a test file filter for vitest
// The worker and the Python outside it (client flow tests, their fixture, benchmarks), all under the
// worker's ruff settings: an explicit --config applies them to the files outside pyworker/ too.
const ruffScope = ['--no-cache', '--config', 'pyproject.toml', '.', '../test/client', '../test/fixtures', '../bench'];

const steps: Step[] = [
  { name: 'lint (eslint)', command: node, args: [...nodeArgs, 'node_modules/eslint/bin/eslint.js', '.'] },
  {
    name: 'format (prettier --check; npm run format fixes it)',
    command: node,
    args: [...nodeArgs, 'node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.'],
  },
  {
    name: 'typecheck (tsc --noEmit)',
    command: node,
    args: [...nodeArgs, 'node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'],
  },
  {
    name: 'typecheck the lab board (tsc, DOM)',
    command: node,
    args: [...nodeArgs, 'node_modules/typescript/bin/tsc', '--noEmit', '-p', 'web/tsconfig.json'],
  },
  {
    name: 'TypeScript suites (vitest)',
    command: node,
    args: [...nodeArgs, 'node_modules/vitest/vitest.mjs', 'run', '--config', 'test/vitest.config.ts', ...extra],
  },
];
if (fs.existsSync(python)) {
  steps.push(
    { name: 'Python lint (ruff check)', command: ruff, args: ['check', ...ruffScope], cwd: pyworker },
    {
      name: 'Python format (ruff format --check)',
      command: ruff,
      args: ['format', '--check', ...ruffScope],
      cwd: pyworker,
    },
  );
  steps.push({
    name: 'Python worker suites (pytest)',
    command: python,
    args: ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
    cwd: pyworker,
    env: { ...process.env, PYBAMM_DISABLE_TELEMETRY: 'true' },
  });
} else {
  console.error('[test] no Python environment in .tools/venv: run bash stack/provision.sh');
  process.exit(1);
}

const failed: string[] = [];
for (const step of steps) {
  console.log(`\n[test] ${step.name}`);
  const started = Date.now();
  const res = spawnSync(step.command, step.args, {
    cwd: step.cwd ?? ROOT,
    stdio: 'inherit',
    env: { ...(step.env ?? process.env), PATH: `${path.dirname(node)}:${process.env.PATH}` },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (res.status === 0) console.log(`[test] ${step.name}: ok (${seconds} s)`);
  else {
    console.log(`[test] ${step.name}: FAILED (exit ${res.status ?? res.signal}, ${seconds} s)`);
    failed.push(step.name);
  }
}
console.log(
  `\n[test] ${steps.length - failed.length} of ${steps.length} steps ` +
    `passed${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);
