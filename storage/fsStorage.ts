// Filesystem driver: objects are files under a root folder; signed URLs point at the API's
// own /storage/objects routes and carry an expiring HMAC over operation, key, expiry and size cap.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, ObjectNotFound, type ObjectStorage, type SignedTarget } from './storage.ts';

export type SignedOp = 'put' | 'get';

export interface SignedParams {
  op: SignedOp;
  key: string;
  expires: number;
  max: number;
  filename: string;
}

export class FsStorage implements ObjectStorage {
  readonly driver = 'fs' as const;
  readonly root: string;
  readonly #secret: string;
  readonly #publicUrl: string;

  constructor(opts: { root: string; secret: string; publicUrl: string }) {
    this.root = path.resolve(opts.root);
    this.#secret = opts.secret;
    this.#publicUrl = opts.publicUrl.replace(/\/$/, '');
    fs.mkdirSync(this.root, { recursive: true });
  }

  pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  /**
   * A hard link put into place by rename: no copying, and a later write to `from` cannot reach
   * it, as this driver never writes a file in place (a write is a new file renamed or linked in).
   */
  async copy(from: string, to: string): Promise<void> {
    const source = this.pathOf(from);
    const file = this.pathOf(to);
    const folder = path.dirname(file);
    const firstMade = await fsp.mkdir(folder, { recursive: true });
    const tmp = `${file}.part-${randomUUID()}`;
    try {
      await fsp.link(source, tmp);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFound(from);
      throw err;
    }
    await fsp.rename(tmp, file);
    await syncFolders(folder, firstMade);
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    await this.writeStream(key, Buffer.isBuffer(body) ? Readable.from([body]) : body);
  }

  /**
   * Writes `key` from a stream through a temporary file put into place at the end, so readers
   * never see half an object. `once`: the object is written only if
   * absent; the same bytes again succeed (a client resending its PUT), other bytes throw
   * ObjectExists and leave the first ones.
   */
  async writeStream(
    key: string,
    body: Readable,
    maxBytes = Infinity,
    opts: { once?: boolean; transform?: Transform } = {},
  ): Promise<number> {
    const file = this.pathOf(key);
    const folder = path.dirname(file);
    const firstMade = await fsp.mkdir(folder, { recursive: true });
    const tmp = `${file}.part-${randomUUID()}`;
    let written = 0;
    try {
      const limit = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          written += chunk.length;
          if (written > maxBytes) throw new ObjectTooLarge(maxBytes);
          yield chunk;
        }
      };
      // Synced before it is closed, and its name (and any folder made for it) once it is in
      // place: an object acknowledged is still there after a power loss.
      const out = fs.createWriteStream(tmp, { flush: true });
      // A transform (inflating a compressed body) is one stage of the pipeline: its errors reject it.
      if (opts.transform) await pipeline(body, opts.transform, limit, out);
      else await pipeline(body, limit, out);
      if (!opts.once) {
        await fsp.rename(tmp, file);
        await syncFolders(folder, firstMade);
        return written;
      }
      // link() fails when the object exists, atomically: two PUTs never both win.
      try {
        await fsp.link(tmp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        if (!(await sameBytes(tmp, file))) throw new ObjectExists(key);
      }
      await fsp.rm(tmp, { force: true });
      await syncFolders(folder, firstMade);
      return written;
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      const handle = await fsp.open(file, 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFound(key);
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const st = await fsp.stat(this.pathOf(key));
      return st.isFile() ? { size: st.size } : null;
    } catch {
      return null;
    }
  }

