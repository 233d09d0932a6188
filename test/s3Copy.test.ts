// The S3 driver's copy (confirm seals uploads with it) above the single-request limit:
// UploadPartCopy parts, checked against the test stack's S3-compatible server with the limits
// lowered (the path is the same for 5 GiB; bench/s3-large-copy.ts copies a real 6 GiB object).
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { testConfig } from './harness.ts';
import { copyPartRanges, S3Storage } from '../storage/s3Storage.ts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe('copyPartRanges', () => {
  it('copies up to 5 GiB in one request', () => {
    expect(copyPartRanges(0)).toBeUndefined();
    expect(copyPartRanges(5 * GiB)).toBeUndefined();
  });

  it('splits a larger object into 1 GiB parts that cover it exactly once, the last one shorter', () => {
    expect(copyPartRanges(5 * GiB + 1)).toEqual([
      [0, GiB - 1],
      [GiB, 2 * GiB - 1],
      [2 * GiB, 3 * GiB - 1],
      [3 * GiB, 4 * GiB - 1],
      [4 * GiB, 5 * GiB - 1],
      [5 * GiB, 5 * GiB],
    ]);
    const size = 6.5 * GiB;
    const ranges = copyPartRanges(size)!;
    expect(ranges).toHaveLength(7);
    expect(ranges.at(-1)).toEqual([6 * GiB, size - 1]);
    ranges.forEach(([first], i) => expect(first).toBe(i === 0 ? 0 : ranges[i - 1]![1] + 1));
  });

  it('stays within S3 part rules at its largest object (5 TiB: at most 10,000 parts, each at least 5 MiB)', () => {
    const ranges = copyPartRanges(5 * 1024 * GiB)!;
    expect(ranges.length).toBeLessThanOrEqual(10_000);
    expect(ranges.slice(0, -1).every(([a, b]) => b - a + 1 >= 5 * MiB)).toBe(true);
  });
});

describe('S3 multipart copy against the S3-compatible server', () => {
  it('copies an object above the single-copy limit part by part, byte for byte', async () => {
    const config = testConfig('s3');
    if (config.storage.driver !== 's3') throw new Error('expected the S3 driver');
    // Limits a thousand times smaller than S3's; 5 MiB is S3's smallest part but the last.
    const storage = new S3Storage(config.storage.s3, { singleMax: 5 * MiB, partSize: 5 * MiB });
    await storage.ensureBucket();
    const body = randomBytes(12 * MiB + 123);
    const from = 'orgs/00000000-0000-4000-8000-00000000000a/uploads/big';
    const to = 'orgs/00000000-0000-4000-8000-00000000000a/uploads/sealed/big';
    await storage.put(from, body);
    await storage.copy(from, to);

    const chunks: Buffer[] = [];
    for await (const c of await storage.get(to)) chunks.push(c as Buffer);
    const copied = Buffer.concat(chunks);
    expect(copied.length).toBe(body.length);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(copied)).toBe(sha(body));
    // A multipart object's ETag names its part count: three parts (5 + 5 + 2 MiB).
    const head = await storage.client.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: to }));
    expect(head.ETag).toMatch(/-3"$/);
    // No multipart upload is left behind.
    expect(await storage.deletePrefix('orgs/00000000-0000-4000-8000-00000000000a/')).toBe(2);
  });
});
