// S3 driver: SigV4 presigned URLs, and — when an STS endpoint is configured — short-lived
// credentials scoped by an inline session policy to one object key (for multipart uploads).
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  AbortMultipartUploadCommand,
  ListMultipartUploadsCommand,
  UploadPartCopyCommand,
  type ListMultipartUploadsCommandOutput,
} from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type { S3Config } from '../stack/config.ts';
import {
  assertSafeKey,
  ObjectNotFound,
  type ObjectStorage,
  type ScopedUploadCredentials,
  type SignedTarget,
} from './storage.ts';

/** S3 copies one object in one request up to 5 GiB; larger ones are copied in parts (1 GiB here). */
export interface CopyLimits {
  singleMax: number;
  partSize: number;
}
const COPY_LIMITS: CopyLimits = { singleMax: 5 * 1024 ** 3, partSize: 1024 ** 3 };

/**
 * How an object of `size` bytes is copied: undefined for one CopyObject, else the inclusive
 * byte ranges of its UploadPartCopy parts, in order (part n is ranges[n - 1]).
 */
export function copyPartRanges(size: number, limits: CopyLimits = COPY_LIMITS): [number, number][] | undefined {
  if (size <= limits.singleMax) return undefined;
  const ranges: [number, number][] = [];
  for (let start = 0; start < size; start += limits.partSize) {
    ranges.push([start, Math.min(start + limits.partSize, size) - 1]);
  }
  return ranges;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  /** Presigns for the endpoint clients reach, which may differ from ours (a container network's name). */
  readonly #signer: S3Client;
  readonly #cfg: S3Config;
  readonly #copyLimits: CopyLimits;

  /** `copyLimits`: S3's unless a test makes the multipart copy happen on small objects. */
  constructor(cfg: S3Config, copyLimits: CopyLimits = COPY_LIMITS) {
    this.#cfg = cfg;
    this.#copyLimits = copyLimits;
    const clientFor = (endpoint: string) =>
      new S3Client({
        endpoint,
        region: cfg.region,
        forcePathStyle: true,
        credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey },
      });
    this.client = clientFor(cfg.endpoint);
    this.#signer = cfg.publicEndpoint === cfg.endpoint ? this.client : clientFor(cfg.publicEndpoint);
  }

  get bucket(): string {
    return this.#cfg.bucket;
  }

  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.#cfg.bucket }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.client.send(new CreateBucketCommand({ Bucket: this.#cfg.bucket }));
    }
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    assertSafeKey(key);
    // lib-storage streams bodies of unknown length in parts instead of buffering them.
    await new Upload({ client: this.client, params: { Bucket: this.#cfg.bucket, Key: key, Body: body } }).done();
  }

  async get(key: string): Promise<Readable> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.#cfg.bucket, Key: key }));
      return out.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFound(key);
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.#cfg.bucket, Key: key }));
      return { size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async readRange(key: string, start: number, end: number): Promise<Buffer> {
    assertSafeKey(key);
    if (end <= start) return Buffer.alloc(0);
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.#cfg.bucket, Key: key, Range: `bytes=${start}-${end - 1}` }),
      );
      return Buffer.from(await out.Body!.transformToByteArray());
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFound(key);
      throw err;
    }
  }

  /**
   * A server-side copy: one request up to 5 GiB (S3's limit for it), else a multipart copy of
   * 1 GiB parts, each pinned to the ETag the source had when the copy began (a source rewritten
   * meanwhile fails the copy rather than mixing two versions).
   */
  async copy(from: string, to: string): Promise<void> {
    assertSafeKey(from);
    assertSafeKey(to);
    const Bucket = this.#cfg.bucket;
    let head;
    try {
      head = await this.client.send(new HeadObjectCommand({ Bucket, Key: from }));
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFound(from);
      throw err;
    }
    const size = Number(head.ContentLength ?? 0);
    const CopySource = `${Bucket}/${from}`; // safe keys need no escaping
    const ranges = copyPartRanges(size, this.#copyLimits);
    if (!ranges) {
      await this.client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource, CopySourceIfMatch: head.ETag }));
      return;
    }
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket,
        Key: to,
        ContentType: head.ContentType,
        ContentEncoding: head.ContentEncoding,
        Metadata: head.Metadata,
      }),
    );
    try {
      const parts = [];
      for (const [i, [first, last]] of ranges.entries()) {
        const n = i + 1;
        const out = await this.client.send(
          new UploadPartCopyCommand({
            Bucket,
            Key: to,
            UploadId,
            PartNumber: n,
            CopySource,
            CopySourceRange: `bytes=${first}-${last}`,
            CopySourceIfMatch: head.ETag,
          }),
        );
        parts.push({ PartNumber: n, ETag: out.CopyPartResult!.ETag });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key: to, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (err) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key: to, UploadId })).catch(() => undefined);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.#cfg.bucket, Key: key }));
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.#cfg.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  /** Everything under `prefix`, multipart uploads in progress there included (their parts are stored too). */
  async deletePrefix(prefix: string): Promise<number> {
    let uploads: ListMultipartUploadsCommandOutput;
    do {
      try {
        uploads = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.#cfg.bucket, Prefix: prefix }));
      } catch (err) {
        // A store without multipart listing has no uploads to abort here.
        if ((err as Error).name === 'NotImplemented') break;
        throw err;
      }
      for (const u of uploads.Uploads ?? []) {
        await this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.#cfg.bucket, Key: u.Key!, UploadId: u.UploadId! }),
        );
      }
    } while (uploads.IsTruncated);
    const keys = await this.list(prefix);
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.#cfg.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
    return keys.length;
  }

  async #presign(command: PutObjectCommand | GetObjectCommand, expiresIn: number): Promise<SignedTarget> {
    const url = await getSignedUrl(this.#signer, command, { expiresIn });
    return {
      url,
      token: new URL(url).searchParams.get('X-Amz-Signature') ?? '',
      expiresAt: new Date(Date.now() + expiresIn * 1000),
    };
  }

  async signedPutUrl(key: string, opts: { expiresInSeconds: number }): Promise<SignedTarget> {
    assertSafeKey(key);
    return this.#presign(new PutObjectCommand({ Bucket: this.#cfg.bucket, Key: key }), opts.expiresInSeconds);
  }

  async signedGetUrl(key: string, opts: { expiresInSeconds: number; filename?: string }): Promise<SignedTarget> {
    assertSafeKey(key);
    return this.#presign(
      new GetObjectCommand({
        Bucket: this.#cfg.bucket,
        Key: key,
        ...(opts.filename
          ? { ResponseContentDisposition: `attachment; filename="${opts.filename.replaceAll('"', '')}"` }
          : {}),
      }),
      opts.expiresInSeconds,
    );
  }

  async scopedUploadCredentials(key: string, expiresInSeconds: number): Promise<ScopedUploadCredentials | null> {
    if (!this.#cfg.stsEndpoint) return null;
    assertSafeKey(key);
    const sts = new STSClient({
      endpoint: this.#cfg.stsEndpoint,
      region: this.#cfg.region,
      credentials: { accessKeyId: this.#cfg.accessKeyId, secretAccessKey: this.#cfg.secretAccessKey },
    });
    // The session policy intersects with the role's: only this one key, only writing it.
    // s3:PutObject covers CreateMultipartUpload, UploadPart and CompleteMultipartUpload.
    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Action: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
          Resource: [`arn:aws:s3:::${this.#cfg.bucket}/${key}`],
        },
      ],
    };
    const out = await sts.send(
      new AssumeRoleCommand({
        RoleArn: this.#cfg.stsRoleArn,
        RoleSessionName: `cellar-upload-${Date.now()}`,
        // STS accepts 15 minutes to 12 hours.
        DurationSeconds: Math.min(43_200, Math.max(900, expiresInSeconds)),
        Policy: JSON.stringify(policy),
      }),
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken) return null;
    return {
      endpoint: this.#cfg.publicEndpoint,
      region: this.#cfg.region,
      bucket: this.#cfg.bucket,
      object_path: key,
      access_key_id: c.AccessKeyId,
      secret_access_key: c.SecretAccessKey,
      session_token: c.SessionToken,
      expires_at: c.Expiration ? new Date(c.Expiration).toISOString() : null,
    };
  }
}
