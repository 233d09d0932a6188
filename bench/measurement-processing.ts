// Measurement processing and large uploads, in one run on this machine:
// - a generated cycling series (default 10,000,000 rows, 500 cycles: rests, CC/CV charge,
//   discharge) as Parquet, written by pyworker's generator;
// - in one Python process: the time to merely read and decode that file (pyarrow, by row
//   group), then processing it (validate + derive + write canonical Parquet and the plot
//   overview) as the worker's processMeasurement does; ratio target ≤ 4×; peak RSS of that
//   process (target < 1.5 GB);
// - the API's plot read (5000 points) from the overview, and of the whole series (hyparquet +
//   LTTB), which requests above the overview's 20,000 points need;
// - upload of a 1 GiB object through the `multipart` credentials (on SeaweedFS, which has
//   STS; `bash stack/provision.sh --tests` installs it, else this is reported as skipped)
//   against a plain @aws-sdk/lib-storage upload of the same bytes to the same server with the
//   service key, alternating for three rounds (median ratio, target ≥ 0.9×); and, on
//   versitygw, the single signed PUT against lib-storage.
// Run: bash stack/node.sh bench/measurement-processing.ts [rows] [cycles] [upload MiB]
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ROOT } from '../stack/config.ts';
import { startVersitygw } from '../stack/versitygw.ts';
import { freePort, startProcess } from '../stack/processes.ts';
import { FsStorage } from '../storage/fsStorage.ts';
import { S3Storage } from '../storage/s3Storage.ts';
import { downsample, openParquet } from '../api/services/parquetColumns.ts';
import { overviewKey } from '../storage/measurementKeys.ts';

const ROWS = Number(process.argv[2] ?? 10_000_000);
const CYCLES = Number(process.argv[3] ?? 500);
const UPLOAD_MIB = Number(process.argv[4] ?? 1024);
const UPLOAD_ROUNDS = 3;
const run = promisify(execFile);
const PYTHON = path.join(ROOT, '.tools', 'venv', 'bin', 'python');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-bench-md-'));

// Decode baseline and processing in the same Python process; ru_maxrss is the process's peak.
const PY_DRIVER = `
import json, resource, sys, time, tempfile
import pyarrow.parquet as pq
from cellar_worker.measurements import issues as iss
from cellar_worker.measurements.process import process_upload
src, out = sys.argv[1], sys.argv[2]
t = time.perf_counter(); rows = 0
for batch in pq.ParquetFile(src).iter_batches(batch_size=262144):
    rows += batch.num_rows
    for column in batch.columns: column.to_numpy(zero_copy_only=False)
decode_s = time.perf_counter() - t
rss_after_decode = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
options, option_issues = iss.parse_options({"strict": True, "skip_checks": []}, 5.0, 2.5, 4.2)
t = time.perf_counter()
outcome = process_upload(src, out, options, option_issues=option_issues)
process_s = time.perf_counter() - t
print(json.dumps({"rows": rows, "decode_s": decode_s, "process_s": process_s, "status": outcome.status,
  "errors": [i["code"] for i in outcome.issues if i["severity"] == "error"],
  "rss_after_decode_kb": rss_after_decode, "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
  "time_series_path": outcome.time_series_path}))
`;

function mb(bytes: number) {
  return `${(bytes / 1024 ** 2).toFixed(0)} MB`;
}

