// Auto-schedule: for requested plans in the caller's priority order, the earliest window on a
// suitable in-service channel (ratings, calibration not due before the window ends, no collision);
// applying re-checks everything in one transaction and changes all or nothing.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { AppError, invalid } from '../errors.ts';
import * as repo from '../../db/repositories/plannedMeasurements.ts';
import { updateRow } from '../../db/repositories/sqlRows.ts';
import { requireProjectPermission } from './access.ts';
import { reserve } from './planReservations.ts';
import type { RequestBody } from '../schemas.ts';
import { ChannelHeap, type Entry } from './channelHeap.ts';
import { ratingMismatch, requirementsOf } from './scheduling.ts';

const MINUTE = 60_000;
/** A uuid[] parameter (the driver would spread a JS array into a list); ids are validated uuids. */
const uuids = (ids: string[]) => `{${ids.join(',')}}`;

interface Assignment {
  planned_measurement_id: string;
  planned_measurement_name: string;
  planned_measurement_updated_at: string;
  channel_id: string | null;
  channel_name: string | null;
  cycler_name: string | null;
  planned_start_time: string | null;
  planned_end_time: string | null;
  unscheduled_reason: string | null;
}

/** The earliest start at or after `from` where [start, start + duration) meets no block (blocks sorted by start). */
export function earliestGap(blocks: { start_ms: number; end_ms: number }[], from: number, duration: number): number {
  let start = from;
  for (const b of blocks) {
    if (b.end_ms <= start) continue;
    if (b.start_ms >= start + duration) break;
    start = b.end_ms;
    if (!Number.isFinite(start)) return Infinity;
  }
  return start;
}

function duplicates(ids: string[]): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) throw invalid(['body', 'planned_measurement_ids', i], 'is listed twice', 'value_error', id);
    seen.add(id);
  });
}

type PlanForProposal = repo.PlanRow & { ratings: Record<string, unknown> | null };

/**
 * What a proposal reads, two statements side by side: the plans, and the project's channels in
 * tie-break order with the spans of every block on them from now on (only what placement needs).
 */
export async function proposalInputs(em: EntityManager, projectId: string, ids: string[]) {
  const [plans, lab] = await Promise.all([
    em.execute<PlanForProposal[]>(
      `select ${repo.PLAN_SELECT}, cs.ratings from ${repo.PLAN_FROM} left
        join cell_specifications cs on cs.id = p.cell_specification_id
        where p.project_id = ? and p.id = any(?::uuid[])`,
      [projectId, uuids(ids)],
    ),
    repo.placementLab(em, projectId),
  ]);
  return [plans, lab.channels, lab.spans] as const;
}

export async function proposeSchedule(
  ctx: RequestContext,
  projectId: string,
  body: RequestBody<'proposeAutoSchedule'>,
) {
  await requireProjectPermission(ctx, projectId, 'cell_measurement:read');
  duplicates(body.planned_measurement_ids);
  const now = Date.now();
  // Whole minutes: the same state proposes the same windows however often it is asked within a minute.
  const from = Math.ceil(Math.max(now, body.start_after ? Date.parse(body.start_after) : now) / MINUTE) * MINUTE;
  const [plans, channels, blocks] = await proposalInputs(ctx.em, projectId, body.planned_measurement_ids);
  const byId = new Map(plans.map((p) => [p.id, p]));
  const missing = body.planned_measurement_ids.findIndex((id) => !byId.has(id));
  if (missing >= 0)
    throw invalid(
      ['body', 'planned_measurement_ids', missing],
      'is not a planned measurement of this project',
      'value_error',
      body.planned_measurement_ids[missing],
    );
  return {
    generated_at: new Date(now).toISOString(),
    assignments: placePlans(
      body.planned_measurement_ids.map((id) => byId.get(id)!),
      channels,
      blocks,
      from,
    ),
  };
}

