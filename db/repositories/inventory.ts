// Queries for sites, cyclers, channels, their service events and incidents.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IChannel, ICycler, ISite } from '../entities/lab.ts';

/** A site as stored, with its creator's email and the ids of its cyclers the caller may read (siteSelect). */
export type SiteRow = Row<ISite> & { created_by_email: string; cycler_ids: string[] };

/** A cycler's columns (CYCLER_COLUMNS: all but its search vector). */
export type CyclerRow = Omit<Row<ICycler>, 'tsv'>;

/** A channel as CHANNEL_SELECT reads it: its columns but service_event_id, with its creator's email. */
export type ChannelRow = Omit<Row<IChannel>, 'service_event_id' | 'max_amps' | 'min_volts' | 'max_volts'> & {
  // float8 arrives as a number
  max_amps: number | null;
  min_volts: number | null;
  max_volts: number | null;
  created_by_email: string;
};

/** Site columns; cycler_ids needs the caller's readable-projects condition on `c.project_id`. */
export const siteSelect = (
  readableCyclers: string,
) => `s.id, s.organization_id, s.name, s.location, s.notes, s.created_by,
  u.email as created_by_email, s.created_at, s.updated_at,
  array(select c.id from cyclers c where c.site_id = s.id and ${readableCyclers} order by c.name, c.id) as cycler_ids`;
export const SITE_FROM = 'sites s join users u on u.id = s.created_by';

export const CYCLER_COLUMNS = `c.id, c.organization_id, c.site_id, c.project_id, c.name, c.manufacturer, c.model,
  c.version,
  c.serial_number, c.firmware_version, c.hostname, c.ip_address, c.port, c.last_calibrated_at,
    c.calibration_interval_days,
  c.calibration_due_at, c.notes, c.created_by, c.created_at, c.updated_at`;

export const CHANNEL_SELECT = `ch.id, ch.organization_id, ch.project_id, ch.cycler_id, ch.name, ch.notes, ch.max_amps,
  ch.min_volts,
  ch.max_volts, ch.out_of_commission, ch.service_scheduled_at, ch.service_scheduled_until, ch.created_by,
    u.email as created_by_email, ch.created_at, ch.updated_at`;
export const CHANNEL_FROM = 'channels ch join users u on u.id = ch.created_by';

export async function findSite(
  em: EntityManager,
  id: string,
  readable: { sql: string; params: unknown[] },
): Promise<SiteRow | null> {
  const rows = await em.execute<SiteRow[]>(`select ${siteSelect(readable.sql)} from ${SITE_FROM} where s.id = ?`, [
    ...readable.params,
    id,
  ]);
  return rows[0] ?? null;
}

