// Downloads piped from storage: a client that goes away mid-download must not leave the stored
// object open (a file descriptor per abort with local storage, an S3 socket with S3).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiForSuite, eventually } from './harness.ts';
import type { FsStorage } from '../storage/fsStorage.ts';

const api = apiForSuite();

/** Open file descriptors of this process (which runs the API) on `file`. */
function openOn(file: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === file) n++;
    } catch {
      // closed while we looked
    }
  }
  return n;
}

describe('downloads', () => {
  it('closes the stored object when the client aborts, and still serves whole downloads', async () => {
    const storage = api.storage as FsStorage;
    const key = `test/downloads/${crypto.randomUUID()}.bin`;
    const size = 32 * 1024 * 1024;
    await storage.put(key, Buffer.alloc(size, 7));
    const file = fs.realpathSync(storage.pathOf(key));
    const { url } = await storage.signedGetUrl(key, { expiresInSeconds: 60 });
    for (let i = 0; i < 10; i++) {
      const abort = new AbortController();
      const res = await fetch(url, { signal: abort.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      abort.abort();
      await reader.cancel().catch(() => undefined);
    }
    await eventually(async () => openOn(file) === 0, {
      timeoutMs: 10_000,
      what: `the aborted downloads to close ${file} (open ${openOn(file)} times)`,
    });
    const whole = await fetch(url);
    expect((await whole.arrayBuffer()).byteLength).toBe(size);
    // The file is closed just after its last bytes are sent.
    await eventually(async () => openOn(file) === 0, {
      timeoutMs: 10_000,
      what: 'the whole download to close the file',
    });
  });
});
