// The lab status queries: the project's cyclers with their sites, and every channel with the
// measurement running on it. Timestamps come back as epoch milliseconds (float8), which the
// driver reads far faster than timestamptz for tens of thousands of rows.
import type { EntityManager } from '@mikro-orm/postgresql';

const ms = (col: string) => `(extract(epoch from ${col}) * 1000)::float8`;

export interface LabCyclerRow {
  site_id: string;
  site_name: string;
  id: string;
  name: string;
  manufacturer: string | null;
  model: string | null;
  serial_number: string | null;
  last_calibrated_at: number | null;
  calibration_interval_days: number | null;
  calibration_due_at: number | null;
}

export interface LabChannelRow {
  cycler_id: string;
  id: string;
  name: string;
  notes: string | null;
  out_of_commission: boolean;
  /** Out for its cycler's service event (free again after its window), not for a fault of its own. */
  out_for_service: boolean;
  max_amps: number | null;
  min_volts: number | null;
  max_volts: number | null;
  service_scheduled_at: number | null;
  service_scheduled_until: number | null;
  m_id: string | null;
  m_name: string | null;
  m_updated_at: number | null;
  data_updated_at: number | null;
  cell_instance_id: string | null;
  start_time: number | null;
  estimated_end_time: number | null;
  /** The protocol text, else the name of its experiment template (protocol_id). */
  protocol: string | null;
  program_name: string | null;
  cell_instance_name: string | null;
  cell_specification_name: string | null;
  requested_by_email: string | null;
  watched: boolean;
  /** Some running measurement's data (or, without data, its record) was updated within the staleness window. */
  fresh: boolean | null;
}

/** A page of the project's cyclers in the tree's order; without one, all of them. */
export interface CyclerPage {
  offset: number;
  limit: number;
}

/** A uuid[] parameter (the driver would spread a JS array into a list); ids come from the database. */
export const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** The project's cyclers (or a page of them), ordered by site name, site, cycler name, cycler. */
export function labCyclers(em: EntityManager, projectId: string, page?: CyclerPage): Promise<LabCyclerRow[]> {
  return em.execute<LabCyclerRow[]>(
    `select c.site_id, s.name as site_name, c.id, c.name, c.manufacturer, c.model, c.serial_number,
            ${ms('c.last_calibrated_at')} as last_calibrated_at, c.calibration_interval_days,
              ${ms('c.calibration_due_at')} as calibration_due_at
       from cyclers c join sites s on s.id = c.site_id
      where c.project_id = ?
      order by s.name, s.id, c.name, c.id${page ? ' limit ? offset ?' : ''}`,
    page ? [projectId, page.limit, page.offset] : [projectId],
  );
}

export interface LabCountRow {
  cycler_id: string;
  occupied: number;
  stale: number;
  free: number;
  out_of_commission: number;
}

/**
 * Each cycler's channel counts by state, without the channels: the same states as labChannels
 * (out of commission first; a running measurement, fresh or not; else free) from one aggregate.
 */
export function labCounts(
  em: EntityManager,
  projectId: string,
  staleAfterHours: number,
  asOf: Date,
): Promise<LabCountRow[]> {
  return em.execute<LabCountRow[]>(
    `with t(at) as (select ?::timestamptz), running as (
       select m.channel_id, bool_or(coalesce(m.data_updated_at,
         m.updated_at) >= t.at - make_interval(hours => ?)) as fresh
         from cell_measurements m, t
        where m.project_id = ? and m.channel_id is not null and (m.end_time is null or m.end_time > t.at)
        group by m.channel_id)
     select ch.cycler_id,
            (count(*) filter (where not ch.out_of_commission and r.fresh))::int as occupied,
            (count(*) filter (where not ch.out_of_commission and not r.fresh))::int as stale,
            (count(*) filter (where not ch.out_of_commission and r.channel_id is null))::int as free,
            (count(*) filter (where ch.out_of_commission))::int as out_of_commission
       from channels ch left join running r on r.channel_id = ch.id
      where ch.project_id = ?
      group by ch.cycler_id`,
    [asOf, staleAfterHours, projectId, projectId],
  );
}

const MEASUREMENT_COLUMNS = `m.name, m.updated_at, m.data_updated_at, m.cell_instance_id, m.start_time,
         m.estimated_end_time, m.protocol, m.protocol_id, m.program_name, m.requested_by`;

