// The lab status's grid view (?view=grid): the whole lab as the board's grid draws it, each
// cycler's channels as columns (one array per field) rather than an object per channel, from a
// lean read (labGridChannels: no joins for the measurement's details, and each channel's next
// reservation start from SQL rather than every block). States and counts come from the same
// helpers as the full view, so the two agree (test/labStatusViews.test.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  labCyclers,
  labGridChannels,
  labServiceEvents,
  type LabCyclerRow,
  type LabGridRow,
  type LabServiceRow,
} from '../../db/repositories/lab.ts';
import type { Schema } from '../schemas.ts';
import { byNameThenId, iso, skeleton, countChannel, stateOf, type Counts } from './labTree.ts';

/** A cycler's channels in the grid view (from the spec): element i of every array is channel i (by name, then id). */
type GridColumns = Schema<'LabStatusGrid'>['sites'][number]['cyclers'][number]['channels'];

function columnsOf(rows: LabGridRow[]): GridColumns {
  const c: GridColumns = {
    id: [],
    name: [],
    state: [],
    next_reservation_start: [],
    service_scheduled_at: [],
    service_scheduled_until: [],
    watched: [],
    max_amps: [],
    min_volts: [],
    max_volts: [],
  };
  rows.sort(byNameThenId);
  for (const r of rows) {
    c.id.push(r.id);
    c.name.push(r.name);
    c.state.push(stateOf(r));
    // As the full view: out of commission for a fault of its own, it has no next reservation shown.
    const held = r.out_of_commission && !r.out_for_service;
    c.next_reservation_start.push(held ? null : iso(r.next_reservation_start));
    c.service_scheduled_at.push(iso(r.service_scheduled_at));
    c.service_scheduled_until.push(iso(r.service_scheduled_until));
    c.watched.push(r.m_id !== null && r.watched);
    c.max_amps.push(r.max_amps);
    c.min_volts.push(r.min_volts);
    c.max_volts.push(r.max_volts);
  }
  return c;
}

/** The whole lab's grid: sites → cyclers (headers, counts, service windows) → channel columns. */
export async function buildLabGrid(
  em: EntityManager,
  projectId: string,
  userId: string,
  staleAfterHours: number,
  asOf: Date,
) {
  const [cyclerRows, channelRows, events] = await Promise.all([
    labCyclers(em, projectId),
    labGridChannels(em, projectId, userId, staleAfterHours, asOf),
    labServiceEvents(em, projectId),
  ]);
  return gridOf(cyclerRows, channelRows, events);
}

/** The grid from its rows (apart for the benchmark, which times the reads and this separately). */
export function gridOf(cyclerRows: LabCyclerRow[], channelRows: LabGridRow[], events: LabServiceRow[]) {
  const { sites, cyclers } = skeleton(cyclerRows, events);
  const rowsOf = new Map<string, LabGridRow[]>([...cyclers.keys()].map((id) => [id, []]));
  const total: Counts = { occupied: 0, stale: 0, free: 0, out_of_commission: 0 };
  for (const r of channelRows) {
    const cycler = cyclers.get(r.cycler_id);
    if (!cycler) continue; // created between the two reads
    const state = stateOf(r);
    countChannel(cycler, total, state);
    rowsOf.get(r.cycler_id)!.push(r);
  }
  return {
    sites: sites.map((s) => ({
      ...s,
      cyclers: s.cyclers.map((c) => ({ ...c, channels: columnsOf(rowsOf.get(c.id as string)!) })),
    })),
    ...total,
  };
}
