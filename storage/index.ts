// Picks the storage driver from the configuration.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../stack/config.ts';
import { FsStorage } from './fsStorage.ts';
import { S3Storage } from './s3Storage.ts';
import type { ObjectStorage } from './storage.ts';

export type { ObjectStorage } from './storage.ts';

/** The filesystem driver's HMAC key: from SIGNING_SECRET, else made once and kept in the data dir. */
export function signingSecret(config: Pick<Config, 'signingSecret' | 'dataDir'>): string {
  if (config.signingSecret) return config.signingSecret;
  const file = path.join(config.dataDir, 'signing-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim(); // another process made it first
    }
  }
}

export async function createStorage(config: Config): Promise<ObjectStorage> {
  if (config.storage.driver === 's3') {
    const s3 = new S3Storage(config.storage.s3);
    await s3.ensureBucket();
    return s3;
  }
  return new FsStorage({ root: config.storage.dir, secret: signingSecret(config), publicUrl: config.publicUrl });
}
