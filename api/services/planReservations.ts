// Reserving a channel for a plan's window: checked under the channel's row lock (naming the
// collision), and held by the table's exclusion constraint under any concurrency.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { AppError, conflict, invalid, notFound } from '../errors.ts';
import * as repo from '../../db/repositories/plannedMeasurements.ts';
import { assertSameOrganization } from './access.ts';
import { blockConflict, checkRatings, requirementsOf } from './scheduling.ts';

/** The window [start, end): its end after its start (422 naming planned_end_time). */
export function window(start: string | Date | null | undefined, end: string | Date | null | undefined) {
  const s = new Date(start!);
  const e = new Date(end!);
  if (e.getTime() <= s.getTime()) {
    throw invalid(
      ['body', 'planned_end_time'],
      `must be after planned_start_time (${s.toISOString()})`,
      'value_error',
      end instanceof Date ? end.toISOString() : end,
    );
  }
  return { start: s, end: e };
}

/** Locks the channel and refuses the window on it: other project 400, out of commission, ratings or a collision 409. */
export async function reserve(
  em: EntityManager,
  ctx: RequestContext,
  plan: { id: string | null; project_id: string; cell_specification_id: string | null },
  channelId: string,
  start: Date,
  end: Date,
) {
  const channel = await repo.channelForPlan(em, channelId, true);
  if (!channel) throw notFound('channel', channelId);
  assertSameOrganization(ctx.caller, channel.organization_id, 'channel');
  if (channel.project_id !== plan.project_id) {
    throw new AppError('BAD_REQUEST', `the channel ${channelId} belongs to another project`, {
      field: 'channel_id',
      project_id: channel.project_id,
    });
  }
  // Out for its cycler's service, the channel is held by the service's window (a block below); out for its own fault,
  // for good.
  if (channel.out_of_commission && !channel.service_event_id) {
    throw conflict(`channel ${channel.name} on ${channel.cycler_name} is out of commission`, {
      channel_id: channelId,
      out_of_commission: true,
    });
  }
  const spec = plan.cell_specification_id ? await repo.specForPlan(em, plan.cell_specification_id) : null;
  checkRatings(channel, requirementsOf(spec?.ratings ?? null));
  const hit = await repo.firstCollision(em, channelId, start, end, plan.id);
  if (hit) throw blockConflict(hit, channel);
  return channel;
}

/** The exclusion constraint caught a reservation that committed meanwhile: the same 409. */
export async function orOverlap<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23P01') {
      throw conflict('the window collides with another reservation on this channel made at the same time', {
        collides_with: { kind: 'planned_measurement' },
      });
    }
    throw err;
  }
}
