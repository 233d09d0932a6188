// GET /projects/{id}/lab/status: the project's sites, cyclers and channels with occupancy
// derived at read time from the measurements linked to each channel (never stored).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { labRows, organizationStaleAfterHours, type LabRow } from '../repositories/lab.ts';
import { requireProjectPermission } from './access.ts';

type State = 'free' | 'occupied' | 'stale';
interface Counts {
  occupied: number;
  stale: number;
  free: number;
  out_of_commission: number;
}

// Timestamps leave as ISO strings (the tree is large; the route sends it as built).
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function measurementOf(r: LabRow) {
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

/** The tree from the rows (already ordered site, cycler, channel), with the counts. */
export function labTree(rows: LabRow[]) {
  const total: Counts = { occupied: 0, stale: 0, free: 0, out_of_commission: 0 };
  const sites: { id: string; name: string; cyclers: unknown[] }[] = [];
  let site: (typeof sites)[number] | undefined;
  let cycler: (Record<string, unknown> & Counts & { channel_count: number; channels: unknown[] }) | undefined;
  for (const r of rows) {
    if (site?.id !== r.site_id) {
      site = { id: r.site_id, name: r.site_name, cyclers: [] };
      sites.push(site);
    }
    if (cycler?.id !== r.cycler_id) {
      cycler = {
        id: r.cycler_id, name: r.cycler_name, channel_count: 0, occupied: 0, stale: 0, free: 0, out_of_commission: 0,
        manufacturer: r.manufacturer, model: r.model, serial_number: r.serial_number, last_calibrated_at: iso(r.last_calibrated_at),
        calibration_interval_days: r.calibration_interval_days, calibration_due_at: iso(r.calibration_due_at), channels: [],
      };
      site.cyclers.push(cycler);
    }
    if (r.channel_id === null) continue; // a cycler without channels
    const state: State = r.m_id === null ? 'free' : r.fresh ? 'occupied' : 'stale';
    // An out-of-commission channel counts there only, whatever else holds.
    const bucket: keyof Counts = r.out_of_commission ? 'out_of_commission' : state;
    cycler[bucket]++;
    total[bucket]++;
    cycler.channel_count++;
    cycler.channels.push({
      id: r.channel_id, name: r.channel_name, state, notes: r.notes, out_of_commission: r.out_of_commission,
      max_amps: r.max_amps, min_volts: r.min_volts, max_volts: r.max_volts,
      ...(state === 'free' ? {} : { measurement: measurementOf(r) }),
    });
  }
  return { sites, ...total };
}

/** The query and the tree, without HTTP or permission checks (the benchmark's floor uses it too). */
export async function buildLabStatus(em: EntityManager, projectId: string, userId: string, staleAfterHours: number) {
  return labTree(await labRows(em, projectId, userId, staleAfterHours));
}

export async function labStatus(ctx: RequestContext, projectId: string) {
  const project = await requireProjectPermission(ctx, projectId, 'channel:read');
  const hours = (await organizationStaleAfterHours(ctx.em, project.organization_id)) ?? ctx.config.staleAfterHours;
  return buildLabStatus(ctx.em, projectId, ctx.caller.userId, hours);
}