/**
 * The placement itself, without I/O: each plan in turn on the earliest window of a suitable
 * channel (ties to the first in channel order). The rated channels of each kind of plan wait in
 * a heap by when they are next free, so a plan looks only at those that could start it earliest
 * (see channelHeap.ts), not at all 32,768 again.
 */
export function placePlans(
  plans: PlanForProposal[],
  channels: repo.PlacementChannel[],
  blocks: repo.Span[],
  from: number,
): Assignment[] {
  const taken = new Map<string, { start_ms: number; end_ms: number }[]>(channels.map((c) => [c.id, []]));
  for (const b of blocks) taken.get(b.channel_id)?.push({ start_ms: b.start_ms, end_ms: b.end_ms });
  // A channel out for its cycler's service is free again after the service's window (one of its blocks).
  const inService = channels.filter((c) => !c.out_of_commission || c.service_event_id);
  const order = new Map(channels.map((c, i) => [c.id, i]));
  // A channel whose calibration is due by `from` can take nothing; the others start in the heap at when they are next
  // free.
  const entry = (c: repo.PlacementChannel): Entry<repo.PlacementChannel> | null =>
    c.calibration_due_at !== null && c.calibration_due_at <= from
      ? null
      : { key: earliestGap(taken.get(c.id)!, from, 0), order: order.get(c.id)!, channel: c };
  // Plans needing the same ratings share their channels' heap (one filter of 32,768 channels, not one per plan).
  const heaps = new Map<string, { rated: number; heap: ChannelHeap<repo.PlacementChannel> }>();

  return plans.map((plan): Assignment => {
    const base = {
      planned_measurement_id: plan.id,
      planned_measurement_name: plan.name,
      planned_measurement_updated_at: plan.updated_at.toISOString(),
      channel_id: null,
      channel_name: null,
      cycler_name: null,
      planned_start_time: null,
      planned_end_time: null,
    };
    if (plan.status !== 'requested')
      return { ...base, unscheduled_reason: `the plan is ${plan.status}, not requested` };
    const duration =
      ((plan.setup_duration_seconds ?? 0) +
        (plan.estimated_duration_seconds ?? 0) +
        (plan.teardown_duration_seconds ?? 0)) *
      1000;
    const need = requirementsOf(plan.ratings);
    const needKey = `${need.amps}|${need.minVolts}|${need.maxVolts}`;
    let kind = heaps.get(needKey);
    if (!kind) {
      const rated = inService.filter((c) => ratingMismatch(c, need) === null);
      heaps.set(
        needKey,
        (kind = { rated: rated.length, heap: new ChannelHeap(rated.map(entry).filter((e) => e !== null)) }),
      );
    }
    if (!channels.length) return { ...base, unscheduled_reason: 'the project has no channels' };
    if (!inService.length) return { ...base, unscheduled_reason: 'every channel of the project is out of commission' };
    if (!kind.rated)
      return {
        ...base,
        unscheduled_reason: `no in-service channel is rated for the cell (${ratingMismatch(inService[0]!, need)})`,
      };
    // Take channels off the heap while one could still start earlier than the best found (or as early, and come first).
    const looked: Entry<repo.PlacementChannel>[] = [];
    let best: { entry: Entry<repo.PlacementChannel>; start: number } | null = null;
    for (let top = kind.heap.peek(); top && Number.isFinite(top.key); top = kind.heap.peek()) {
      if (best && (top.key > best.start || (top.key === best.start && top.order > best.entry.order))) break;
      looked.push(kind.heap.pop()!);
      const c = top.channel;
      const start = earliestGap(taken.get(c.id)!, from, duration);
      if (!Number.isFinite(start) || (c.calibration_due_at !== null && start + duration > c.calibration_due_at))
        continue;
      if (!best || start < best.start || (start === best.start && top.order < best.entry.order))
        best = { entry: top, start };
    }
    if (best) {
      const list = taken.get(best.entry.channel.id)!;
      const block = { start_ms: best.start, end_ms: best.start + duration };
      const at = list.findIndex((b) => b.start_ms > block.start_ms);
      list.splice(at < 0 ? list.length : at, 0, block);
    }
    // Back on the heap with what is now known of when each is next free.
    for (const e of looked) {
      const again = entry(e.channel);
      if (again) kind.heap.push(again);
    }
    if (!best)
      return { ...base, unscheduled_reason: 'every rated channel is held for good or its calibration falls due first' };
    const c = best.entry.channel;
    return {
      ...base,
      channel_id: c.id,
      channel_name: c.name,
      cycler_name: c.cycler_name,
      planned_start_time: new Date(best.start).toISOString(),
      planned_end_time: new Date(best.start + duration).toISOString(),
      unscheduled_reason: null,
    };
  });
}

