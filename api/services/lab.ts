// GET /projects/{id}/lab/status: the project's sites, cyclers and channels with occupancy
// derived at read time from the measurements linked to each channel (never stored).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { labChannels, labCyclers, organizationStaleAfterHours, type LabChannelRow } from '../repositories/lab.ts';
import { requireProjectPermission } from './access.ts';

type State = 'free' | 'occupied' | 'stale';
interface Counts {
  occupied: number;
  stale: number;
  free: number;
  out_of_commission: number;
}
type LabChannel = { id: string; name: string; [field: string]: unknown };
type LabCycler = Record<string, unknown> & Counts & { channel_count: number; channels: LabChannel[] };

const byNameThenId = (a: LabChannel, b: LabChannel) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const iso = (msSinceEpoch: number | null) => (msSinceEpoch === null ? null : new Date(msSinceEpoch).toISOString());

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

/** The query and the tree, without HTTP or permission checks (the benchmark's floor uses it too). */
export async function buildLabStatus(em: EntityManager, projectId: string, userId: string, staleAfterHours: number) {
  const [cyclerRows, channelRows] = await Promise.all([labCyclers(em, projectId), labChannels(em, projectId, userId, staleAfterHours)]);
  const total: Counts = { occupied: 0, stale: 0, free: 0, out_of_commission: 0 };
  const sites: { id: string; name: string; cyclers: LabCycler[] }[] = [];
  const cyclers = new Map<string, LabCycler>();
  for (const c of cyclerRows) {
    if (sites.at(-1)?.id !== c.site_id) sites.push({ id: c.site_id, name: c.site_name, cyclers: [] });
    const cycler: LabCycler = {
      id: c.id, name: c.name, channel_count: 0, occupied: 0, stale: 0, free: 0, out_of_commission: 0,
      manufacturer: c.manufacturer, model: c.model, serial_number: c.serial_number, last_calibrated_at: iso(c.last_calibrated_at),
      calibration_interval_days: c.calibration_interval_days, calibration_due_at: iso(c.calibration_due_at), channels: [],
    };
    sites.at(-1)!.cyclers.push(cycler);
    cyclers.set(c.id, cycler);
  }
  for (const r of channelRows) {
    const cycler = cyclers.get(r.cycler_id);
    if (!cycler) continue; // created between the two reads
    // Over every running measurement of the channel, not only the one shown: one fresh run makes it occupied.
    const state: State = r.m_id === null ? 'free' : r.fresh ? 'occupied' : 'stale';
    // An out-of-commission channel counts there only, whatever else holds.
    const bucket: keyof Counts = r.out_of_commission ? 'out_of_commission' : state;
    cycler[bucket]++;
    total[bucket]++;
    cycler.channel_count++;
    cycler.channels.push({
      id: r.id, name: r.name, state, notes: r.notes, out_of_commission: r.out_of_commission,
      max_amps: r.max_amps, min_volts: r.min_volts, max_volts: r.max_volts,
      ...(state === 'free' ? {} : { measurement: measurementOf(r) }),
    });
  }
  for (const cycler of cyclers.values()) cycler.channels.sort(byNameThenId);
  return { sites, ...total };
}

export async function labStatus(ctx: RequestContext, projectId: string) {
  const project = await requireProjectPermission(ctx, projectId, 'channel:read');
  const hours = (await organizationStaleAfterHours(ctx.em, project.organization_id)) ?? ctx.config.staleAfterHours;
  return buildLabStatus(ctx.em, projectId, ctx.caller.userId, hours);
}
