// Rules for projects and their members.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import { PROJECT_ADMIN_ROLE_ID } from '../../db/roles.ts';
import * as inventory from '../../db/repositories/inventory.ts';
import * as repo from '../../db/repositories/projects.ts';
import { cellSpecMappings } from '../../db/repositories/cells.ts';
import { orConflict } from '../../db/repositories/sqlRows.ts';
import { readableProjectsSql, requireProjectPermission } from './access.ts';
import { indexEntity, unindexProject } from './searchIndex.ts';
import { purgeStart } from './storedObjects.ts';
import { projectPrefix } from '../../storage/projectKeys.ts';
import { recordStarts, startRecorded } from '../../db/workflowStarts.ts';
import { workflowIds } from '../../worker/taskQueues.ts';

const PROJECT_LIST = namedRecordList({ description: { kind: 'text' }, created_by: { kind: 'id' } });

async function withRoles(ctx: RequestContext, project: repo.ProjectRow) {
  const roles = await repo.userProjectRoles(ctx.em, [project.id]);
  return { ...project, user_project_roles: roles.get(project.id) ?? [] };
}

function indexProject(ctx: RequestContext, p: repo.ProjectRow) {
  return indexEntity(ctx.em, {
    entity_type: 'project',
    entity_id: p.id,
    organization_id: p.organization_id,
    project_id: p.id,
    name: p.name,
    body: p.description,
  });
}

