// What the process suites share: how they run Node, the environment a process of the test
// stack gets, and the admin command.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
import { ROOT } from '../stack/config.ts';

export const NODE = [process.execPath, '--disable-warning=ExperimentalWarning'] as const;
// A limit, not a target: the API builds every request validator before it listens, under a
// second on an idle core and far longer on a loaded host; the tests' own timeout (180 s) stays above it.
export const API_LISTEN_MS = 150_000;

export function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    // One per Vitest worker: the process suites may run side by side.
    DATA_DIR: path.join(inject('runDir'), `process-data-${process.pid}`),
    ...extra,
  };
}

export function admin(args: string[]) {
  const res = spawnSync(NODE[0], [NODE[1], path.join(ROOT, 'api/admin.ts'), ...args], {
    env: baseEnv(),
    encoding: 'utf8',
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}
