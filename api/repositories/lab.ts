// The lab status query: every cycler and channel of a project with the measurement running
// on each channel, in one statement.
import type { EntityManager } from '@mikro-orm/postgresql';

export interface LabRow {
  site_id: string;
  site_name: string;
  cycler_id: string;
  cycler_name: string;
  manufacturer: string | null;
  model: string | null;
  serial_number: string | null;
  last_calibrated_at: Date | null;
  calibration_interval_days: number | null;
  calibration_due_at: Date | null;
  channel_id: string | null;
  channel_name: string | null;
  notes: string | null;
  out_of_commission: boolean | null;
  max_amps: number | null;
  min_volts: number | null;
  max_volts: number | null;
  m_id: string | null;
  m_name: string | null;
  m_updated_at: Date | null;
  data_updated_at: Date | null;
  cell_instance_id: string | null;
  start_time: Date | null;
  estimated_end_time: Date | null;
  protocol: string | null;
  program_name: string | null;
  cell_instance_name: string | null;
  cell_specification_name: string | null;
  requested_by_email: string | null;
  watched: boolean;
  /** Data arrived within the staleness window. */
  fresh: boolean | null;
}

/**
 * One row per channel (or per cycler without channels), ordered site, cycler, channel.
 * The running measurement of a channel is its latest-started one without an end_time or with
 * an end_time still ahead.
 */
export async function labRows(em: EntityManager, projectId: string, userId: string, staleAfterHours: number): Promise<LabRow[]> {
  return em.execute<LabRow[]>(
    `with running as (
       select distinct on (m.channel_id) m.channel_id, m.id, m.name, m.updated_at, m.data_updated_at, m.cell_instance_id, m.start_time,
              m.estimated_end_time, m.protocol, m.program_name, m.requested_by, coalesce(m.data_updated_at, m.updated_at) as seen_at
         from cell_measurements m
        where m.project_id = ? and m.channel_id is not null and (m.end_time is null or m.end_time > now())
        order by m.channel_id, m.start_time desc nulls last, m.id)
     select c.site_id, s.name as site_name, c.id as cycler_id, c.name as cycler_name, c.manufacturer, c.model, c.serial_number,
            c.last_calibrated_at, c.calibration_interval_days, c.calibration_due_at,
            ch.id as channel_id, ch.name as channel_name, ch.notes, ch.out_of_commission, ch.max_amps, ch.min_volts, ch.max_volts,
            r.id as m_id, r.name as m_name, r.updated_at as m_updated_at, r.data_updated_at, r.cell_instance_id, r.start_time,
            r.estimated_end_time, r.protocol, r.program_name, ci.name as cell_instance_name, cs.name as cell_specification_name,
            u.email as requested_by_email, (w.user_id is not null) as watched,
            (r.seen_at >= now() - make_interval(hours => ?)) as fresh
       from cyclers c
       join sites s on s.id = c.site_id
       left join channels ch on ch.cycler_id = c.id
       left join running r on r.channel_id = ch.id
       left join cell_instances ci on ci.id = r.cell_instance_id
       left join cell_specifications cs on cs.id = ci.cell_specification_id
       left join users u on u.id = r.requested_by
       left join measurement_watches w on w.measurement_id = r.id and w.user_id = ?
      where c.project_id = ?
      order by s.name, s.id, c.name, c.id, ch.name, ch.id`,
    [projectId, staleAfterHours, userId, projectId],
  );
}

/** The organization's staleness window, or null to use the service default. */
export async function organizationStaleAfterHours(em: EntityManager, organizationId: string): Promise<number | null> {
  const rows = await em.execute<{ stale_after_hours: number | null }[]>(`select stale_after_hours from organizations where id = ?`, [organizationId]);
  return rows[0]?.stale_after_hours ?? null;
}
