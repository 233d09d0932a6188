// The filesystem driver's signed-URL endpoints. No API key: the HMAC in the URL authorises
// exactly one operation on one object until it expires. Bodies stream straight to disk.
import { Router, type Request } from 'express';
import { AppError } from '../errors.ts';
import { inflaterFor, sendStream } from '../http.ts';
import { type FsStorage, ObjectExists, ObjectTooLarge, type SignedParams } from '../../storage/fsStorage.ts';
import { ObjectNotFound } from '../../storage/storage.ts';

function signedParams(req: Request, op: 'put' | 'get'): { params: SignedParams; sig: string } {
  const segments = (req.params as Record<string, string[] | string>).key;
  const key = Array.isArray(segments) ? segments.join('/') : String(segments ?? '');
  const q = req.query as Record<string, string | undefined>;
  if (q.op !== op || !q.sig || !q.expires || !/^\d+$/.test(q.expires)) {
    throw new AppError('FORBIDDEN', 'this URL is not a valid signed storage URL');
  }
  return {
    params: {
      op,
      key,
      expires: Number(q.expires),
      max: q.max && /^\d+$/.test(q.max) ? Number(q.max) : 0,
      filename: q.filename ?? '',
    },
    sig: q.sig,
  };
}

function check(storage: FsStorage, params: SignedParams, sig: string): void {
  let verdict: 'ok' | 'expired' | 'invalid';
  try {
    verdict = storage.verify(params, sig);
  } catch {
    verdict = 'invalid';
  }
  if (verdict === 'invalid') throw new AppError('FORBIDDEN', 'the signature of this storage URL does not match');
  if (verdict === 'expired')
    throw new AppError('FORBIDDEN', 'this storage URL has expired; ask for a new one', { expired: true });
}

export function storageRoutes(storage: FsStorage): Router {
  const r = Router();
  r.put('/storage/objects/*key', async (req, res) => {
    const { params, sig } = signedParams(req, 'put');
    check(storage, params, sig);
    const declared = Number(req.header('content-length') ?? NaN);
    if (params.max && declared > params.max) {
      throw new AppError('PAYLOAD_TOO_LARGE', `this upload target accepts at most ${params.max} bytes`, {
        max_bytes: params.max,
      });
    }
    // A compressed body (clients gzip large ones) is stored as the file it holds, which is what
    // a download gives back; S3 keeps the encoding instead and serves the body with it.
    const inflater = inflaterFor(req.header('content-encoding')) ?? undefined;
    // A signed PUT writes its object once: the same bytes again are a client resending after
    // a dropped connection (200), other bytes are refused and the first ones stay.
    try {
      const size = await storage.writeStream(params.key, req, params.max || Infinity, {
        once: true,
        transform: inflater,
      });
      res.status(200).json({ path: params.key, size });
    } catch (err) {
      if (err instanceof ObjectTooLarge) {
        throw new AppError('PAYLOAD_TOO_LARGE', err.message, { max_bytes: err.maxBytes });
      }
      if (err instanceof ObjectExists)
        throw new AppError('CONFLICT', 'this upload target has already been used for other bytes', {
          path: params.key,
        });
      if (inflater && /^Z_/.test((err as NodeJS.ErrnoException).code ?? '')) {
        throw new AppError(
          'BAD_REQUEST',
          `the compressed body could not be inflated (${(err as Error).message}); nothing was stored`,
        );
      }
      throw err;
    }
  });
  r.get('/storage/objects/*key', async (req, res) => {
    const { params, sig } = signedParams(req, 'get');
    check(storage, params, sig);
    let stream;
    try {
      stream = await storage.get(params.key);
    } catch (err) {
      if (err instanceof ObjectNotFound) throw new AppError('NOT_FOUND', 'no object at this storage URL');
      throw err;
    }
    let head;
    try {
      head = await storage.head(params.key);
    } catch (err) {
      stream.destroy();
      throw err;
    }
    res.setHeader('Content-Type', 'application/octet-stream');
    if (head) res.setHeader('Content-Length', String(head.size));
    if (params.filename)
      res.setHeader('Content-Disposition', `attachment; filename="${params.filename.replaceAll('"', '')}"`);
    sendStream(res, stream);
  });
  return r;
}
