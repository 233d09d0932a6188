// The storage interface against both drivers, through real servers: the API's own signed
// routes (filesystem) and versitygw (S3). Signed URLs are used exactly as clients use them.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, newOrg, startApi, testConfig, type TestApi } from './harness.ts';
import { labFixture, ok } from './inventoryHelpers.ts';
import { ObjectNotFound } from '../storage/storage.ts';
import type { FsStorage } from '../storage/fsStorage.ts';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString();
}

const key = (name: string) =>
  `orgs/00000000-0000-4000-8000-00000000000a/projects/p/${name}-${Math.random().toString(36).slice(2)}`;

describe.each(['fs', 's3'] as const)('%s storage', (driver) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ storage: driver });
  });
  afterAll(async () => api?.close());

  it('accepts a PUT to a signed URL, then gets, ranges, lists and deletes the object', async () => {
    const k = key('put');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60 });
    expect(target.token).toBeTruthy();
    const res = await fetch(target.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/csv' },
      body: 'hello, storage',
    });
    expect(res.status, await res.text()).toBe(200);
    expect(await text(await api.storage.get(k))).toBe('hello, storage');
    expect(await api.storage.head(k)).toEqual({ size: 14 });
    expect((await api.storage.readRange(k, 7, 14)).toString()).toBe('storage');
    expect(await api.storage.list(k.slice(0, k.lastIndexOf('/') + 1))).toContain(k);

    const get = await api.storage.signedGetUrl(k, { expiresInSeconds: 60, filename: 'greeting.txt' });
    const got = await fetch(get.url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('hello, storage');
    expect(got.headers.get('content-disposition')).toContain('greeting.txt');

    await api.storage.delete(k);
    expect(await api.storage.head(k)).toBeNull();
    await expect(api.storage.get(k)).rejects.toBeInstanceOf(ObjectNotFound);
    expect((await fetch(get.url)).status).toBe(404);
  });

  const givesBackAGzipTitle =
    'gives back a gzip-compressed PUT (Content-Encoding: gzip, as clients send large bodies) ' +
    'as the file that was compressed';
  it(givesBackAGzipTitle, async () => {
    const k = key('gzip');
    const original = 'Time [s],Voltage [V]\n'.concat(
      Array.from({ length: 2000 }, (_, i) => `${i},${(4.2 - i / 1e4).toFixed(4)}`).join('\n'),
    );
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60 });
    const put = await fetch(target.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/csv', 'Content-Encoding': 'gzip' },
      body: gzipSync(original),
    });
    expect(put.status, await put.text()).toBe(200);
    // fetch inflates a body served with Content-Encoding: gzip, as browsers and most clients do.
    const got = await fetch((await api.storage.signedGetUrl(k, { expiresInSeconds: 60, filename: 'export.csv' })).url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(original);
  });

  it('refuses a tampered URL: another key, another signature', async () => {
    const k = key('tamper');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60 });
    const other = `${k.slice(0, k.lastIndexOf('/'))}/someone-elses-object`;
    expect((await fetch(target.url.replace(k, other), { method: 'PUT', body: 'x' })).status).toBe(403);
    const u = new URL(target.url);
    const sigParam = driver === 's3' ? 'X-Amz-Signature' : 'sig';
    const sig = u.searchParams.get(sigParam)!;
    u.searchParams.set(sigParam, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    expect((await fetch(u, { method: 'PUT', body: 'x' })).status).toBe(403);
    expect(await api.storage.head(k)).toBeNull();
    expect(await api.storage.head(other)).toBeNull();
  });

  it('refuses an expired URL', async () => {
    const k = key('expired');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 1 });
    const get = await api.storage.signedGetUrl(k, { expiresInSeconds: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    const res = await fetch(target.url, { method: 'PUT', body: 'late' });
    expect(res.status).toBe(403);
    expect((await fetch(get.url)).status).toBe(403);
    expect(await api.storage.head(k)).toBeNull();
  });

  it('deletes everything under a prefix', async () => {
    const prefix = `${key('prefix')}/`;
    await api.storage.put(`${prefix}a`, Buffer.from('a'));
    await api.storage.put(`${prefix}b/c`, Buffer.from('c'));
    expect(await api.storage.deletePrefix(prefix)).toBe(2);
    expect(await api.storage.list(prefix)).toEqual([]);
  });

  it('copies an object as it is: a later write to the source leaves the copy', async () => {
    const from = key('source');
    const to = `${key('copy')}/sealed/x`;
    await api.storage.put(from, Buffer.from('first'));
    await api.storage.copy(from, to);
    await api.storage.put(from, Buffer.from('second, longer'));
    expect(await text(await api.storage.get(to))).toBe('first');
    expect(await text(await api.storage.get(from))).toBe('second, longer');
    // Copying again replaces the copy.
    await api.storage.copy(from, to);
    expect(await text(await api.storage.get(to))).toBe('second, longer');
    await expect(api.storage.copy(key('absent'), key('nowhere'))).rejects.toBeInstanceOf(ObjectNotFound);
  });
});