async function assertNameFree(ctx: RequestContext, name: string, selfId?: string) {
  const clash = await repo.findProjectByName(ctx.em, ctx.caller.organizationId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a project named "${name}" already exists`, { existing_id: clash.id });
}

export async function createProject(ctx: RequestContext, body: RequestBody<'createProject'>) {
  await assertNameFree(ctx, body.name);
  // A concurrent create of the same name (a client's retry) loses at the unique key: the same 409.
  const project = await orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        const tx = { ...ctx, em };
        const row = await repo.insertProject(em, {
          id: randomUUID(),
          organization_id: ctx.caller.organizationId,
          name: body.name,
          description: body.description ?? null,
          created_by: ctx.caller.userId,
        });
        await repo.setUserProjectRole(em, row.id, ctx.caller.userId, PROJECT_ADMIN_ROLE_ID);
        await indexProject(tx, row);
        return row;
      }),
    () => assertNameFree(ctx, body.name),
  );
  return { ...(await withRoles(ctx, project)), cell_spec_project_mappings: await cellSpecMappings(ctx.em, project.id) };
}

export async function getProject(ctx: RequestContext, projectId: string) {
  await requireProjectPermission(ctx, projectId, 'project:read');
  const project = (await repo.findProject(ctx.em, projectId))!;
  return { ...(await withRoles(ctx, project)), cell_spec_project_mappings: await cellSpecMappings(ctx.em, projectId) };
}

export async function updateProject(ctx: RequestContext, projectId: string, body: RequestBody<'updateProject'>) {
  await requireProjectPermission(ctx, projectId, 'project:update');
  const name = body.name;
  if (name !== undefined) await assertNameFree(ctx, name, projectId);
  const project = await orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        const row = await repo.updateProject(em, projectId, { name, description: body.description });
        await indexProject({ ...ctx, em }, row);
        return row;
      }),
    async () => {
      if (name !== undefined) await assertNameFree(ctx, name, projectId);
    },
  );
  return withRoles(ctx, project);
}

export async function deleteProject(ctx: RequestContext, projectId: string) {
  await requireProjectPermission(ctx, projectId, 'project:delete');
  // Running pipelines and simulations, and stored files, go in the background, durably: both
  // workflows are recorded with the delete, and their ids make a retried request start each once.
  const recorded = await ctx.em.transactional(async (em) => {
    // As for its sites, cyclers and channels: the record of a test running on its equipment stays.
    await repo.lockProject(em, projectId);
    await inventory.lockEquipment(em, { projectId });
    const measurement = await inventory.runningMeasurement(em, { projectId });
    if (measurement) {
      throw conflict('a measurement is running on a channel of this project; set its end_time or detach it first', {
        measurement_id: measurement.id,
        channel_id: measurement.channel_id,
      });
    }
    const running = await repo.runningWorkflowIds(em, projectId);
    await unindexProject(em, projectId);
    await repo.deleteProject(em, projectId);
    return recordStarts(em, [
      {
        workflowType: 'stopProjectWork',
        taskQueue: ctx.config.taskQueue,
        workflowId: workflowIds.stopProjectWork(projectId),
        args: [{ projectId, workflowIds: running }],
        reusePolicy: 'ALLOW_DUPLICATE',
      },
      purgeStart(ctx.config, projectPrefix(ctx.caller.organizationId, projectId)),
    ]);
  });
  await startRecorded(ctx, recorded);
  return { id: projectId, deleted: true };
}

export async function listProjects(ctx: RequestContext, query: Record<string, unknown>) {
  const list = parseList(query, PROJECT_LIST);
  const { items, total } = await repo.listProjects(ctx.em, readableProjectsSql(ctx.caller, 'id'), list);
  const roles = await repo.userProjectRoles(
    ctx.em,
    items.map((p) => p.id),
  );
  return { items: items.map((p) => ({ ...p, user_project_roles: roles.get(p.id) ?? [] })), count: items.length, total };
}

async function checkMemberInput(
  ctx: RequestContext,
  userId: string,
  roleId: string | undefined,
  userLoc: (string | number)[] = ['body', 'user_id'],
) {
  if (!(await repo.isOrganizationMember(ctx.em, ctx.caller.organizationId, userId))) {
    throw invalid(userLoc, 'is not a member of this organization', 'value_error', userId);
  }
  if (roleId !== undefined && !(await repo.roleExists(ctx.em, roleId))) {
    throw invalid(['body', 'project_role_id'], 'is not a project role (see GET /roles/project)', 'value_error', roleId);
  }
}

/** A project always keeps at least one Project Admin. */
async function assertNotLastAdmin(ctx: RequestContext, projectId: string, userId: string) {
  const current = await repo.findUserProjectRole(ctx.em, projectId, userId);
  if (
    current?.project_role_id === PROJECT_ADMIN_ROLE_ID &&
    (await repo.countRoleHolders(ctx.em, projectId, PROJECT_ADMIN_ROLE_ID)) <= 1
  ) {
    throw conflict('the project must keep at least one Project Admin', { user_id: userId });
  }
}

export async function addMember(ctx: RequestContext, projectId: string, body: RequestBody<'addProjectMember'>) {
  await requireProjectPermission(ctx, projectId, 'member:create');
  await checkMemberInput(ctx, body.user_id, body.project_role_id);
  // The insert decides, not a read before it: of two concurrent adds, one is 201 and one 409.
  if (!(await repo.addUserProjectRole(ctx.em, projectId, body.user_id, body.project_role_id))) {
    const existing = await repo.findUserProjectRole(ctx.em, projectId, body.user_id);
    throw conflict('the user is already a member of the project', {
      existing_id: body.user_id,
      project_role_id: existing?.project_role_id,
    });
  }
  return (await repo.userProjectRoles(ctx.em, [projectId])).get(projectId)!.find((r) => r.user_id === body.user_id)!;
}

export async function changeMember(
  ctx: RequestContext,
  projectId: string,
  userId: string,
  body: RequestBody<'changeProjectMember'>,
) {
  await requireProjectPermission(ctx, projectId, 'member:update');
  if (!(await repo.findUserProjectRole(ctx.em, projectId, userId))) throw invalidMember(userId);
  await checkMemberInput(ctx, userId, body.project_role_id, ['path', 'user_id']);
  // Checked and written under the project's lock: two admins demoting each other at once
  // would otherwise both see the other and leave none.
  await ctx.em.transactional(async (em) => {
    await repo.lockProject(em, projectId);
    if (body.project_role_id !== PROJECT_ADMIN_ROLE_ID) await assertNotLastAdmin({ ...ctx, em }, projectId, userId);
    await repo.setUserProjectRole(em, projectId, userId, body.project_role_id);
  });
  return (await repo.userProjectRoles(ctx.em, [projectId])).get(projectId)!.find((r) => r.user_id === userId)!;
}

export async function removeMember(ctx: RequestContext, projectId: string, userId: string) {
  await requireProjectPermission(ctx, projectId, 'member:delete');
  if (!(await repo.findUserProjectRole(ctx.em, projectId, userId))) throw invalidMember(userId);
  await ctx.em.transactional(async (em) => {
    await repo.lockProject(em, projectId);
    await assertNotLastAdmin({ ...ctx, em }, projectId, userId);
    await repo.removeUserProjectRole(em, projectId, userId);
  });
  return { project_id: projectId, user_id: userId, deleted: true };
}

function invalidMember(userId: string) {
  return notFound('project member', userId);
}

export function listRoles(ctx: RequestContext) {
  return repo.listProjectRoles(ctx.em);
}
