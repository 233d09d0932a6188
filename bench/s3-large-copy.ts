// A real copy above S3's 5 GiB single-copy limit, as confirm-upload seals a large upload:
// a generated object (default 6 GiB, streamed, never held in memory) put on versitygw, copied
// by S3Storage.copy (UploadPartCopy in 1 GiB parts), then checked: same size, a multipart ETag
// with the expected part count, and the same bytes at every part's edges. Needs twice the
// size in free disk space in the temporary folder.
// Run: bash stack/node.sh bench/s3-large-copy.ts [GiB]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { startVersitygw } from '../stack/versitygw.ts';
import { freePort } from '../stack/processes.ts';
import { copyPartRanges, S3Storage } from '../storage/s3Storage.ts';

const GIB = Number(process.argv[2] ?? 6);
const size = Math.round(GIB * 1024 ** 3);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-bench-copy-'));
const gw = await startVersitygw({
  port: await freePort(),
  dataDir: path.join(work, 'gw'),
  accessKeyId: 'bench',
  secretAccessKey: 'bench-secret-0123456789',
});
try {
  const storage = new S3Storage({
    endpoint: gw.endpoint,
    publicEndpoint: gw.endpoint,
    region: 'us-east-1',
    bucket: 'bench',
    accessKeyId: gw.accessKeyId,
    secretAccessKey: gw.secretAccessKey,
    stsEndpoint: undefined,
    stsRoleArn: '',
  });
  await storage.ensureBucket();
  // Byte i is a function of i, so any range can be checked without keeping the object.
  const byteAt = (i: number) => (i * 2654435761) >>> 24;
  const chunk = 8 * 1024 ** 2;
  const source = Readable.from(
    (function* () {
      for (let start = 0; start < size; start += chunk) {
        const b = Buffer.allocUnsafe(Math.min(chunk, size - start));
        for (let j = 0; j < b.length; j++) b[j] = byteAt(start + j);
        yield b;
      }
    })(),
  );
  let t = Date.now();
  // 64 MiB parts: a hundred-odd parts to complete rather than S3Storage.put's 5 MiB ones.
  await new Upload({
    client: storage.client,
    params: { Bucket: 'bench', Key: 'uploads/big', Body: source },
    partSize: 64 * 1024 ** 2,
    queueSize: 2,
  }).done();
  console.log(`put ${GIB} GiB: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  t = Date.now();
  await storage.copy('uploads/big', 'sealed/big');
  const copyS = (Date.now() - t) / 1000;
  const ranges = copyPartRanges(size)!;
  const head = await storage.client.send(new HeadObjectCommand({ Bucket: 'bench', Key: 'sealed/big' }));
  console.log(
    `copy: ${copyS.toFixed(1)} s (${(size / 1024 ** 2 / copyS).toFixed(0)} MiB/s), ` +
      `${ranges.length} parts; copied size ${head.ContentLength} (expected ${size}), ETag ${head.ETag}`,
  );
  let bad = 0;
  for (const [first, last] of ranges) {
    for (const at of [first, last]) {
      const [got] = await storage.readRange('sealed/big', at, at + 1);
      if (got !== byteAt(at)) bad++;
    }
  }
  const ok = Number(head.ContentLength) === size && head.ETag?.endsWith(`-${ranges.length}"`) && bad === 0;
  console.log(`part edges checked: ${ranges.length * 2}, wrong: ${bad} → ${ok ? 'OK' : 'FAILED'}`);
  if (!ok) process.exitCode = 1;
} finally {
  await gw.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
