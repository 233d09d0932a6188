// The rules every plan write shares: what a body may reference, which status may follow which,
// names unique in a project, and a plan reached only through its own project.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { AppError, conflict, invalid, notFound } from '../errors.ts';
import type { Schema } from '../schemas.ts';
import * as repo from '../../db/repositories/plannedMeasurements.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';

export type PlanCreate = Schema<'PlannedMeasurementCreate'>;
export type PlanUpdate = Schema<'PlannedMeasurementUpdate'>;

export const WINDOW_FIELDS = ['channel_id', 'planned_start_time', 'planned_end_time'] as const;

/** Which status may follow which; anything else is 409 with the current status. */
export const NEXT: Record<repo.PlanStatus, readonly repo.PlanStatus[]> = {
  requested: ['requested', 'scheduled', 'cancelled'],
  scheduled: ['scheduled', 'requested', 'in_progress', 'cancelled'],
  in_progress: ['in_progress', 'completed', 'cancelled'],
  completed: ['completed'],
  cancelled: ['cancelled'],
};

/** The referenced record must exist (404), be of the caller's organization (403) and of this project (400). */
async function requireInProject(
  em: EntityManager,
  ctx: RequestContext,
  table: string,
  what: string,
  field: string,
  id: string,
  projectId: string,
) {
  const rows = await em.execute<{ organization_id: string; project_id: string }[]>(
    `select organization_id, project_id from ${table} where id = ?`,
    [id],
  );
  if (!rows[0]) throw notFound(what, id);
  assertSameOrganization(ctx.caller, rows[0].organization_id, what);
  if (rows[0].project_id !== projectId) {
    throw new AppError('BAD_REQUEST', `the ${what} ${id} belongs to another project`, {
      field,
      project_id: rows[0].project_id,
    });
  }
}

export async function checkReferences(
  ctx: RequestContext,
  projectId: string,
  body: PlanCreate | PlanUpdate,
  specId: string | null,
) {
  if (body.protocol_id)
    await requireInProject(ctx.em, ctx, 'experiment_templates', 'protocol', 'protocol_id', body.protocol_id, projectId);
  if (body.cell_specification_id) {
    await requireInProject(
      ctx.em,
      ctx,
      'cell_specifications',
      'cell specification',
      'cell_specification_id',
      body.cell_specification_id,
      projectId,
    );
  }
  if (body.cell_instance_id) {
    const rows = await ctx.em.execute<{ cell_specification_id: string; organization_id: string }[]>(
      `select cell_specification_id, organization_id from cell_instances where id = ?`,
      [body.cell_instance_id],
    );
    if (!rows[0]) throw notFound('cell instance', body.cell_instance_id);
    assertSameOrganization(ctx.caller, rows[0].organization_id, 'cell instance');
    if (rows[0].cell_specification_id !== specId) {
      throw invalid(
        ['body', 'cell_instance_id'],
        `is not a cell of the cell specification ${specId}`,
        'value_error',
        body.cell_instance_id,
      );
    }
  }
}

export async function assertNameFree(ctx: RequestContext, projectId: string, name: string, selfId?: string) {
  const clash = await repo.findPlanByName(ctx.em, projectId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a planned measurement named "${name}" already exists in this project`, { existing_id: clash.id });
}

/** The plan of this project (404 otherwise, also for another project's plan), with `permission`. */
export async function requirePlan(ctx: RequestContext, projectId: string, planId: string, permission: string) {
  await requireProjectPermission(ctx, projectId, permission);
  const plan = await repo.findPlan(ctx.em, planId);
  if (!plan || plan.project_id !== projectId) throw notFound('planned measurement', planId);
  return plan;
}
