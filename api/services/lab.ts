// GET /projects/{id}/lab/status: the project's sites, cyclers and channels with occupancy
// derived at read time from the measurements linked to each channel (never stored).
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import {
  labChannels,
  labCounts,
  labCyclers,
  labHead,
  labServiceEvents,
  type CyclerPage,
  type LabHead,
  type LabChannelRow,
} from '../../db/repositories/lab.ts';
import { projectBlocks, type Block } from '../../db/repositories/plannedMeasurements.ts';
import { AppError, notFound } from '../errors.ts';
import { assertSameOrganization } from './access.ts';
import { buildLabGrid } from './labGrid.ts';
import { TICK, byNameThenId, forward, iso, labClock, skeleton, countChannel, stateOf, type Counts } from './labTree.ts';

export { labClock };

function measurementOf(r: LabChannelRow) {
  return {
    id: r.m_id!,
    name: r.m_name!,
    updated_at: iso(r.m_updated_at),
    data_updated_at: iso(r.data_updated_at),
    cell_instance_id: r.cell_instance_id!,
    start_time: iso(r.start_time),
    estimated_end_time: iso(r.estimated_end_time),
    cell_instance_name: r.cell_instance_name!,
    cell_specification_name: r.cell_specification_name!,
    protocol_name: r.protocol,
    watched: r.watched,
    requested_by_email: r.requested_by_email,
    program_name: r.program_name,
  };
}

/**
 * The query and the tree, without HTTP or permission checks (the benchmark's floor uses it too):
 * the whole lab, or the cyclers of `page` with their channels and counts over them.
 */
export async function buildLabStatus(
  em: EntityManager,
  projectId: string,
  userId: string,
  staleAfterHours: number,
  asOf = labClock(),
  page?: CyclerPage,
) {
  const cyclersFirst = page ? await labCyclers(em, projectId, page) : null;
  const ids = cyclersFirst?.map((c) => c.id);
  const [cyclerRows, channelRows, events, blockRows] = await Promise.all([
    cyclersFirst ?? labCyclers(em, projectId),
    labChannels(em, projectId, userId, staleAfterHours, asOf, ids),
    labServiceEvents(em, projectId, ids),
    projectBlocks(em, projectId, asOf, ids),
  ]);
  const blocks = new Map<string, Block[]>();
  for (const b of blockRows) {
    const list = blocks.get(b.channel_id);
    if (list) list.push(b);
    else blocks.set(b.channel_id, [b]);
  }
  const total: Counts = { occupied: 0, stale: 0, free: 0, out_of_commission: 0 };
  const { sites, cyclers } = skeleton(cyclerRows, events);
  const now = asOf.getTime();
  for (const r of channelRows) {
    const cycler = cyclers.get(r.cycler_id);
    if (!cycler) continue; // created between the two reads
    const state = stateOf(r);
    countChannel(cycler, total, state);
    cycler.channels.push({
      id: r.id,
      name: r.name,
      state,
      notes: r.notes,
      out_of_commission: r.out_of_commission,
      max_amps: r.max_amps,
      min_volts: r.min_volts,
      max_volts: r.max_volts,
      service_scheduled_at: iso(r.service_scheduled_at),
      service_scheduled_until: iso(r.service_scheduled_until),
      // Out for its cycler's service, it is next free when the service's window ends (one of its blocks).
      ...(r.out_of_commission && !r.out_for_service
        ? { next_reservation: null, next_free_at: null }
        : forward(blocks.get(r.id), now)),
      ...(state === 'occupied' || state === 'stale' ? { measurement: measurementOf(r) } : {}),
    });
  }
  for (const cycler of cyclers.values()) cycler.channels.sort(byNameThenId);
  return { sites, ...total };
}