  async readRange(key: string, start: number, end: number): Promise<Buffer> {
    let handle;
    try {
      handle = await fsp.open(this.pathOf(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFound(key);
      throw err;
    }
    try {
      const buf = Buffer.alloc(Math.max(0, end - start));
      const { bytesRead } = await handle.read(buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    return this.#keysUnder(prefix, false);
  }

  /** Keys under `prefix`; with `partial`, the temporary `.part-` files of writes in progress too. */
  async #keysUnder(prefix: string, partial: boolean): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string) => {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) await walk(full);
        else if (partial || !e.name.includes('.part-'))
          out.push(path.relative(this.root, full).split(path.sep).join('/'));
      }
    };
    // Walk from the deepest folder the prefix names, then filter by the full prefix.
    const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    if (base) assertSafeKey(base);
    await walk(path.join(this.root, base));
    return out.filter((k) => k.startsWith(prefix)).sort();
  }

  /** Everything under `prefix`, the partial files of writes in progress included (never listed to readers). */
  async deletePrefix(prefix: string): Promise<number> {
    const keys = await this.#keysUnder(prefix, true);
    await Promise.all(keys.map((k) => this.delete(k)));
    return keys.length;
  }

  sign(p: SignedParams): string {
    return createHmac('sha256', this.#secret)
      .update(`${p.op}\n${p.key}\n${p.expires}\n${p.max}\n${p.filename}`)
      .digest('base64url');
  }

  verify(p: SignedParams, signature: string): 'ok' | 'expired' | 'invalid' {
    const expected = Buffer.from(this.sign(p));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return p.expires * 1000 < Date.now() ? 'expired' : 'ok';
  }

  #url(p: SignedParams): SignedTarget {
    const sig = this.sign(p);
    const qs = new URLSearchParams({ op: p.op, expires: String(p.expires), sig });
    if (p.max) qs.set('max', String(p.max));
    if (p.filename) qs.set('filename', p.filename);
    const encodedKey = p.key.split('/').map(encodeURIComponent).join('/');
    return {
      url: `${this.#publicUrl}/storage/objects/${encodedKey}?${qs}`,
      token: sig,
      expiresAt: new Date(p.expires * 1000),
    };
  }

  async signedPutUrl(key: string, opts: { expiresInSeconds: number; maxBytes?: number }): Promise<SignedTarget> {
    assertSafeKey(key);
    return this.#url({
      op: 'put',
      key,
      expires: Math.floor(Date.now() / 1000) + opts.expiresInSeconds,
      max: opts.maxBytes ?? 0,
      filename: '',
    });
  }

  async signedGetUrl(key: string, opts: { expiresInSeconds: number; filename?: string }): Promise<SignedTarget> {
    assertSafeKey(key);
    return this.#url({
      op: 'get',
      key,
      expires: Math.floor(Date.now() / 1000) + opts.expiresInSeconds,
      max: 0,
      filename: opts.filename ?? '',
    });
  }

  async scopedUploadCredentials(): Promise<null> {
    return null; // a local folder has no credentials to hand out; clients use the signed PUT
  }
}

/**
 * Syncs `folder` and, when `firstMade` (the first folder mkdir created on the way to it) is set,
 * every folder from its parent down: each holds a name that must survive a power loss.
 */
async function syncFolders(folder: string, firstMade: string | undefined): Promise<void> {
  const folders = [folder];
  if (firstMade)
    for (let f = folder; f !== path.dirname(firstMade) && f !== path.dirname(f);) folders.push((f = path.dirname(f)));
  for (const f of folders) {
    const handle = await fsp.open(f, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([fsp.stat(a), fsp.stat(b)]);
  if (sa.size !== sb.size) return false;
  const [ha, hb] = await Promise.all([fsp.open(a, 'r'), fsp.open(b, 'r')]);
  try {
    const [ba, bb] = [Buffer.alloc(1 << 20), Buffer.alloc(1 << 20)];
    for (let pos = 0; pos < sa.size; pos += ba.length) {
      const [ra, rb] = await Promise.all([ha.read(ba, 0, ba.length, pos), hb.read(bb, 0, bb.length, pos)]);
      if (ra.bytesRead !== rb.bytesRead || !ba.subarray(0, ra.bytesRead).equals(bb.subarray(0, rb.bytesRead)))
        return false;
    }
    return true;
  } finally {
    await Promise.all([ha.close(), hb.close()]);
  }
}

export class ObjectExists extends Error {
  constructor(key: string) {
    super(`the object ${key} was already written with other bytes`);
  }
}

export class ObjectTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the object is larger than this upload target allows (${maxBytes} bytes)`);
    this.maxBytes = maxBytes;
  }
}
