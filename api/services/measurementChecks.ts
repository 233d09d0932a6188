// What a measurement's fields may name: times in order, a protocol (experiment template), a
// planned measurement of its project, a requester of its organization.
import type { RequestContext } from '../context.ts';
import { invalid } from '../errors.ts';
import { holdsInProject } from './access.ts';

export function checkTimes(start: unknown, end: unknown) {
  if (start != null && end != null && new Date(String(start)) > new Date(String(end))) {
    throw invalid(['body', 'end_time'], 'must not be before start_time', 'value_error', end);
  }
}

export const NO_SUCH_PROTOCOL = 'no such experiment template (protocol) in this organization';

/** protocol_id names an experiment template of the caller's organization. */
export async function protocolTemplateExists(ctx: RequestContext, templateId: string): Promise<boolean> {
  const rows = await ctx.em.execute<{ project_id: string }[]>(
    `select project_id from experiment_templates where id = ? and organization_id = ?`,
    [templateId, ctx.caller.organizationId],
  );
  // One the caller cannot read (experiment_template:read in its project) is not revealed either.
  return rows.length > 0 && holdsInProject(ctx, rows[0]!.project_id, 'experiment_template:read');
}

export async function checkProtocol(ctx: RequestContext, templateId: unknown) {
  if (templateId == null) return;
  if (!(await protocolTemplateExists(ctx, templateId as string)))
    throw invalid(['body', 'protocol_id'], NO_SUCH_PROTOCOL, 'value_error', templateId);
}

/** planned_measurement_id names a plan of the measurement's project (the run it is). */
export async function checkPlan(ctx: RequestContext, planId: unknown, projectId: string) {
  if (planId == null) return;
  const rows = await ctx.em.execute(`select 1 from planned_measurements where id = ? and project_id = ?`, [
    planId,
    projectId,
  ]);
  if (!rows.length)
    throw invalid(
      ['body', 'planned_measurement_id'],
      "is not a planned measurement of the measurement's project",
      'value_error',
      planId,
    );
}

export async function checkRequester(ctx: RequestContext, userId: unknown) {
  if (userId == null) return;
  const rows = await ctx.em.execute(`select 1 from memberships where organization_id = ? and user_id = ?`, [
    ctx.caller.organizationId,
    userId,
  ]);
  if (!rows.length)
    throw invalid(['body', 'requested_by'], 'is not a member of this organization', 'value_error', userId);
}
