// The lab status's parts shared by its views (full, page, summary, grid): the clock, states,
// cyclers with their service windows, and each channel's next reservation.
import type { LabChannelRow, LabCyclerRow, LabServiceRow } from '../../db/repositories/lab.ts';
import type { Block } from '../../db/repositories/plannedMeasurements.ts';

/** The status reads the clock to the minute, so that one ETag holds for a version of the lab within a minute. */
export const TICK = 60_000;
export const labClock = (msSinceEpoch = Date.now()) => new Date(Math.floor(msSinceEpoch / TICK) * TICK);

export type State = 'free' | 'occupied' | 'stale' | 'out_of_commission';
export interface Counts {
  occupied: number;
  stale: number;
  free: number;
  out_of_commission: number;
}
export type LabChannel = { id: string; name: string; [field: string]: unknown };
export type LabCycler = Record<string, unknown> & Counts & { channel_count: number; channels: LabChannel[] };

export const byNameThenId = (a: LabChannel, b: LabChannel) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export const iso = (msSinceEpoch: number | null) =>
  msSinceEpoch === null ? null : new Date(msSinceEpoch).toISOString();

/** The channel's next reservation (one under way included) and when it is next free: null when held for good. */
export function forward(blocks: Block[] | undefined, asOf: number) {
  let free = asOf;
  let next: Block | undefined;
  for (const b of blocks ?? []) {
    if (!next && b.kind === 'planned_measurement') next = b;
    // The clock is read to the minute: what starts within the current minute holds the channel now.
    if (b.end_ms > free && b.start_ms <= (free === asOf ? asOf + TICK - 1 : free)) free = b.end_ms;
  }
  return {
    next_reservation: next
      ? { id: next.id, name: next.name, planned_start_time: iso(next.start_ms), planned_end_time: iso(next.end_ms) }
      : null,
    next_free_at: Number.isFinite(free) ? iso(free) : null,
  };
}

export function cyclerOf(c: LabCyclerRow): LabCycler {
  return {
    id: c.id,
    name: c.name,
    channel_count: 0,
    occupied: 0,
    stale: 0,
    free: 0,
    out_of_commission: 0,
    manufacturer: c.manufacturer,
    model: c.model,
    serial_number: c.serial_number,
    last_calibrated_at: iso(c.last_calibrated_at),
    calibration_interval_days: c.calibration_interval_days,
    calibration_due_at: iso(c.calibration_due_at),
    service_windows: [],
    channels: [],
  };
}

/** Sites → cyclers in the rows' order, with their open service windows. */
/** Counts a channel in its cycler and in the lab's total, by its state. */
export function countChannel(cycler: LabCycler, total: Counts, state: State): void {
  cycler[state]++;
  total[state]++;
  cycler.channel_count++;
}

export function skeleton(cyclerRows: LabCyclerRow[], events: LabServiceRow[]) {
  const sites: { id: string; name: string; cyclers: LabCycler[] }[] = [];
  const cyclers = new Map<string, LabCycler>();
  for (const c of cyclerRows) {
    if (sites.at(-1)?.id !== c.site_id) sites.push({ id: c.site_id, name: c.site_name, cyclers: [] });
    const cycler = cyclerOf(c);
    sites.at(-1)!.cyclers.push(cycler);
    cyclers.set(c.id, cycler);
  }
  for (const e of events) {
    (cyclers.get(e.cycler_id)?.service_windows as unknown[] | undefined)?.push({
      id: e.id,
      event_type: e.event_type,
      status: e.status,
      started_at: iso(e.started_at),
      scheduled_for: iso(e.scheduled_for),
      scheduled_until: iso(e.scheduled_until),
    });
  }
  return { sites, cyclers };
}

/**
 * A channel's state. An out-of-commission channel is that state and counts there only, whatever
 * else holds: the client's free_channels() keeps state == 'free', so it must never offer one.
 * `fresh` is over every running measurement of the channel: one fresh run makes it occupied.
 */
export const stateOf = (r: Pick<LabChannelRow, 'out_of_commission' | 'm_id' | 'fresh'>): State =>
  r.out_of_commission ? 'out_of_commission' : r.m_id === null ? 'free' : r.fresh ? 'occupied' : 'stale';