/**
 * `t` (the clock) and `running`: per channel, the measurement it shows among those running on it
 * (no end_time, or an end_time still ahead): one that has started (no start_time, or one not in the
 * future) before a run booked for later, then a fresh one, then the latest start; `any_fresh` is
 * over all of them. Shared by the full and the grid views, so both derive the same state.
 * Parameters: the clock, the staleness hours, the project (then the page's cycler ids, if any).
 */
function runningCte(columns: string | null, onPage: string) {
  return `with t(at) as (select ?::timestamptz), running as (
       select distinct on (m.channel_id) m.channel_id, m.id,${columns ? ` ${columns},` : ''}
                bool_or(m.is_fresh) over w as any_fresh
         from (select m.*, coalesce(m.data_updated_at, m.updated_at) >= t.at - make_interval(hours => ?) as is_fresh,
                      (m.start_time is null or m.start_time <= t.at) as started
                 from cell_measurements m, t
                where m.project_id = ? and m.channel_id is not null and (m.end_time is null
                  or m.end_time > t.at)${onPage}) m
       window w as (partition by m.channel_id
         order by m.started desc, m.is_fresh desc, m.start_time desc nulls last, m.id
                    rows between unbounded preceding and unbounded following)
        order by m.channel_id, m.started desc, m.is_fresh desc, m.start_time desc nulls last, m.id)`;
}

/**
 * Every channel of the project, unordered (the caller orders each cycler's few channels; one
 * sort of all the wide rows would spill to disk), with the measurement it shows (runningCte).
 * `fresh` is over all of them: one fresh run makes the channel occupied. The window and
 * DISTINCT ON share one ordering, so the measurements are sorted once.
 */
export function labChannels(
  em: EntityManager,
  projectId: string,
  userId: string,
  staleAfterHours: number,
  asOf: Date,
  cyclerIds?: string[],
): Promise<LabChannelRow[]> {
  // A page of cyclers reads only their channels' measurements.
  const onPage = cyclerIds ? ' and m.channel_id in (select id from channels where cycler_id = any(?::uuid[]))' : '';
  const page = cyclerIds ? [uuidArray(cyclerIds)] : [];
  return em.execute<LabChannelRow[]>(
    `${runningCte(MEASUREMENT_COLUMNS, onPage)}
     select ch.cycler_id, ch.id, ch.name, ch.notes, ch.out_of_commission,
       (ch.service_event_id is not null) as out_for_service, ch.max_amps, ch.min_volts, ch.max_volts,
            ${ms('ch.service_scheduled_at')} as service_scheduled_at,
              ${ms('ch.service_scheduled_until')} as service_scheduled_until,
            r.id as m_id, r.name as m_name, ${ms('r.updated_at')} as m_updated_at,
              ${ms('r.data_updated_at')} as data_updated_at,
            r.cell_instance_id, ${ms('r.start_time')} as start_time,
              ${ms('r.estimated_end_time')} as estimated_end_time,
            coalesce(r.protocol->>'name', case when jsonb_typeof(r.protocol) = 'string'
              then r.protocol #>> '{}' end, et.name) as protocol, r.program_name, ci.name as cell_instance_name,
                cs.name as cell_specification_name,
            u.email as requested_by_email, (w.user_id is not null) as watched, r.any_fresh as fresh
       from channels ch
       left join running r on r.channel_id = ch.id
       left join experiment_templates et on et.id = r.protocol_id
       left join cell_instances ci on ci.id = r.cell_instance_id
       left join cell_specifications cs on cs.id = ci.cell_specification_id
       left join users u on u.id = r.requested_by
       left join measurement_watches w on w.measurement_id = r.id and w.user_id = ?
      where ch.project_id = ?${cyclerIds ? ' and ch.cycler_id = any(?::uuid[])' : ''}`,
    [asOf, staleAfterHours, projectId, ...page, userId, projectId, ...page],
  );
}

/** What the board's grid draws of a channel: the full view's row without the measurement's details. */
export type LabGridRow = Pick<
  LabChannelRow,
  | 'cycler_id'
  | 'id'
  | 'name'
  | 'out_of_commission'
  | 'out_for_service'
  | 'max_amps'
  | 'min_volts'
  | 'max_volts'
  | 'service_scheduled_at'
  | 'service_scheduled_until'
  | 'm_id'
  | 'watched'
  | 'fresh'
