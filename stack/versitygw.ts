// versitygw, an S3-compatible server on a POSIX folder, for the S3 storage driver in tests
// and for people who want S3 semantics locally.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './config.ts';
import { startProcess, waitForPort } from './processes.ts';

export const VERSITYGW = path.join(ROOT, '.tools', 'bin', 'versitygw');

export interface S3Server {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

export async function startVersitygw(opts: {
  port: number;
  dataDir: string;
  accessKeyId: string;
  secretAccessKey: string;
  onLine?: (line: string) => void;
}): Promise<S3Server> {
  if (!fs.existsSync(VERSITYGW)) throw new Error(`no versitygw at ${VERSITYGW}: run "bash stack/provision.sh"`);
  const iamDir = path.join(opts.dataDir, '.iam');
  fs.mkdirSync(iamDir, { recursive: true });
  const proc = startProcess(
    VERSITYGW,
    ['--port', `127.0.0.1:${opts.port}`, '--iam-dir', iamDir, 'posix', opts.dataDir],
    {
      env: { ...process.env, ROOT_ACCESS_KEY: opts.accessKeyId, ROOT_SECRET_KEY: opts.secretAccessKey },
      onLine: opts.onLine,
    },
  );
  await waitForPort(opts.port, 'versitygw', 30_000, proc.child);
  return {
    endpoint: `http://127.0.0.1:${opts.port}`,
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
    stop: () => proc.stop(),
  };
}
