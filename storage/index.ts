// Picks the storage driver from the configuration.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MIN_SIGNING_SECRET_LENGTH, type Config } from '../stack/config.ts';
import { FsStorage } from './fsStorage.ts';
import type { ObjectStorage } from './storage.ts';

export type { ObjectStorage } from './storage.ts';

/** Shortest signing secret accepted (SIGNING_SECRET is checked for the same by loadConfig). */

/**
 * The filesystem driver's HMAC key: from SIGNING_SECRET, else made once and kept in the data dir.
 * The API and the worker may both make it on a first start; the first to link its file into
 * place wins and the other reads that one. A kept secret shorter than 32 characters (an empty
 * file left by a crash, a hand-edited one) stops start-up rather than signing with a weak key.
 */
export function signingSecret(config: Pick<Config, 'signingSecret' | 'dataDir'>): string {
  if (config.signingSecret) return config.signingSecret;
  const file = path.join(config.dataDir, 'signing-secret');
  let secret = readSecret(file);
  if (secret === undefined) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    secret = createSecret(file) ?? readSecret(file) ?? '';
  }
  if (secret.length < MIN_SIGNING_SECRET_LENGTH) {
    throw new Error(
      `the signing secret in ${file} has ${secret.length} characters, fewer than ${MIN_SIGNING_SECRET_LENGTH}: ` +
        'delete the file to have a new one made (signed URLs issued so far stop working), or set SIGNING_SECRET',
    );
  }
  return secret;
}

function readSecret(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes a new secret to a file of its own, flushed to disk, then links it to `file`: a reader
 * sees a whole secret or none, and a file that exists already is kept (undefined: it won).
 */
function createSecret(file: string): string | undefined {
  const secret = crypto.randomBytes(32).toString('base64url');
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, secret);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  // The new directory entry survives a crash too.
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
  return secret;
}

export async function createStorage(config: Config): Promise<ObjectStorage> {
  if (config.storage.driver === 's3') {
    // Loaded only when used: the supervisor imports this module for signingSecret alone.
    const { S3Storage } = await import('./s3Storage.ts');
    const s3 = new S3Storage(config.storage.s3);
    await s3.ensureBucket();
    return s3;
  }
  return new FsStorage({ root: config.storage.dir, secret: signingSecret(config), publicUrl: config.publicUrl });
}
