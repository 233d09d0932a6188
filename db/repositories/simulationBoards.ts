// Queries for the simulation boards of studies.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { ISimulationBoard } from '../entities/simulations.ts';
import type { ParsedList } from '../listSql.ts';
import { insertRow, page, updateRow } from './sqlRows.ts';

/** A board as stored (COLUMNS: every column), its JSON columns typed. */
export type BoardRow = Omit<Row<ISimulationBoard>, 'simulation_ids' | 'plots'> & {
  simulation_ids: string[];
  plots: unknown[];
};

const COLUMNS =
  'id, organization_id, project_id, study_id, name, description, simulation_ids, plots, created_by, created_at, ' +
  'updated_at';

export async function findBoard(em: EntityManager, id: string): Promise<BoardRow | null> {
  const rows = await em.execute<BoardRow[]>(`select ${COLUMNS} from simulation_boards where id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findBoardByName(
  em: EntityManager,
  studyId: string,
  name: string,
): Promise<{ id: string } | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from simulation_boards where study_id = ? and name = ?`, [
    studyId,
    name,
  ]);
  return rows[0] ?? null;
}

export function insertBoard(em: EntityManager, row: Omit<BoardRow, 'created_at' | 'updated_at'>): Promise<BoardRow> {
  return insertRow<BoardRow>(em, 'simulation_boards', { ...row }, COLUMNS);
}

export async function updateBoard(
  em: EntityManager,
  id: string,
  changes: Partial<Pick<BoardRow, 'name' | 'description' | 'simulation_ids' | 'plots'>>,
): Promise<BoardRow> {
  await updateRow(em, 'simulation_boards', id, changes);
  return (await findBoard(em, id))!;
}

export async function deleteBoard(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from simulation_boards where id = ?`, [id]);
}

export function listBoards(em: EntityManager, studyId: string, list: ParsedList) {
  return page<BoardRow>(em, {
    select: COLUMNS,
    from: 'simulation_boards',
    scope: [{ sql: 'study_id = ?', params: [studyId] }],
    list,
  });
}

/** Which of `ids` are simulations linked to the study. */
export async function studySimulations(em: EntityManager, studyId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await em.execute<{ simulation_id: string }[]>(
    `select simulation_id from study_simulations where study_id = ?
      and simulation_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
    [studyId, JSON.stringify(ids)],
  );
  return new Set(rows.map((r) => r.simulation_id));
}