async function processing() {
  const src = path.join(work, 'series.parquet');
  let t = Date.now();
  await run(PYTHON, ['-m', 'cellar_worker.measurements.generate', src, String(ROWS), String(CYCLES)], {
    cwd: path.join(ROOT, 'pyworker'),
  });
  console.log(
    `generated ${ROWS.toLocaleString()} rows, ${CYCLES} cycles: ` +
      `${mb(fs.statSync(src).size)} Parquet in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );
  const out = path.join(work, 'out');
  fs.mkdirSync(out);
  const { stdout } = await run(PYTHON, ['-c', PY_DRIVER, src, out], {
    cwd: path.join(ROOT, 'pyworker'),
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(stdout.trim().split('\n').at(-1)!);
  console.log(`read + decode only (pyarrow, by row group):   ${r.decode_s.toFixed(2)} s`);
  console.log(
    `process (validate + derive + write + overview): ` +
      `${r.process_s.toFixed(2)} s   status ${r.status}${r.errors.length ? ` errors ${r.errors}` : ''}`,
  );
  console.log(
    `ratio process / decode:                       ${(r.process_s / r.decode_s).toFixed(2)}×   (target ≤ 4×)`,
  );
  console.log(
    `peak RSS of the processing process: ` +
      `          ${(r.peak_rss_kb / 1024).toFixed(0)} MB   (after decode alone ` +
      `${(r.rss_after_decode_kb / 1024).toFixed(0)} MB; target < 1536 MB)`,
  );

  // The API's plot reads of the canonical output: ranged reads, one row group at a time.
  const storage = new FsStorage({
    root: out,
    secret: 'bench-secret-0123456789abcdef0123',
    publicUrl: 'http://127.0.0.1',
  });
  const columns = ['Time [s]', 'Voltage [V]', 'Current [A]'];
  const axes = { x: 'Time [s]', y: 'Voltage [V]' };
  const key = path.basename(r.time_series_path);
  t = Date.now();
  const fromOverview = await downsample(await openParquet(storage, overviewKey(key)), columns, 5000, axes);
  const overviewS = (Date.now() - t) / 1000;
  t = Date.now();
  const whole = await downsample(await openParquet(storage, key), columns, 5000, axes);
  const wholeS = (Date.now() - t) / 1000;
  console.log(
    `API plot read, 3 columns → ${fromOverview.columns['Time [s]']!.length} points, from the overview: ` +
      ` ${overviewS.toFixed(3)} s`,
  );
  console.log(
    `  the same of the whole series (over 20,000 points): ` +
      `${wholeS.toFixed(2)} s (${whole.columns['Time [s]']!.length} points)`,
  );
}

async function timedUpload(client: S3Client, bucket: string, key: string, body: Buffer): Promise<number> {
  const t = process.hrtime.bigint();
  await new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: body },
    partSize: 16 * 1024 * 1024,
    queueSize: 4,
  }).done();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

async function uploads() {
  const body = Buffer.alloc(UPLOAD_MIB * 1024 * 1024);
  for (let i = 0; i < body.length; i += 4096) body[i] = i & 255;
  const gib = body.length / 1024 ** 3;

  // versitygw (the default S3 server): no STS, so `multipart` is null; compare the signed PUT.
  const port = await freePort();
  const gw = await startVersitygw({
    port,
    dataDir: path.join(work, 'gw'),
    accessKeyId: 'bench',
    secretAccessKey: 'bench-secret-0123456789',
    onLine: () => {},
  });
  try {
    const s3 = new S3Storage({
      endpoint: gw.endpoint,
      publicEndpoint: gw.endpoint,
      region: 'us-east-1',
      bucket: 'bench',
      accessKeyId: 'bench',
      secretAccessKey: 'bench-secret-0123456789',
      stsEndpoint: undefined,
      stsRoleArn: '',
    });
    await s3.ensureBucket();
    const plain = await timedUpload(s3.client, 'bench', 'plain.bin', body);
    const signed = await s3.signedPutUrl('signed.bin', { expiresInSeconds: 600 });
    const t = process.hrtime.bigint();
    const res = await fetch(signed.url, { method: 'PUT', body });
    if (!res.ok) throw new Error(`signed PUT failed: ${res.status}`);
    const put = Number(process.hrtime.bigint() - t) / 1e9;
    console.log(
      `versitygw, ${UPLOAD_MIB} MiB: lib-storage ${((gib / plain) * 1024).toFixed(0)} MiB/s; ` +
        `single signed PUT ${((gib / put) * 1024).toFixed(0)} MiB/s (${(plain / put).toFixed(2)}× of lib-storage)`,
    );
  } finally {
    await gw.stop();
  }

  const weed = path.join(ROOT, '.tools', 'bin', 'weed');
  if (!fs.existsSync(weed)) {
    console.log(
      'multipart (scoped STS credentials) vs plain lib-storage: ' +
        'skipped — SeaweedFS is not installed (bash stack/provision.sh --tests)',
    );
    return;
  }
  const dir = path.join(work, 'weed');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 's3.json'),
    JSON.stringify({
      identities: [
        {
          name: 'bench',
          credentials: [{ accessKey: 'bench', secretKey: 'bench-secret-0123456789' }],
          actions: ['Admin', 'Read', 'Write', 'List'],
        },
      ],
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'iam.json'),
    JSON.stringify({
      sts: {
        tokenDuration: '1h',
        maxSessionLength: '12h',
        issuer: 'bench-sts',
        signingKey: Buffer.from('bench-sts-signing-key-0123456789abcdef').toString('base64'),
      },
      policy: { defaultEffect: 'Deny', storeType: 'memory' },
      roles: [
        {
          roleName: 'upload',
          roleArn: 'arn:aws:iam::role/upload',
          attachedPolicies: ['All'],
          trustPolicy: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Principal: { AWS: '*' }, Action: ['sts:AssumeRole'] }],
          },
        },
      ],
      policies: [
        {
          name: 'All',
          document: {
            Version: '2012-10-17',
            Statement: [
              { Effect: 'Allow', Action: ['s3:*'], Resource: ['arn:aws:s3:::*', 'arn:aws:s3:::*/*'] },
              { Effect: 'Allow', Action: ['sts:ValidateSession'], Resource: ['*'] },
            ],
          },
        },
      ],
    }),
  );
  const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
  const proc = startProcess(
    weed,
    [
      'mini',
      `-dir=${dir}`,
      '-ip=127.0.0.1',
      `-master.port=${ports[0]}`,
      `-volume.port=${ports[1]}`,
      `-filer.port=${ports[2]}`,
      `-s3.port=${ports[3]}`,
      '-s3.port.iceberg=0',
      '-webdav=false',
      '-admin.ui=false',
      `-s3.config=${path.join(dir, 's3.json')}`,
      `-s3.iam.config=${path.join(dir, 'iam.json')}`,
    ],
    { onLine: () => {} },
  );
  try {
    const endpoint = `http://127.0.0.1:${ports[3]}`;
    for (let i = 0; i < 120 && !(await fetch(endpoint).catch(() => null)); i++)
      await new Promise((r) => setTimeout(r, 500));
    const s3 = new S3Storage({
      endpoint,
      publicEndpoint: endpoint,
      region: 'us-east-1',
      bucket: 'bench',
      accessKeyId: 'bench',
      secretAccessKey: 'bench-secret-0123456789',
      stsEndpoint: endpoint,
      stsRoleArn: 'arn:aws:iam::role/upload',
    });
    await s3.ensureBucket();
    const mp = (await s3.scopedUploadCredentials('scoped.bin', 3600))!;
    const scoped = new S3Client({
      endpoint,
      region: mp.region,
      forcePathStyle: true,
      credentials: {
        accessKeyId: mp.access_key_id,
        secretAccessKey: mp.secret_access_key,
        sessionToken: mp.session_token,
      },
    });
    // Alternating rounds: one upload of each on a shared machine drifts more than they differ.
    const ratios: number[] = [];
    for (let round = 1; round <= UPLOAD_ROUNDS; round++) {
      const plain = await timedUpload(s3.client, 'bench', 'plain.bin', body);
      const viaMultipart = await timedUpload(scoped, 'bench', mp.object_path, body);
      ratios.push(plain / viaMultipart);
      console.log(
        `SeaweedFS, ${UPLOAD_MIB} MiB, round ${round}: plain lib-storage ${((gib / plain) * 1024).toFixed(0)} MiB/s; ` +
          `via multipart credentials ${((gib / viaMultipart) * 1024).toFixed(0)} MiB/s; ` +
          `ratio ${(plain / viaMultipart).toFixed(2)}×`,
      );
    }
    const median = [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)]!;
    console.log(
      `SeaweedFS, multipart credentials / plain lib-storage, median of ${UPLOAD_ROUNDS} rounds: ` +
        `${median.toFixed(2)}× (target ≥ 0.9×)`,
    );
  } finally {
    await proc.stop();
  }
}

try {
  await processing();
  await uploads();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
