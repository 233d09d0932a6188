// Queries for projects and their members' roles.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IProject } from '../entities/platform.ts';
import { whereSql, type ParsedList } from '../listSql.ts';
import { pipelineWorkflowIds } from '../../workflows/pipelineIds.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';

/** A project as stored (COLUMNS: every column). */
export type ProjectRow = Row<IProject>;

export interface UserProjectRoleView {
  user_id: string;
  project_id: string;
  project_role_id: string;
  created_at: Date;
  updated_at: Date;
  project_roles: {
    id: string;
    name: string;
    created_at: Date;
    updated_at: Date;
    project_role_permissions: { id: string; project_role_id: string; permission: string; created_at: Date }[];
  };
}

const COLUMNS = 'id, organization_id, name, description, created_by, created_at, updated_at';

export async function findProject(em: EntityManager, id: string): Promise<ProjectRow | null> {
  const rows = await em.execute<ProjectRow[]>(`select ${COLUMNS} from projects where id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findProjectByName(
  em: EntityManager,
  organizationId: string,
  name: string,
): Promise<ProjectRow | null> {
  const rows = await em.execute<ProjectRow[]>(
    `select ${COLUMNS} from projects where organization_id = ? and name = ?`,
    [organizationId, name],
  );
  return rows[0] ?? null;
}

export async function insertProject(
  em: EntityManager,
  row: { id: string; organization_id: string; name: string; description: string | null; created_by: string },
): Promise<ProjectRow> {
  const rows = await em.execute<ProjectRow[]>(
    `insert into projects (id, organization_id, name, description, created_by) values (?, ?, ?, ?, ?)
      returning ${COLUMNS}`,
    [row.id, row.organization_id, row.name, row.description, row.created_by],
  );
  return rows[0]!;
}

export async function updateProject(
  em: EntityManager,
  id: string,
  changes: { name?: string; description?: string | null },
): Promise<ProjectRow> {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) continue;
    sets.push(`${k} = ?`);
    params.push(v);
  }
  sets.push('updated_at = now()');
  const rows = await em.execute<ProjectRow[]>(
    `update projects set ${sets.join(', ')} where id = ? returning ${COLUMNS}`,
    [...params, id],
  );
  return rows[0]!;
}

/**
 * The workflows running for a project, parents first: unfinished pipelines, simulation
 * batches with unfinished simulations, then every running job's workflow (elements, simulations).
 */
export async function runningWorkflowIds(em: EntityManager, projectId: string): Promise<string[]> {
  const [pipelines, batches, jobs] = await Promise.all([
    em.execute<{ id: string }[]>(`select id from pipelines where project_id = ? and status in ('pending', 'running')`, [
      projectId,
    ]),
    em.execute<{ batch_id: string }[]>(
      `select distinct s.batch_id from simulations s join jobs j on j.id = s.job_id
        where s.project_id = ? and j.status in ('pending', 'running')`,
      [projectId],
    ),
    em.execute<{ workflow_id: string }[]>(
      `select workflow_id from jobs where project_id = ? and status = 'running' and workflow_id is not null`,
      [projectId],
    ),
  ]);
  return [
    ...pipelines.map((p) => pipelineWorkflowIds.pipeline(p.id)),
    ...batches.map((b) => simulationWorkflowIds.batch(b.batch_id)),
    ...jobs.map((j) => j.workflow_id),
  ];
}

export async function deleteProject(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from projects where id = ?`, [id]);
}

export async function listProjects(
  em: EntityManager,
  scope: { sql: string; params: unknown[] },
  list: ParsedList,
): Promise<{ items: ProjectRow[]; total: number }> {
  const where = whereSql([scope.sql, ...list.where]);
  const params = [...scope.params, ...list.params];
  const [items, totals] = await Promise.all([
    em.execute<ProjectRow[]>(`select ${COLUMNS} from projects ${where} ${list.orderSql} limit ? offset ?`, [
      ...params,
      list.limit,
      list.offset,
    ]),
    em.execute<{ total: string }[]>(`select count(*) as total from projects ${where}`, params),
  ]);
  return { items, total: Number(totals[0]?.total ?? 0) };
}

