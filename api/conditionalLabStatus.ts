// The board revalidates its lab status every few seconds: a conditional GET of an unchanged lab
// is answered here, ahead of the validator and the body parsers, with one statement (labHead:
// access and version together) after the cached key check. Only a certain 304 is answered here;
// anything else (no If-None-Match, another tag, an unusual query, a key or membership not settled
// by the cache, no access) goes on to the normal chain unchanged, which answers it, errors included.
// No versions are cached in the process: with several API replicas that would answer a stale 304.
import type { RequestHandler } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { cachedCaller } from './auth.ts';
import type { AuthCache } from './authCache.ts';
import { etagMatches, labEtag, type LabView } from './services/lab.ts';
import { labHead } from '../db/repositories/lab.ts';

const PATH = /^\/projects\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/lab\/status$/;
const INTEGER = /^(0|[1-9]\d{0,8})$/;

/** The view the query asks for, when it is one the validator would pass unchanged; else null. */
function viewOf(query: Record<string, unknown>): LabView | null {
  const q: LabView = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'view' && (v === 'summary' || v === 'full' || v === 'grid')) q.view = v;
    else if (k === 'cycler_offset' && typeof v === 'string' && INTEGER.test(v)) q.cycler_offset = Number(v);
    else if (k === 'cycler_limit' && typeof v === 'string' && INTEGER.test(v) && Number(v) >= 1 && Number(v) <= 1000)
      q.cycler_limit = Number(v);
    else return null;
  }
  // A summary or grid with a page is a 400 of the normal path.
  if ((q.view === 'summary' || q.view === 'grid') && (q.cycler_offset !== undefined || q.cycler_limit !== undefined))
    return null;
  return q;
}

export function conditionalLabStatus(orm: MikroORM, defaultHours: number, cache: AuthCache): RequestHandler {
  return async (req, res, next) => {
    try {
      const ifNoneMatch = req.header('if-none-match');
      const m = req.method === 'GET' && ifNoneMatch ? PATH.exec(req.path) : null;
      if (!m) return next();
      const view = viewOf(req.query as Record<string, unknown>);
      const caller =
        view &&
        cachedCaller(cache, req.header('authorization'), req.header('x-api-key'), req.header('x-organization-id'));
      if (!view || !caller) return next();
      const head = await labHead(orm.em.fork(), m[1]!, caller.userId, 'channel:read');
      if (!head || head.organization_id !== caller.organizationId || !(caller.isOwner || head.allowed)) return next();
      const etag = labEtag(head, caller.userId, defaultHours, view);
      if (!etagMatches(ifNoneMatch, etag)) return next();
      // The same headers as the route's 304.
      res.setHeader('ETag', etag).setHeader('Cache-Control', 'private, no-cache');
      res.status(304).end();
    } catch (err) {
      next(err);
    }
  };
}