export async function siteOrganization(
  em: EntityManager,
  id: string,
): Promise<{ id: string; organization_id: string } | null> {
  const rows = await em.execute<{ id: string; organization_id: string }[]>(
    `select id, organization_id from sites where id = ?`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findSiteByName(
  em: EntityManager,
  organizationId: string,
  name: string,
): Promise<{ id: string } | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from sites where organization_id = ? and name = ?`, [
    organizationId,
    name,
  ]);
  return rows[0] ?? null;
}

export async function findCycler(em: EntityManager, id: string): Promise<CyclerRow | null> {
  const rows = await em.execute<CyclerRow[]>(`select ${CYCLER_COLUMNS} from cyclers c where c.id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findCyclerByName(
  em: EntityManager,
  siteId: string,
  name: string,
): Promise<{ id: string } | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from cyclers where site_id = ? and name = ?`, [
    siteId,
    name,
  ]);
  return rows[0] ?? null;
}

export async function findChannel(em: EntityManager, id: string): Promise<ChannelRow | null> {
  const rows = await em.execute<ChannelRow[]>(`select ${CHANNEL_SELECT} from ${CHANNEL_FROM} where ch.id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findChannelByName(
  em: EntityManager,
  cyclerId: string,
  name: string,
): Promise<{ id: string } | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from channels where cycler_id = ? and name = ?`, [
    cyclerId,
    name,
  ]);
  return rows[0] ?? null;
}

/** A measurement is running while it has no end_time or its end_time is still ahead. */
export const RUNNING = '(m.end_time is null or m.end_time > now())';

/** The first measurement running on a channel of the given site, cycler or channel, if any. */
export async function runningMeasurement(
  em: EntityManager,
  scope: { siteId?: string; cyclerId?: string; channelId?: string; projectId?: string },
): Promise<{ id: string; channel_id: string } | null> {
  const [cond, param] = scope.channelId
    ? ['ch.id = ?', scope.channelId]
    : scope.cyclerId
      ? ['ch.cycler_id = ?', scope.cyclerId]
      : scope.projectId
        ? ['ch.cycler_id in (select id from cyclers where project_id = ?)', scope.projectId]
        : ['ch.cycler_id in (select id from cyclers where site_id = ?)', scope.siteId];
  const rows = await em.execute<{ id: string; channel_id: string }[]>(
    `select m.id, m.channel_id from channels ch join cell_measurements m on m.channel_id = ch.id
      where ${cond} and ${RUNNING} limit 1`,
    [param],
  );
  return rows[0] ?? null;
}

/** Whether the user holds `permission` in at least one project of the organization. */
/** Projects owning cyclers of a site. */
export async function siteProjects(em: EntityManager, siteId: string): Promise<string[]> {
  const rows = await em.execute<{ project_id: string }[]>(`select distinct project_id from cyclers where site_id = ?`, [
    siteId,
  ]);
  return rows.map((r) => r.project_id);
}

/** Removes the search documents of a site's cyclers and channels (the rows go by cascade). */
export async function unindexSiteEquipment(em: EntityManager, siteId: string): Promise<void> {
  await em.execute(
    `delete from search_documents where (entity_type = 'cycler' and entity_id in (select id from cyclers
      where site_id = ?))
        or (entity_type = 'channel' and entity_id in (select ch.id from channels ch
          join cyclers c on c.id = ch.cycler_id where c.site_id = ?))`,
    [siteId, siteId],
  );
}

export async function unindexCyclerChannels(em: EntityManager, cyclerId: string): Promise<void> {
  await em.execute(
    `delete from search_documents where entity_type = 'channel' and entity_id in (select id from channels
      where cycler_id = ?)`,
    [cyclerId],
  );
}

/**
 * A cycler moved to another project takes along its channels, their incidents and its service
 * events (each carries project_id and would otherwise go with the old project when it is deleted).
 */
export async function moveCyclerChannels(em: EntityManager, cyclerId: string, projectId: string): Promise<void> {
  await em.execute(`update channels set project_id = ?, updated_at = now() where cycler_id = ?`, [projectId, cyclerId]);
  await em.execute(
    `update channel_incidents set project_id = ? where channel_id in (select id from channels where cycler_id = ?)`,
    [projectId, cyclerId],
  );
  await em.execute(`update cycler_service_events set project_id = ? where cycler_id = ?`, [projectId, cyclerId]);
  await em.execute(`update search_documents set project_id = ? where entity_type = 'channel' and parent_id = ?`, [
    projectId,
    cyclerId,
  ]);
}

/*
 * Attaching a measurement locks only its channel (cells.ts lockChannelForAttach). Deleting or
 * moving equipment therefore locks every channel concerned before it checks for a running
 * measurement, so that an attach either commits first (and the check sees it) or waits and
 * then finds the channel gone or moved. Order: site, then its cyclers, then channels, each by
 * id, so that site and cycler deletes running together cannot deadlock.
 */

/** Locks the cycler's channels (after the cycler itself). */
export async function lockCyclerChannels(em: EntityManager, cyclerId: string): Promise<void> {
  await em.execute(`select id from channels where cycler_id = ? order by id for update`, [cyclerId]);
}

/**
 * Locks the cyclers of a site or a project, then their channels (after the site or project
 * itself): no measurement starts on one meanwhile.
 */
export async function lockEquipment(
  em: EntityManager,
  scope: { siteId: string } | { projectId: string },
): Promise<void> {
  const [column, id] = 'siteId' in scope ? ['site_id', scope.siteId] : ['project_id', scope.projectId];
  await em.execute(`select id from cyclers where ${column} = ? order by id for update`, [id]);
  await em.execute(
    `select id from channels where cycler_id in (select id from cyclers where ${column} = ?) order by id for update`,
    [id],
  );
}

/** The cycler's owner, locked against a concurrent move or delete (for share), or null when it is gone. */
export async function shareCycler(
  em: EntityManager,
  id: string,
): Promise<{ organization_id: string; project_id: string } | null> {
  const rows = await em.execute<{ organization_id: string; project_id: string }[]>(
    `select organization_id, project_id from cyclers where id = ? for share`,
    [id],
  );
  return rows[0] ?? null;
}

export async function lockChannel(em: EntityManager, id: string): Promise<void> {
  await em.execute(`select id from channels where id = ? for update`, [id]);
}

export async function lockCycler(em: EntityManager, id: string): Promise<void> {
  await em.execute(`select id from cyclers where id = ? for update`, [id]);
}

type OpenServiceEvent = Record<string, unknown> & { id: string; event_type: string; started_at: Date | string };

export async function openServiceEvent(em: EntityManager, cyclerId: string): Promise<OpenServiceEvent | null> {
  const rows = await em.execute<OpenServiceEvent[]>(
    `select * from cycler_service_events where cycler_id = ? and status = 'open'`,
    [cyclerId],
  );
  return rows[0] ?? null;
}

/** A service event's category on the channel outages it opens. */
const INCIDENT_OF_EVENT: Record<string, string> = { calibration: 'calibration', other: 'other' };

/**
 * Takes every in-service channel of the cycler out of commission for the event, each with an
 * outage naming it; channels already out keep their own (more specific) outage.
 */
export async function takeCyclerChannelsOut(
  em: EntityManager,
  event: {
    id: string;
    cycler_id: string;
    event_type: string;
    notes: string | null;
    scheduled_for: string | null;
    scheduled_until: string | null;
    created_by: string;
  },
): Promise<void> {
  await em.execute(
    `with taken as (update channels set out_of_commission = true, service_event_id = ?, updated_at = now()
                     where cycler_id = ? and not out_of_commission returning id, organization_id, project_id)
     insert into channel_incidents (id, organization_id, project_id, channel_id, out_of_commission, incident_category,
       description,
                                    service_scheduled_at, service_scheduled_until, service_event_id, created_by)
     select gen_random_uuid(), organization_id, project_id, id, true, ?, ?, ?, ?, ?, ? from taken`,
    [
      event.id,
      event.cycler_id,
      INCIDENT_OF_EVENT[event.event_type] ?? 'maintenance',
      event.notes,
      event.scheduled_for,
      event.scheduled_until,
      event.id,
      event.created_by,
    ],
  );
}

/** Returns the channels out for the event; those out for their own faults stay out. */
export async function bringCyclerChannelsBack(
  em: EntityManager,
  eventId: string,
  notes: string | null,
  userId: string,
): Promise<void> {
  await em.execute(
    `with back as (update channels set out_of_commission = false, service_event_id = null, updated_at = now()
                    where service_event_id = ? returning id, organization_id, project_id)
     insert into channel_incidents (id, organization_id, project_id, channel_id, out_of_commission, incident_category,
       description, service_event_id, created_by)
     select gen_random_uuid(), b.organization_id, b.project_id, b.id, false, e.incident_category, ?, ?, ? from back b
       cross join lateral (select incident_category from channel_incidents where channel_id = b.id
         and service_event_id = ? and out_of_commission
                            order by created_at desc limit 1) e`,
    [eventId, notes, eventId, userId, eventId],
  );
}