const stale = (message: string, detail: Record<string, unknown>) =>
  new AppError('SCHEDULE_STALE', `${message}; nothing was applied: ask for a new proposal`, detail);

export async function applySchedule(ctx: RequestContext, projectId: string, body: RequestBody<'applyAutoSchedule'>) {
  await requireProjectPermission(ctx, projectId, 'cell_measurement:update');
  duplicates(body.assignments.map((a) => a.planned_measurement_id));
  body.assignments.forEach((a, i) => {
    if (Date.parse(a.planned_end_time) <= Date.parse(a.planned_start_time)) {
      throw invalid(
        ['body', 'assignments', i, 'planned_end_time'],
        'must be after planned_start_time',
        'value_error',
        a.planned_end_time,
      );
    }
  });
  const ids = await ctx.em
    .transactional(async (em) => {
      // Plans, then channels, each in id order: two applies running together cannot deadlock.
      await em.execute(`select id from planned_measurements where id = any(?::uuid[]) order by id for update`, [
        uuids(body.assignments.map((a) => a.planned_measurement_id)),
      ]);
      await em.execute(`select id from channels where id = any(?::uuid[]) order by id for update`, [
        uuids(body.assignments.map((a) => a.channel_id)),
      ]);
      for (const a of body.assignments) {
        const plan = await repo.findPlan(em, a.planned_measurement_id);
        if (!plan || plan.project_id !== projectId)
          throw stale(`planned measurement ${a.planned_measurement_id} is not in this project any more`, {
            planned_measurement_id: a.planned_measurement_id,
          });
        if (plan.status !== 'requested' || plan.updated_at.getTime() !== Date.parse(a.planned_measurement_updated_at)) {
          throw stale(`planned measurement "${plan.name}" changed since the proposal`, {
            planned_measurement_id: plan.id,
            status: plan.status,
            updated_at: plan.updated_at.toISOString(),
          });
        }
        try {
          await reserve(em, ctx, plan, a.channel_id, new Date(a.planned_start_time), new Date(a.planned_end_time));
        } catch (err) {
          if (err instanceof AppError && err.code === 'CONFLICT')
            throw stale(`channel ${a.channel_id} cannot take "${plan.name}" any more: ${err.message}`, {
              planned_measurement_id: plan.id,
              cause: err.detail,
            });
          throw err;
        }
        await updateRow(em, 'planned_measurements', plan.id, {
          status: 'scheduled',
          channel_id: a.channel_id,
          planned_start_time: a.planned_start_time,
          planned_end_time: a.planned_end_time,
          scheduled_by: ctx.caller.userId,
        });
      }
      return body.assignments.map((a) => a.planned_measurement_id);
    })
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === '23P01')
        throw stale('a reservation made meanwhile collides with the proposal', {});
      throw err;
    });
  const plans = await ctx.em.execute<repo.PlanRow[]>(
    `select ${repo.PLAN_SELECT} from ${repo.PLAN_FROM} where p.id = any(?::uuid[])`,
    [uuids(ids)],
  );
  const byId = new Map(plans.map((p) => [p.id, p]));
  return ids.map((id) => byId.get(id)!);
}
