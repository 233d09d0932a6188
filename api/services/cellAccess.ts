// A cell specification or instance as the caller may use it: found, of their organization, and
// with the project permission asked (404, 403 otherwise).
import type { RequestContext } from '../context.ts';
import { notFound } from '../errors.ts';
import * as repo from '../../db/repositories/cells.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';

export async function requireSpec(ctx: RequestContext, specId: string, permission: string): Promise<repo.SpecRow> {
  const spec = await repo.findSpec(ctx.em, specId);
  if (!spec) throw notFound('cell specification', specId);
  assertSameOrganization(ctx.caller, spec.organization_id, 'cell specification');
  await requireProjectPermission(ctx, spec.project_id, permission);
  return spec;
}

export async function requireInstance(
  ctx: RequestContext,
  instanceId: string,
  permission: string,
): Promise<repo.InstanceRow> {
  const instance = await repo.findInstance(ctx.em, instanceId);
  if (!instance) throw notFound('cell instance', instanceId);
  assertSameOrganization(ctx.caller, instance.organization_id, 'cell instance');
  await requireProjectPermission(ctx, instance.project_id, permission);
  return instance;
}