describe('filesystem signed PUT rules', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ storage: 'fs' });
  });
  afterAll(async () => api?.close());

  const writesOnceTheSameTitle =
    'writes once: the same PUT again succeeds (a client resending), other bytes are refused ' + 'and the first stay';
  it(writesOnceTheSameTitle, async () => {
    const k = key('replay');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60 });
    expect((await fetch(target.url, { method: 'PUT', body: 'first' })).status).toBe(200);
    expect((await fetch(target.url, { method: 'PUT', body: 'first' })).status).toBe(200);
    const replay = await fetch(target.url, { method: 'PUT', body: 'other' });
    expect(replay.status).toBe(409);
    // Concurrent PUTs of different bytes: one wins whole, the others are refused.
    const raced = key('race');
    const race = await api.storage.signedPutUrl(raced, { expiresInSeconds: 60 });
    const bodies = ['a', 'b', 'c', 'd'].map((ch) => ch.repeat(200_000));
    const statuses = await Promise.all(
      bodies.map((body) => fetch(race.url, { method: 'PUT', body }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    expect(await text(await api.storage.get(raced))).toBe(bodies[statuses.indexOf(200)]);
    expect(await text(await api.storage.get(k))).toBe('first');
    const leftovers = (await fs.promises.readdir(path.dirname((api.storage as FsStorage).pathOf(raced)))).filter((f) =>
      f.includes('.part-'),
    );
    expect(leftovers).toEqual([]);
  });

  it('refuses a body above the signed size limit, declared or streamed, and keeps nothing', async () => {
    const k = key('big');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60, maxBytes: 1024 });
    // A declared 10 GB body is refused before any byte is read.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        target.url,
        { method: 'PUT', headers: { 'Content-Length': String(10 * 1024 ** 3) } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(declared).toBe(413);
    // A chunked body (no length) is cut off once it passes the limit.
    const streamed = await fetch(target.url, {
      method: 'PUT',
      body: new ReadableStream({
        start(c) {
          c.enqueue(new Uint8Array(800));
          c.enqueue(new Uint8Array(800));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await api.storage.head(k)).toBeNull();
    expect(await api.storage.list(k)).toEqual([]);
  });

  const refusesACompressedBodyTitle =
    'refuses a compressed body that does not inflate, or an encoding it cannot inflate, and ' + 'keeps nothing';
  it(refusesACompressedBodyTitle, async () => {
    const k = key('corrupt');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60 });
    const corrupt = await fetch(target.url, {
      method: 'PUT',
      headers: { 'Content-Encoding': 'gzip' },
      body: 'not gzip at all',
    });
    expect(corrupt.status).toBe(400);
    expect(((await corrupt.json()) as { error_code: string }).error_code).toBe('BAD_REQUEST');
    const zstd = await fetch(target.url, { method: 'PUT', headers: { 'Content-Encoding': 'zstd' }, body: 'x' });
    expect(zstd.status).toBe(415);
    expect(await api.storage.head(k)).toBeNull();
    // The size limit applies to the file stored, inflated.
    const small = key('inflated-limit');
    const limited = await api.storage.signedPutUrl(small, { expiresInSeconds: 60, maxBytes: 1000 });
    expect(
      (
        await fetch(limited.url, {
          method: 'PUT',
          headers: { 'Content-Encoding': 'gzip' },
          body: gzipSync('x'.repeat(5000)),
        })
      ).status,
    ).toBe(413);
    expect(await api.storage.head(small)).toBeNull();
  });

  it('rejects a URL whose size limit was raised', async () => {
    const k = key('raised');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60, maxBytes: 10 });
    const u = new URL(target.url);
    u.searchParams.set('max', '100000');
    expect((await fetch(u, { method: 'PUT', body: 'x'.repeat(100) })).status).toBe(403);
  });
});

describe('S3 storage reached by clients under another name (a container network)', () => {
  let api: TestApi;
  beforeAll(async () => {
    // An STS endpoint that is not one (versitygw answers AssumeRole with an error).
    const s3 = inject('s3');
    api = await startApi({
      config: testConfig('s3', {
        S3_PUBLIC_ENDPOINT: s3.endpoint.replace('127.0.0.1', 'localhost'),
        S3_STS_ENDPOINT: s3.endpoint,
      }),
    });
  });
  afterAll(async () => api?.close());

  it('signs URLs for the public endpoint, and they work there', async () => {
    const publicHost = new URL(inject('s3').endpoint.replace('127.0.0.1', 'localhost')).host;
    const k = key('public');
    const target = await api.storage.signedPutUrl(k, { expiresInSeconds: 60 });
    expect(new URL(target.url).host).toBe(publicHost);
    const res = await fetch(target.url, { method: 'PUT', body: 'through the public name' });
    expect(res.status, await res.text()).toBe(200);
    expect(await text(await api.storage.get(k))).toBe('through the public name');
    const get = await api.storage.signedGetUrl(k, { expiresInSeconds: 60 });
    expect(new URL(get.url).host).toBe(publicHost);
    expect(await (await fetch(get.url)).text()).toBe('through the public name');
  });

  it('offers the signed PUT with multipart null when the STS endpoint refuses to mint credentials', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c);
    const init = await ok(
      c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, {
        measurement: { name: 'No STS' },
      }),
    );
    expect(init.uploads).toHaveLength(2);
    for (const u of init.uploads) {
      expect(u.multipart).toBeNull();
      expect(new URL(u.signed_url).hostname).toBe('localhost');
    }
    expect((await fetch(init.uploads[0].signed_url, { method: 'PUT', body: 'bytes' })).status).toBe(200);
  });
});
