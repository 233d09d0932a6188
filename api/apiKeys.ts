// API keys: random, shown once, stored hashed, identified afterwards by a short prefix.
// The secret part has 192 bits of entropy, so a fast hash (SHA-256) is enough and keeps
// authentication cheap on every request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PATTERN = /^cellar_([a-f0-9]{12})_([A-Za-z0-9_-]{32})$/;

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = randomBytes(6).toString('hex');
  const secret = randomBytes(24).toString('base64url');
  const key = `cellar_${prefix}_${secret}`;
  return { key, prefix, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The prefix of a well-formed key, or null for anything that cannot be a key of ours. */
export function apiKeyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
