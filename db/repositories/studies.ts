// Queries for studies and their links to simulations and measurements.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IStudy } from '../entities/measurements.ts';
import { whereSql, type ParsedList } from '../listSql.ts';

/** A study as stored, with how many simulations and measurements it links (STUDY_SELECT). */
export type StudyRow = Row<IStudy> & { simulation_count: number; measurement_count: number };

const STUDY_SELECT = `select st.id, st.organization_id, st.project_id, st.name, st.description, st.created_by,
  st.created_at, st.updated_at,
  (select count(*)::int from study_simulations x where x.study_id = st.id) as simulation_count,
  (select count(*)::int from study_measurements x where x.study_id = st.id) as measurement_count
  from studies st`;

export async function findStudy(em: EntityManager, id: string): Promise<StudyRow | null> {
  const rows = await em.execute<StudyRow[]>(`${STUDY_SELECT} where st.id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findStudyByName(
  em: EntityManager,
  projectId: string,
  name: string,
): Promise<{ id: string } | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from studies where project_id = ? and name = ?`, [
    projectId,
    name,
  ]);
  return rows[0] ?? null;
}

export async function insertStudy(
  em: EntityManager,
  row: {
    id: string;
    organization_id: string;
    project_id: string;
    name: string;
    description: string | null;
    created_by: string;
  },
): Promise<StudyRow> {
  await em.execute(
    `insert into studies (id, organization_id, project_id, name, description, created_by) values (?, ?, ?, ?, ?, ?)`,
    [row.id, row.organization_id, row.project_id, row.name, row.description, row.created_by],
  );
  return (await findStudy(em, row.id))!;
}

export async function updateStudy(
  em: EntityManager,
  id: string,
  changes: { name?: string; description?: string | null },
): Promise<StudyRow> {
  const sets = Object.entries(changes).filter(([, v]) => v !== undefined);
  await em.execute(
    `update studies set ${[...sets.map(([k]) => `${k} = ?`), 'updated_at = now()'].join(', ')} where id = ?`,
    [...sets.map(([, v]) => v), id],
  );
  return (await findStudy(em, id))!;
}

export async function deleteStudy(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from studies where id = ?`, [id]);
}

export async function listStudies(
  em: EntityManager,
  projectId: string,
  list: ParsedList,
): Promise<{ items: StudyRow[]; total: number }> {
  const where = whereSql(['st.project_id = ?', ...list.where]);
  const params = [projectId, ...list.params];
  const [items, totals] = await Promise.all([
    em.execute<StudyRow[]>(`${STUDY_SELECT} ${where} ${list.orderSql} limit ? offset ?`, [
      ...params,
      list.limit,
      list.offset,
    ]),
    em.execute<{ total: string }[]>(`select count(*) as total from studies st ${where}`, params),
  ]);
  return { items, total: Number(totals[0]?.total ?? 0) };
}

export async function studyLinks(
  em: EntityManager,
  id: string,
): Promise<{ simulation_ids: string[]; measurement_ids: string[] }> {
  const [row] = await em.execute<{ simulation_ids: string[]; measurement_ids: string[] }[]>(
    `select coalesce((select array_agg(simulation_id order by created_at, simulation_id) from study_simulations
      where study_id = ?), '{}') as simulation_ids,
            coalesce((select array_agg(measurement_id order by created_at, measurement_id) from study_measurements
              where study_id = ?), '{}') as measurement_ids`,
    [id, id],
  );
  return row!;
}

export type LinkKind = 'simulations' | 'measurements';
const LINK_TABLE = {
  simulations: ['study_simulations', 'simulation_id'],
  measurements: ['study_measurements', 'measurement_id'],
} as const;

/** Project and organization of the thing to link, or null when it does not exist. */
export async function findLinkTarget(
  em: EntityManager,
  kind: LinkKind,
  id: string,
): Promise<{ project_id: string | null; organization_id: string } | null> {
  const table = kind === 'simulations' ? 'simulations' : 'cell_measurements';
  const rows = await em.execute<{ project_id: string | null; organization_id: string }[]>(
    `select project_id, organization_id from ${table} where id = ?`,
    [id],
  );
  return rows[0] ?? null;
}

export async function link(em: EntityManager, kind: LinkKind, studyId: string, targetId: string): Promise<void> {
  const [table, column] = LINK_TABLE[kind];
  await em.execute(`insert into ${table} (study_id, ${column}) values (?, ?) on conflict do nothing`, [
    studyId,
    targetId,
  ]);
}

export async function unlink(em: EntityManager, kind: LinkKind, studyId: string, targetId: string): Promise<void> {
  const [table, column] = LINK_TABLE[kind];
  await em.execute(`delete from ${table} where study_id = ? and ${column} = ?`, [studyId, targetId]);
}