/** user_project_roles of the given projects, each with its role and the role's permissions nested. */
export async function userProjectRoles(
  em: EntityManager,
  projectIds: string[],
): Promise<Map<string, UserProjectRoleView[]>> {
  const byProject = new Map<string, UserProjectRoleView[]>(projectIds.map((id) => [id, []]));
  if (!projectIds.length) return byProject;
  const rows = await em.execute<UserProjectRoleView[]>(
    `select upr.user_id, upr.project_id, upr.project_role_id, upr.created_at, upr.updated_at,
            json_build_object(
              'id', r.id, 'name', r.name, 'created_at', r.created_at, 'updated_at', r.updated_at,
              'project_role_permissions', (
                select coalesce(json_agg(json_build_object('id', p.id, 'project_role_id', p.project_role_id,
                                 'permission', p.permission, 'created_at', p.created_at)
                                   order by p.permission), '[]'::json)
                  from project_role_permissions p where p.project_role_id = r.id)
            ) as project_roles
       from user_project_roles upr join project_roles r on r.id = upr.project_role_id
      where upr.project_id in (${projectIds.map(() => '?').join(', ')})
      order by upr.created_at, upr.user_id`,
    projectIds,
  );
  for (const row of rows) byProject.get(row.project_id)?.push(row);
  return byProject;
}

/** Locks the project's row: its member changes then run one at a time. */
export async function lockProject(em: EntityManager, projectId: string): Promise<void> {
  await em.execute(`select id from projects where id = ? for update`, [projectId]);
}

export async function setUserProjectRole(
  em: EntityManager,
  projectId: string,
  userId: string,
  roleId: string,
): Promise<void> {
  await em.execute(
    `insert into user_project_roles (user_id, project_id, project_role_id) values (?, ?, ?)
     on conflict (user_id, project_id) do update set project_role_id = excluded.project_role_id, updated_at = now()`,
    [userId, projectId, roleId],
  );
}

/** Adds the member; false when the user already is one (also when a concurrent request added them first). */
export async function addUserProjectRole(
  em: EntityManager,
  projectId: string,
  userId: string,
  roleId: string,
): Promise<boolean> {
  const rows = await em.execute(
    `insert into user_project_roles (user_id, project_id, project_role_id) values (?, ?, ?)
     on conflict (user_id, project_id) do nothing returning user_id`,
    [userId, projectId, roleId],
  );
  return rows.length > 0;
}

export async function findUserProjectRole(
  em: EntityManager,
  projectId: string,
  userId: string,
): Promise<{ project_role_id: string } | null> {
  const rows = await em.execute<{ project_role_id: string }[]>(
    `select project_role_id from user_project_roles where project_id = ? and user_id = ?`,
    [projectId, userId],
  );
  return rows[0] ?? null;
}

export async function removeUserProjectRole(em: EntityManager, projectId: string, userId: string): Promise<void> {
  await em.execute(`delete from user_project_roles where project_id = ? and user_id = ?`, [projectId, userId]);
}

export async function countRoleHolders(em: EntityManager, projectId: string, roleId: string): Promise<number> {
  const rows = await em.execute<{ n: string }[]>(
    `select count(*) as n from user_project_roles where project_id = ? and project_role_id = ?`,
    [projectId, roleId],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function listProjectRoles(em: EntityManager) {
  return em.execute<{ id: string; name: string; description: string; permissions: string[] }[]>(
    `select r.id, r.name, r.description,
            coalesce((select array_agg(p.permission order by p.permission) from project_role_permissions p
              where p.project_role_id = r.id), '{}') as permissions
       from project_roles r order by r.name`,
  );
}

export async function roleExists(em: EntityManager, roleId: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from project_roles where id = ?`, [roleId]);
  return rows.length > 0;
}

export async function isOrganizationMember(
  em: EntityManager,
  organizationId: string,
  userId: string,
): Promise<boolean> {
  const rows = await em.execute(`select 1 from memberships where organization_id = ? and user_id = ?`, [
    organizationId,
    userId,
  ]);
  return rows.length > 0;
}
