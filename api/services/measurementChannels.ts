// Attaching a measurement to a channel: the rules that decide whether it may occupy it.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { AppError, conflict, forbidden, invalid } from '../errors.ts';
import * as repo from '../../db/repositories/cells.ts';
import { openServiceEvent } from '../../db/repositories/inventory.ts';

/**
 * Checks, under a lock on the channel, that the measurement may occupy it: same organization
 * (403) and project (400, naming the field at `loc`), in commission (409), its cycler not in
 * service while the measurement runs (409), no other unfinished measurement overlapping its
 * time (409). Call inside the transaction that writes channel_id.
 */
export async function assertChannelAttachable(
  em: EntityManager,
  caller: RequestContext['caller'],
  m: { id: string | null; project_id: string; start_time: Date | string | null; end_time: Date | string | null },
  channelId: string,
  loc: (string | number)[] = ['body', 'channel_id'],
): Promise<void> {
  const channel = await repo.lockChannelForAttach(em, channelId);
  if (!channel) throw invalid(loc, 'no such channel', 'value_error', channelId);
  if (channel.organization_id !== caller.organizationId)
    throw forbidden('the channel belongs to another organization', { channel_id: channelId });
  if (channel.project_id !== m.project_id) {
    // 400, not 422: the attach rules answer a cross-project link with 400.
    throw new AppError(
      'BAD_REQUEST',
      `the channel belongs to another project (${channel.project_id}) than the measurement (${m.project_id})`,
      {
        field: loc.at(-1),
        loc,
        channel_project_id: channel.project_id,
        measurement_project_id: m.project_id,
      },
    );
  }
  // A cycler in service runs nothing new (opening an event likewise waits for no running
  // measurement), and the event is the more telling answer; finished runs may still be recorded
  // on it, although the event took its channels out of commission. A channel out for its own
  // fault takes nothing.
  if (runsOn(m.end_time)) {
    const event = await openServiceEvent(em, channel.cycler_id);
    if (event) {
      throw conflict(`the channel's cycler has an open ${event.event_type} service event`, {
        channel_id: channelId,
        cycler_id: channel.cycler_id,
        service_event_id: event.id,
      });
    }
  }
  if (channel.out_of_commission && (runsOn(m.end_time) || !channel.service_event_id)) {
    throw conflict('the channel is out of commission', { channel_id: channelId });
  }
  await assertNoOverlap(em, m, channelId);
}

/** Whether a measurement with this end runs now or later (the RUNNING condition of the repositories). */
export function runsOn(endTime: Date | string | null): boolean {
  return endTime == null || new Date(endTime) > new Date();
}

/**
 * No other unfinished measurement on the channel overlaps the measurement's time; the caller holds the channel's
 * lock.
 */
export async function assertNoOverlap(
  em: EntityManager,
  m: { id: string | null; start_time: Date | string | null; end_time: Date | string | null },
  channelId: string,
) {
  const other = await repo.overlappingRunning(em, channelId, m.id, m.start_time, m.end_time);
  if (other)
    throw conflict('another unfinished measurement occupies the channel in an overlapping time', {
      channel_id: channelId,
      measurement_id: other.id,
    });
}
