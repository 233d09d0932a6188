// One storage interface for measurement files and simulation results, with two drivers:
// the local filesystem (signed URLs served by the API itself) and S3-compatible servers.
import type { Readable } from 'node:stream';

export interface SignedTarget {
  url: string;
  /** The signature that authorises this one operation on this one object. */
  token: string;
  expiresAt: Date;
}

/** Short-lived credentials that allow writing exactly one object key (S3 multipart). */
export interface ScopedUploadCredentials {
  endpoint: string;
  region: string;
  bucket: string;
  object_path: string;
  access_key_id: string;
  secret_access_key: string;
  session_token: string;
  expires_at: string | null;
}

export class ObjectNotFound extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`object not found: ${key}`);
    this.key = key;
  }
}

export interface ObjectStorage {
  readonly driver: 'fs' | 's3';
  put(key: string, body: Buffer | Readable): Promise<void>;
  /** Throws ObjectNotFound. */
  get(key: string): Promise<Readable>;
  head(key: string): Promise<{ size: number } | null>;
  /** Bytes [start, end) of an object (Parquet readers fetch footers and column chunks this way). */
  readRange(key: string, start: number, end: number): Promise<Buffer>;
  delete(key: string): Promise<void>;
  /**
   * `to` becomes a copy of `from` as it is now (replacing any object there); later writes to `from` leave it. Throws
   * ObjectNotFound.
   */
  copy(from: string, to: string): Promise<void>;
  deletePrefix(prefix: string): Promise<number>;
  list(prefix: string): Promise<string[]>;
  /** `maxBytes` is enforced by the filesystem driver's signature; S3 presigned PUTs cannot carry it. */
  signedPutUrl(key: string, opts: { expiresInSeconds: number; maxBytes?: number }): Promise<SignedTarget>;
  signedGetUrl(key: string, opts: { expiresInSeconds: number; filename?: string }): Promise<SignedTarget>;
  /** Null when this storage cannot mint scoped credentials (then clients use the signed PUT). */
  scopedUploadCredentials(key: string, expiresInSeconds: number): Promise<ScopedUploadCredentials | null>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/;

/** Object keys are relative paths of safe characters, never escaping the root. */
export function assertSafeKey(key: string): void {
  if (
    !SAFE_KEY.test(key) ||
    key.split('/').some((seg) => seg === '' || seg === '.' || seg === '..') ||
    key.length > 1024
  ) {
    throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
  }
}
