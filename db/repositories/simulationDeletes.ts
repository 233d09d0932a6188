// Deleting one simulation: what its delete must stop and which stored results only it names.
// Identical submissions reuse a stored result (the same folder or pack), so a result is only
// purged once no simulation names it any more.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ResultPack } from './simulations.ts';

export interface SimulationToDelete {
  id: string;
  organization_id: string;
  project_id: string | null;
  batch_id: string;
  job_id: string;
  job_status: string;
  workflow_id: string | null;
  storage_folder: string | null;
  result_pack: ResultPack | null;
  /** Jobs of its batch other than its own that have not ended. */
  open_siblings: number;
}

/** The simulation with its job locked (a chunk recording it meanwhile waits); null when gone. */
export async function lockSimulation(em: EntityManager, id: string): Promise<SimulationToDelete | null> {
  const [row] = await em.execute<(Omit<SimulationToDelete, 'open_siblings'> & { open_siblings: string })[]>(
    `select s.id, s.organization_id, s.project_id, s.batch_id, s.job_id, j.status as job_status, j.workflow_id,
            s.storage_folder, s.result_pack,
            (select count(*) from simulations o join jobs oj on oj.id = o.job_id
              where o.batch_id = s.batch_id and o.id <> s.id and oj.status in ('pending', 'running')) as open_siblings
       from simulations s join jobs j on j.id = s.job_id
      where s.id = ? for update of s, j`,
    [id],
  );
  return row ? { ...row, open_siblings: Number(row.open_siblings) } : null;
}

/** Deletes the simulation with its job (the job is its own; study links go with it). */
export async function deleteSimulationRow(em: EntityManager, sim: SimulationToDelete): Promise<void> {
  await em.execute(`delete from simulations where id = ?`, [sim.id]);
  await em.execute(`delete from jobs where id = ?`, [sim.job_id]);
}

/** Whether another simulation still names this pack (a reuse of the result, or a point of the same chunk). */
export async function packStillNamed(em: EntityManager, key: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from simulations where result_pack ->> 'key' = ? limit 1`, [key]);
  return rows.length > 0;
}

/** Whether another simulation still reads this folder (a reuse of the result). */
export async function folderStillNamed(em: EntityManager, folder: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from simulations where storage_folder = ? limit 1`, [folder]);
  return rows.length > 0;
}
