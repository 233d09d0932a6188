// Verified API keys and memberships, cached per API process so that authentication costs no
// database round trip in the steady state. Entries are evicted by Postgres notifications
// (triggers on api_keys and memberships, channel cellar_auth) from whichever process changes
// them; while the notification connection is down the cache is bypassed, and a TTL bounds
// staleness in any case.
import pg from 'pg';
import { logger } from '../stack/logger.ts';
import type { KeyIdentity } from '../db/repositories/identity.ts';

type Membership = { role: string; organization_name: string; deactivated: boolean } | null;
interface Entry {
  identity: KeyIdentity;
  memberships: Map<string, Membership>;
  expires: number;
}

const live = new Set<AuthCache>();

/** Evicts a key from every cache of this process (the trigger notifies the others). */
export function evictKeyEverywhere(prefix: string): void {
  for (const cache of live) cache.evictKey(prefix);
}

export class AuthCache {
  readonly #databaseUrl: string;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();
  #client: pg.Client | undefined;
  #listening = false;
  #stopped = false;
  #starting: Promise<void> | undefined;
  /** Counts evictions: a lookup that began before one may be stale and is not cached. */
  #evictions = 0;

  constructor(databaseUrl: string, ttlMs = 30_000) {
    this.#databaseUrl = databaseUrl;
    this.#ttlMs = ttlMs;
    live.add(this);
  }

  /** Starts listening in the background; until it listens, lookups miss. */
  ensureListening(): void {
    if (this.#listening || this.#starting || this.#stopped) return;
    this.#starting = this.#listen().finally(() => (this.#starting = undefined));
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#databaseUrl });
    const down = () => {
      if (this.#client !== client) return;
      this.#listening = false;
      this.#client = undefined;
      this.#evictions++;
      this.#entries.clear();
      client.end().catch(() => {});
      if (!this.#stopped) setTimeout(() => this.ensureListening(), 1000).unref();
    };
    client.on('error', (err) => {
      logger.warn({ err: err.message }, 'auth cache: notification connection lost');
      down();
    });
    client.on('end', down);
    client.on('notification', (msg) => {
      const [kind, id] = (msg.payload ?? '').split(':');
      if (kind === 'key' && id) this.evictKey(id);
      else if (kind === 'user' && id) this.#evictUser(id);
      else {
        this.#evictions++;
        this.#entries.clear();
      }
    });
    try {
      await client.connect();
      await client.query('listen cellar_auth');
      if (this.#stopped) {
        await client.end();
        return;
      }
      this.#client = client;
      this.#listening = true;
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'auth cache: cannot listen; authenticating from the database');
      client.end().catch(() => {});
      if (!this.#stopped) setTimeout(() => this.ensureListening(), 5000).unref();
    }
  }

  get(prefix: string): Entry | undefined {
    if (!this.#listening) return undefined;
    const e = this.#entries.get(prefix);
    if (e && e.expires < Date.now()) {
      this.#entries.delete(prefix);
      return undefined;
    }
    return e;
  }

  /** Take before reading a key from the database, and hand to put(). */
  get generation(): number {
    return this.#evictions;
  }

  /**
   * Caches what the database answered, unless an eviction arrived since `generation` was
   * taken: a key revoked while it was being read would otherwise stay cached for the TTL.
   */
  put(prefix: string, identity: KeyIdentity, generation: number): Entry {
    const entry = { identity, memberships: new Map<string, Membership>(), expires: Date.now() + this.#ttlMs };
    if (this.#listening && generation === this.#evictions) this.#entries.set(prefix, entry);
    return entry;
  }

  evictKey(prefix: string): void {
    this.#evictions++;
    this.#entries.delete(prefix);
  }

  #evictUser(userId: string): void {
    this.#evictions++;
    for (const [prefix, e] of this.#entries) if (e.identity.user_id === userId) this.#entries.delete(prefix);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    live.delete(this);
    this.#listening = false;
    this.#entries.clear();
    await this.#starting;
    await this.#client?.end().catch(() => {});
    this.#client = undefined;
  }
}
