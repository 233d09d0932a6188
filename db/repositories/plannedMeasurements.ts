// Planned measurements and what blocks a channel in time: other reservations, running
// measurements, cycler service windows, a channel's own service window.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IPlannedMeasurement } from '../entities/lab.ts';

/** A plan as PLAN_SELECT reads it: its columns (the users as emails) with its channel's and cycler's names. */
export type PlanRow = Omit<Row<IPlannedMeasurement>, 'requested_by' | 'scheduled_by' | 'created_by' | 'status'> & {
  status: PlanStatus;
  channel_name: string | null;
  cycler_id: string | null;
  cycler_name: string | null;
  requested_by_email: string | null;
  scheduled_by_email: string | null;
};

export const PLAN_STATUSES = ['requested', 'scheduled', 'in_progress', 'completed', 'cancelled'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const PLAN_SELECT = `p.id, p.organization_id, p.project_id, p.name, p.status, p.protocol_id,
  p.cell_specification_id, p.cell_instance_id,
  p.channel_id, ch.name as channel_name, ch.cycler_id, cy.name as cycler_name, p.planned_start_time, p.planned_end_time,
  p.estimated_duration_seconds, p.setup_duration_seconds, p.teardown_duration_seconds, p.test_setup, p.notes,
  ru.email as requested_by_email, su.email as scheduled_by_email, p.created_at, p.updated_at`;
export const PLAN_FROM = `planned_measurements p
  left join channels ch on ch.id = p.channel_id left join cyclers cy on cy.id = ch.cycler_id
  left join users ru on ru.id = p.requested_by left join users su on su.id = p.scheduled_by`;

export async function findPlan(
  em: EntityManager,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PlanRow | null> {
  if (opts.forUpdate) await em.execute(`select id from planned_measurements where id = ? for update`, [id]);
  const rows = await em.execute<PlanRow[]>(`select ${PLAN_SELECT} from ${PLAN_FROM} where p.id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findPlanByName(
  em: EntityManager,
  projectId: string,
  name: string,
): Promise<{ id: string } | null> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from planned_measurements where project_id = ? and name = ?`,
    [projectId, name],
  );
  return rows[0] ?? null;
}

export interface ChannelForPlan {
  id: string;
  name: string;
  organization_id: string;
  project_id: string;
  cycler_id: string;
  cycler_name: string;
  out_of_commission: boolean;
  /** The cycler's service event the channel is out for (its window is a block), or null. */
  service_event_id: string | null;
  max_amps: number | null;
  min_volts: number | null;
  max_volts: number | null;
  /** Epoch ms; null when the cycler has no calibration due. */
  calibration_due_at: number | null;
}

const ms = (col: string) => `(extract(epoch from ${col}) * 1000)::float8`;
const CHANNEL_FOR_PLAN = `select ch.id, ch.name, ch.organization_id, ch.project_id, ch.cycler_id,
  cy.name as cycler_name, ch.out_of_commission, ch.service_event_id,
    ch.max_amps, ch.min_volts, ch.max_volts, ${ms('cy.calibration_due_at')} as calibration_due_at
  from channels ch join cyclers cy on cy.id = ch.cycler_id`;

/** The channel with what scheduling needs; `lock` holds it against concurrent schedulers and settings changes. */
export async function channelForPlan(em: EntityManager, id: string, lock = false): Promise<ChannelForPlan | null> {
  const rows = await em.execute<ChannelForPlan[]>(
    `${CHANNEL_FOR_PLAN} where ch.id = ?${lock ? ' for update of ch' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export interface Block {
  channel_id: string;
  kind: 'planned_measurement' | 'cell_measurement' | 'cycler_service_event' | 'channel_service';
  id: string;
  name: string;
  /** Epoch ms; -Infinity/Infinity are open ends. */
  start_ms: number;
  end_ms: number;
}

/**
 * Everything that holds a channel in time, from now on: reservations of other plans; running
 * measurements from their start to their end, else their estimated end (never before now), else
 * for good; open cycler service events (until their scheduled end while open, else for good);
 * the channel's own service window.
 */
function blocksSql(channelWhere: string): string {
  return `with t(at) as (select ?::timestamptz)
  select b.channel_id, b.kind, b.id, b.name, ${ms('b.s')} as start_ms, ${ms('b.e')} as end_ms from (
    select p.channel_id, 'planned_measurement' as kind, p.id, p.name, p.planned_start_time as s, p.planned_end_time as e
      from planned_measurements p join channels ch on ch.id = p.channel_id
     where ${channelWhere} and p.status in ('scheduled', 'in_progress') and p.id is distinct from ?
    union all
    select m.channel_id, 'cell_measurement', m.id, m.name, coalesce(m.start_time, '-infinity'),
           case when m.end_time is not null then m.end_time
                when m.estimated_end_time is not null then greatest(m.estimated_end_time, (select at from t))
                  else 'infinity' end
      from cell_measurements m join channels ch on ch.id = m.channel_id
     where ${channelWhere} and (m.end_time is null or m.end_time > (select at from t))
    union all
    select ch.id, 'cycler_service_event', e.id, e.event_type, least(e.started_at, e.scheduled_for),
           case when e.scheduled_until is null then 'infinity' else greatest(e.scheduled_until, (select at from t)) end
      from cycler_service_events e join channels ch on ch.cycler_id = e.cycler_id
     where ${channelWhere} and e.status = 'open'
    union all
    select ch.id, 'channel_service', ch.id, ch.name, ch.service_scheduled_at, coalesce(ch.service_scheduled_until,
      'infinity')
      from channels ch where ${channelWhere} and ch.service_scheduled_at is not null
  ) b where b.e > b.s and b.e > (select at from t)`;
}

// float8 Infinity arrives as Infinity; a driver that sends it as text is read the same way.
const toBlock = (b: Block): Block => ({ ...b, start_ms: Number(b.start_ms), end_ms: Number(b.end_ms) });

/** The first thing on the channel overlapping [start, end), other than the plan itself. */
export async function firstCollision(
  em: EntityManager,
  channelId: string,
  start: Date,
  end: Date,
  selfId: string | null,
): Promise<Block | null> {
  const rows = await em.execute<Block[]>(
    `${blocksSql('ch.id = ?')} and tstzrange(b.s, b.e, '[)') && tstzrange(?, ?, '[)') order by b.s, b.id limit 1`,
    [new Date(), channelId, selfId, channelId, channelId, channelId, start, end],
  );
  return rows[0] ? toBlock(rows[0]) : null;
}

/**
 * Every block on the project's channels (or those of some of its cyclers) from `asOf` on, ordered by channel and
 * start.
 */
export async function projectBlocks(
  em: EntityManager,
  projectId: string,
  asOf = new Date(),
  cyclerIds?: string[],
): Promise<Block[]> {
  const scope = cyclerIds ? [projectId, `{${cyclerIds.join(',')}}`] : [projectId];
  const rows = await em.execute<Block[]>(
    `${blocksSql(cyclerIds ? 'ch.project_id = ? and ch.cycler_id = any(?::uuid[])' : 'ch.project_id = ?')} order by ` +
      `b.channel_id, b.s, b.id`,
    [asOf, ...scope, null, ...scope, ...scope, ...scope],
  );
  return rows.map(toBlock);
}

/** A cell specification's ratings (quantity map) with its project and organization. */
export async function specForPlan(em: EntityManager, id: string) {
  const rows = await em.execute<
    { id: string; organization_id: string; project_id: string; ratings: Record<string, unknown> | null }[]
  >(`select id, organization_id, project_id, ratings from cell_specifications where id = ?`, [id]);
  return rows[0] ?? null;
}

/** A channel as the auto-schedule's placement sees it (ratings, calibration, names for the answer). */
export type PlacementChannel = Pick<
  ChannelForPlan,
  | 'id'
  | 'name'
  | 'cycler_name'
  | 'out_of_commission'
  | 'service_event_id'
  | 'max_amps'
  | 'min_volts'
  | 'max_volts'
  | 'calibration_due_at'
>;
/** A span of time a channel is held (epoch ms; open ends infinite). */
export type Span = Pick<Block, 'channel_id' | 'start_ms' | 'end_ms'>;

/**
 * What the auto-schedule places plans on, two statements side by side: the project's channels in the
 * scheduler's tie-break order (site, cycler, channel name) with only the columns placement and its
 * answer use, and the spans of every block on them from `asOf` on, in order of start (no kinds,
 * ids or names). Fewer columns through the driver cost less than the same rows as one JSON text
 * built by PostgreSQL (bench/lab-reads.ts).
 */
export async function placementLab(
  em: EntityManager,
  projectId: string,
  asOf = new Date(),
): Promise<{ channels: PlacementChannel[]; spans: Span[] }> {
  const [channels, spans] = await Promise.all([
    em.execute<PlacementChannel[]>(
      `select ch.id, ch.name, cy.name as cycler_name, ch.out_of_commission, ch.service_event_id,
              ch.max_amps, ch.min_volts, ch.max_volts, ${ms('cy.calibration_due_at')} as calibration_due_at
         from channels ch join cyclers cy on cy.id = ch.cycler_id join sites s on s.id = cy.site_id
        where ch.project_id = ? order by s.name, cy.name, ch.name, ch.id`,
      [projectId],
    ),
    em.execute<Span[]>(
      `select b.channel_id, b.start_ms, b.end_ms from (${blocksSql('ch.project_id = ?')}) b order by b.start_ms`,
      [asOf, projectId, null, projectId, projectId, projectId],
    ),
  ]);
  // float8 Infinity arrives as Infinity; a driver that sends it as text is read the same way.
  for (const b of spans) {
    b.start_ms = Number(b.start_ms);
    b.end_ms = Number(b.end_ms);
  }
  return { channels, spans };
}
