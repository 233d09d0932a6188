// Queries for cell specifications, cell instances, measurement records and watches.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ICellInstance, ICellSpecification } from '../entities/cells.ts';
import type { ICellMeasurement } from '../entities/measurements.ts';
import type { Row } from '../entities/index.ts';

/** A cell specification as stored. */
export type SpecRow = Row<ICellSpecification>;

/** An instance with the name of its batch (lot). */
export const INSTANCE_SELECT =
  `*, (select b.name from cell_batches b where b.id = cell_instances.batch_id) as ` + `batch_name`;

/** An instance as stored, with the name of its batch (INSTANCE_SELECT). */
export type InstanceRow = Row<ICellInstance> & { batch_name: string | null };

/** A measurement record as stored. */
export type MeasurementRow = Row<ICellMeasurement>;

export interface MeasurementRef {
  id: string;
  organization_id: string;
  project_id: string;
  cell_instance_id: string;
}

export async function findSpec(em: EntityManager, id: string): Promise<SpecRow | null> {
  return (await em.execute<SpecRow[]>(`select * from cell_specifications where id = ?`, [id]))[0] ?? null;
}

export async function findSpecByName(
  em: EntityManager,
  projectId: string,
  name: string,
): Promise<{ id: string } | null> {
  return (
    (
      await em.execute<{ id: string }[]>(`select id from cell_specifications where project_id = ? and name = ?`, [
        projectId,
        name,
      ])
    )[0] ?? null
  );
}

export async function findInstance(em: EntityManager, id: string): Promise<InstanceRow | null> {
  return (
    (await em.execute<InstanceRow[]>(`select ${INSTANCE_SELECT} from cell_instances where id = ?`, [id]))[0] ?? null
  );
}

export async function findInstanceByName(
  em: EntityManager,
  specId: string,
  name: string,
): Promise<{ id: string } | null> {
  return (
    (
      await em.execute<{ id: string }[]>(`select id from cell_instances where cell_specification_id = ? and name = ?`, [
        specId,
        name,
      ])
    )[0] ?? null
  );
}

export async function cellSpecMappings(em: EntityManager, projectId: string) {
  return em.execute(
    `select id as cell_specification_id, project_id, name, created_at from cell_specifications where project_id = ?
      order by name, id`,
    [projectId],
  );
}

/** Every stored column of the measurement, with the emails of its requester and creator. */
export const MEASUREMENT_SELECT = `m.*, ru.email as requested_by_email, cu.email as created_by_email`;
export const MEASUREMENT_FROM =
  `cell_measurements m left join users ru on ru.id = m.requested_by join users cu on ` + `cu.id = m.created_by`;

export async function findMeasurement(em: EntityManager, id: string): Promise<MeasurementRow | null> {
  return (
    (
      await em.execute<MeasurementRow[]>(`select ${MEASUREMENT_SELECT} from ${MEASUREMENT_FROM} where m.id = ?`, [id])
    )[0] ?? null
  );
}

export async function measurementsUnder(
  em: EntityManager,
  under: { specId?: string; instanceId?: string },
): Promise<MeasurementRef[]> {
  const [cond, param] = under.instanceId
    ? ['m.cell_instance_id = ?', under.instanceId]
    : ['m.cell_instance_id in (select id from cell_instances where cell_specification_id = ?)', under.specId];
  return em.execute<MeasurementRef[]>(
    `select m.id, m.organization_id, m.project_id, m.cell_instance_id from cell_measurements m where ${cond}`,
    [param],
  );
}

export async function unindexUnderSpec(em: EntityManager, specId: string): Promise<void> {
  await em.execute(
    `delete from search_documents where (entity_type = 'cell_specification' and entity_id = ?)
        or (entity_type = 'cell_instance' and parent_id = ?)
        or (entity_type = 'cell_measurement' and parent_id in (select id from cell_instances
          where cell_specification_id = ?))`,
    [specId, specId, specId],
  );
}

/** The channel locked for the attach decision, or null. */
export async function lockChannelForAttach(em: EntityManager, channelId: string) {
  return (
    (
      await em.execute<
        {
          id: string;
          organization_id: string;
          project_id: string;
          cycler_id: string;
          out_of_commission: boolean;
          service_event_id: string | null;
        }[]
      >(
        `select id, organization_id, project_id, cycler_id, out_of_commission, service_event_id from channels
          where id = ? for update`,
        [channelId],
      )
    )[0] ?? null
  );
}

/** An unfinished measurement on the channel whose time overlaps [start, end) (open ends unbounded). */
export async function overlappingRunning(
  em: EntityManager,
  channelId: string,
  selfId: string | null,
  start: Date | string | null,
  end: Date | string | null,
): Promise<{ id: string } | null> {
  return (
    (
      await em.execute<{ id: string }[]>(
        `select m.id from cell_measurements m
      where m.channel_id = ? and m.id is distinct from ? and (m.end_time is null or m.end_time > now())
        and tstzrange(coalesce(m.start_time, '-infinity'), coalesce(m.end_time, 'infinity'))
            && tstzrange(coalesce(?::timestamptz, '-infinity'), coalesce(?::timestamptz, 'infinity'))
      limit 1`,
        [channelId, selfId, start, end],
      )
    )[0] ?? null
  );
}

export async function setWatch(em: EntityManager, userId: string, m: MeasurementRef, watched: boolean): Promise<void> {
  if (watched) {
    await em.execute(
      `insert into measurement_watches (user_id, measurement_id, project_id) values (?, ?, ?) on conflict do nothing`,
      [userId, m.id, m.project_id],
    );
  } else {
    await em.execute(`delete from measurement_watches where user_id = ? and measurement_id = ?`, [userId, m.id]);
  }
}

export async function watchedIn(em: EntityManager, userId: string, projectId: string): Promise<string[]> {
  const rows = await em.execute<{ measurement_id: string }[]>(
    `select measurement_id from measurement_watches where user_id = ? and project_id = ?
      order by created_at, measurement_id`,
    [userId, projectId],
  );
  return rows.map((r) => r.measurement_id);
}