> & {
  /** Epoch ms of the start of the channel's next reservation (one under way included), null when none. */
  next_reservation_start: number | null;
};

/**
 * Every channel of the project for the grid view: labChannels' running measurement, without its details' joins,
 * and the start of its next reservation. That start is the full view's (projectBlocks, then `forward`): the
 * earliest start among the scheduled or in-progress plans on the channel whose window is not empty and ends
 * after the clock; other blocks (runs, service windows) never are a reservation. It is computed here over the
 * active plans (planned_measurements_active_idx) instead of shipping every block to JS. Plans are found through
 * the project's channels, not their own project_id, as projectBlocks does (a channel moves with its cycler).
 */
export function labGridChannels(
  em: EntityManager,
  projectId: string,
  userId: string,
  staleAfterHours: number,
  asOf: Date,
): Promise<LabGridRow[]> {
  return em.execute<LabGridRow[]>(
    `${runningCte(null, '')}, next as (
       select p.channel_id, min(p.planned_start_time) as start_time
         from planned_measurements p join channels c on c.id = p.channel_id
        where c.project_id = ? and p.status in ('scheduled', 'in_progress')
          and p.planned_end_time > p.planned_start_time and p.planned_end_time > ?::timestamptz
        group by p.channel_id)
     select ch.cycler_id, ch.id, ch.name, ch.out_of_commission, (ch.service_event_id is not null) as out_for_service,
            ch.max_amps, ch.min_volts, ch.max_volts,
            ${ms('ch.service_scheduled_at')} as service_scheduled_at,
              ${ms('ch.service_scheduled_until')} as service_scheduled_until,
            r.id as m_id, (w.user_id is not null) as watched, r.any_fresh as fresh,
            ${ms('n.start_time')} as next_reservation_start
       from channels ch
       left join running r on r.channel_id = ch.id
       left join measurement_watches w on w.measurement_id = r.id and w.user_id = ?
       left join next n on n.channel_id = ch.id
      where ch.project_id = ?`,
    // The clock again rather than from `t`: a CTE read twice is materialized, and the running CTE's
    // estimates then lose the constant.
    [asOf, staleAfterHours, projectId, projectId, asOf, userId, projectId],
  );
}

export interface LabServiceRow {
  cycler_id: string;
  id: string;
  event_type: string;
  status: 'open';
  started_at: number;
  scheduled_for: number | null;
  scheduled_until: number | null;
}

/** Open cycler service events with their booked span, in time order. */
export function labServiceEvents(em: EntityManager, projectId: string, cyclerIds?: string[]): Promise<LabServiceRow[]> {
  return em.execute<LabServiceRow[]>(
    `select e.cycler_id, e.id, e.event_type, e.status, ${ms('e.started_at')} as started_at,
      ${ms('e.scheduled_for')} as scheduled_for,
            ${ms('e.scheduled_until')} as scheduled_until
       from cycler_service_events e join cyclers c on c.id = e.cycler_id
      where c.project_id = ? and e.status = 'open'${cyclerIds ? ' and c.id = any(?::uuid[])' : ''}
      order by coalesce(e.scheduled_for, e.started_at), e.id`,
    cyclerIds ? [projectId, uuidArray(cyclerIds)] : [projectId],
  );
}

export interface LabHead {
  organization_id: string;
  stale_after_hours: number | null;
  /** The project's version of what the lab status shows (0 before any change is counted). */
  version: string;
  /** The user holds `permission` in the project. */
  allowed: boolean;
}

/**
 * All a conditional request needs, in one statement: the project, its organization's window, its lab version, the
 * permission.
 */
export async function labHead(
  em: EntityManager,
  projectId: string,
  userId: string,
  permission: string,
): Promise<LabHead | null> {
  const rows = await em.execute<LabHead[]>(
    `select p.organization_id, o.stale_after_hours, coalesce(v.version, 0) as version,
            exists (select 1 from user_project_roles r
              join project_role_permissions rp on rp.project_role_id = r.project_role_id
                     where r.user_id = ? and r.project_id = p.id and rp.permission = ?) as allowed
       from projects p join organizations o on o.id = p.organization_id left join lab_versions v on v.project_id = p.id
      where p.id = ?`,
    [userId, permission, projectId],
  );
  return rows[0] ?? null;
}