/** The whole lab's counts per cycler and in all, without channels (`channels: []`): one aggregate, no channel rows. */
export async function buildLabSummary(
  em: EntityManager,
  projectId: string,
  staleAfterHours: number,
  asOf = labClock(),
) {
  const [cyclerRows, counts, events] = await Promise.all([
    labCyclers(em, projectId),
    labCounts(em, projectId, staleAfterHours, asOf),
    labServiceEvents(em, projectId),
  ]);
  const total: Counts = { occupied: 0, stale: 0, free: 0, out_of_commission: 0 };
  const { sites, cyclers } = skeleton(cyclerRows, events);
  for (const n of counts) {
    const cycler = cyclers.get(n.cycler_id);
    if (!cycler) continue;
    for (const k of ['occupied', 'stale', 'free', 'out_of_commission'] as const) {
      cycler[k] = n[k];
      total[k] += n[k];
      cycler.channel_count += n[k];
    }
  }
  return { sites, ...total };
}

/** What part of the lab a request asks for: all of it, its summary, its grid, or a page of cyclers. */
export interface LabView {
  view?: 'full' | 'summary' | 'grid';
  cycler_offset?: number;
  cycler_limit?: number;
}

function pageOf(q: LabView): CyclerPage | undefined {
  if (q.cycler_offset === undefined && q.cycler_limit === undefined) return undefined;
  if (q.view === 'summary' || q.view === 'grid') {
    throw new AppError(
      'BAD_REQUEST',
      `view=${q.view} is the whole lab, not paged: send view=${q.view} or cycler_offset/cycler_limit, not both`,
      { field: q.cycler_offset !== undefined ? 'cycler_offset' : 'cycler_limit' },
    );
  }
  return { offset: q.cycler_offset ?? 0, limit: q.cycler_limit ?? 100 };
}

/** Whether an If-None-Match header names `etag` (or any). */
export const etagMatches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*');

/**
 * The tag of a view of the lab: the project's lab version, the minute of the clock, the
 * staleness window and the caller (`watched` is theirs). Each view is its own representation.
 */
export function labEtag(head: LabHead, userId: string, defaultHours: number, q: LabView, asOf = labClock()): string {
  const page = pageOf(q);
  const hours = head.stale_after_hours ?? defaultHours;
  const caller = createHash('sha256').update(userId).digest('base64url').slice(0, 10);
  const part = q.view === 'summary' ? '-s' : q.view === 'grid' ? '-g' : page ? `-p${page.offset}.${page.limit}` : '';
  return `W/"lab-${head.version}-${asOf.getTime() / TICK}-${hours}-${caller}${part}"`;
}

/**
 * The status, or null when `ifNoneMatch` names its current ETag (answered 304 without building
 * the tree; usually answered earlier still, by conditionalLabStatus).
 */
export async function labStatus(ctx: RequestContext, projectId: string, ifNoneMatch?: string, q: LabView = {}) {
  const page = pageOf(q);
  // One statement for the checks and the tag (as requireProjectPermission answers: 404, 403), so
  // that an unchanged lab costs about what an authenticated no-op does. Read before the tree: a
  // change in between makes a newer body under an older tag, never the reverse.
  const head = await labHead(ctx.em, projectId, ctx.caller.userId, 'channel:read');
  if (!head) throw notFound('project', projectId);
  assertSameOrganization(ctx.caller, head.organization_id, 'project');
  if (!ctx.caller.isOwner && !head.allowed) {
    throw new AppError('FORBIDDEN', `missing permission channel:read in project ${projectId}`, {
      permission: 'channel:read',
      project_id: projectId,
    });
  }
  const hours = head.stale_after_hours ?? ctx.config.staleAfterHours;
  const asOf = labClock();
  const etag = labEtag(head, ctx.caller.userId, ctx.config.staleAfterHours, q, asOf);
  if (etagMatches(ifNoneMatch, etag)) return { etag, body: null };
  const body =
    q.view === 'summary'
      ? await buildLabSummary(ctx.em, projectId, hours, asOf)
      : q.view === 'grid'
        ? await buildLabGrid(ctx.em, projectId, ctx.caller.userId, hours, asOf)
        : await buildLabStatus(ctx.em, projectId, ctx.caller.userId, hours, asOf, page);
  return { etag, body };
}
