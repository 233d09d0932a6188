// A pipeline as the caller may use it: found, of their organization, with the permission asked.
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import * as repo from '../../../db/repositories/pipelines.ts';
import { assertSameOrganization, requireProjectPermission } from '../access.ts';
import type { PipelineKind } from './presentation.ts';

/** The pipeline, checked for the caller's organization and permission (and its kind under /simple_pipelines). */
export async function loadPipeline(
  ctx: RequestContext,
  id: string,
  permission: string,
  kind?: PipelineKind,
): Promise<repo.PipelineRow> {
  const p = await repo.findPipeline(ctx.em, id);
  if (!p || (kind && p.kind !== kind)) throw notFound(kind === 'simple' ? 'simple pipeline' : (kind ?? 'pipeline'), id);
  assertSameOrganization(ctx.caller, p.organization_id, 'pipeline');
  await requireProjectPermission(ctx, p.project_id, permission);
  return p;
}
