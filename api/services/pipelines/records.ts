// Reading, renaming, listing and deleting pipelines, and their elements, results and diagnostics.
import { WorkflowNotFoundError } from '@temporalio/client';
import type { RequestContext } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Schema } from '../../schemas.ts';
import { parseList } from '../../listQuery.ts';
import * as repo from '../../../db/repositories/pipelines.ts';
import { assertSameOrganization, readableProjectsSql, requireProjectPermission } from '../access.ts';
import { indexEntity, unindexEntity } from '../searchIndex.ts';
import { recordStarts, startRecorded } from '../../../db/workflowStarts.ts';
import { purgeStart } from '../storedObjects.ts';
import { pipelinePrefix } from '../../../storage/projectKeys.ts';
import { isTemporalUnavailable } from '../../../stack/temporalClient.ts';
import { logger } from '../../../stack/logger.ts';
import { clientResult } from '../clientElements.ts';
import { RENAME_SIGNAL } from '../../../workflows/pipelineIds.ts';
import { WORK_STATUSES, isTerminal } from '../../../workflows/statuses.ts';
import { cancelPipelines } from './cancellation.ts';
import { loadPipeline } from './pipelineAccess.ts';
import { type PipelineKind, presentElement, presentPipeline } from './presentation.ts';

/** The search documents' entity type: optimizations are found as such. */
const entityType = (kind: PipelineKind) => (kind === 'optimization' ? 'optimization' : 'pipeline');

export function indexPipeline(em: RequestContext['em'], p: repo.PipelineRow) {
  return indexEntity(em, {
    entity_type: entityType(p.kind),
    entity_id: p.id,
    organization_id: p.organization_id,
    project_id: p.project_id,
    name: p.name,
    body: p.description,
  });
}

export async function getPipeline(ctx: RequestContext, id: string, kind?: PipelineKind) {
  return presentPipeline(await loadPipeline(ctx, id, 'pipeline:read', kind));
}

export async function listElements(ctx: RequestContext, id: string) {
  await loadPipeline(ctx, id, 'pipeline:read');
  return (await repo.listElements(ctx.em, id)).map(presentElement);
}

export async function getResult(ctx: RequestContext, id: string) {
  const p = await loadPipeline(ctx, id, 'pipeline:read');
  const elements = await repo.listElements(ctx.em, id);
  // No pipeline_id: the Python client adds its own (a second one is a TypeError there), and
  // result is an object even before the pipeline completes (the client requires one).
  return {
    status: p.status,
    result: p.result ?? {},
    element_results: Object.fromEntries(
      elements
        .filter((e) => e.status === 'completed')
        .map((e) => [e.name, clientResult(e.element_type, e.name, e.config, e.result ?? {})]),
    ),
  };
}

export async function updatePipeline(
  ctx: RequestContext,
  id: string,
  body: Schema<'PipelineUpdate'>,
  kind?: PipelineKind,
) {
  await loadPipeline(ctx, id, 'pipeline:update', kind);
  const row = await ctx.em.transactional(async (em) => {
    const p = await repo.updatePipeline(em, id, body);
    await indexPipeline(em, p);
    return p;
  });
  // The workflow's memo names the pipeline in the Web UI; a repeated PATCH sends it again.
  if (body.name !== undefined && !isTerminal(row.status)) {
    await ctx.temporal.workflow
      .getHandle(row.workflow_id)
      .signal(RENAME_SIGNAL, row.name)
      .catch((err: unknown) => {
        // The workflow has just ended: its memo stays as it was. Temporal is down: the rename is
        // stored all the same, and the Web UI shows the old name until the next PATCH.
        if (isTemporalUnavailable(err))
          logger.warn(
            { pipeline_id: row.id },
            'pipeline renamed; its workflow memo was not updated (Temporal unavailable)',
          );
        else if (!(err instanceof WorkflowNotFoundError)) throw err;
      });
  }
  return presentPipeline(row);
}

export async function deletePipeline(ctx: RequestContext, id: string, kind?: PipelineKind) {
  const p = await loadPipeline(ctx, id, 'pipeline:delete', kind);
  // Running work is stopped first, the same way a cancellation does it.
  if (!isTerminal(p.status)) await cancelPipelines(ctx, [id]);
  const recorded = await ctx.em.transactional(async (em) => {
    await unindexEntity(em, entityType(p.kind), id);
    await repo.deletePipeline(em, id);
    // Its fits' and validations' series go with it.
    return recordStarts(em, [purgeStart(ctx.config, pipelinePrefix(p.organization_id, p.project_id, id))]);
  });
  await startRecorded(ctx, recorded);
  return { id, deleted: true };
}

const LIST_COLUMNS = {
  project_id: { kind: 'id' },
  name: { kind: 'text' },
  description: { kind: 'text' },
  status: { kind: 'enum', values: WORK_STATUSES },
  created_by: { kind: 'id' },
  created_by_email: { kind: 'text', sql: '(select u.email from users u where u.id = created_by)' },
  // The Python client's pipeline lookup by id.
  id: { kind: 'id' },
  created_at: { kind: 'date' },
  updated_at: { kind: 'date' },
  finished_at: { kind: 'date' },
} as const;
const SORTABLE = ['name', 'status', 'created_at', 'updated_at', 'finished_at'];

function scopeOf(ctx: RequestContext, kind: PipelineKind) {
  return [
    readableProjectsSql(ctx.caller, 'project_id'),
    { sql: 'kind = ?', params: [kind] },
    { sql: 'organization_id = ?', params: [ctx.caller.organizationId] },
  ];
}

/** GET /pipelines: `limit`/`skip`, answered as {pipelines, total}. */
export async function listPipelines(ctx: RequestContext, query: Record<string, unknown>) {
  const { skip, offset: _o, ...rest } = query;
  const list = parseList(
    { ...rest, ...(skip !== undefined ? { offset: skip } : {}) },
    {
      columns: LIST_COLUMNS,
      sortable: SORTABLE,
      defaultOrderBy: 'created_at',
      defaultOrder: 'desc',
      defaultLimit: 50,
      maxLimit: 1000,
    },
  );
  const { items, total } = await repo.listPipelines(ctx.em, scopeOf(ctx, 'pipeline'), list);
  return { pipelines: items.map(presentPipeline), total };
}

/** GET /simple_pipelines: a page, newest first, 10 by default. */
export async function listSimplePipelines(ctx: RequestContext, query: Record<string, unknown>) {
  const list = parseList(query, {
    columns: LIST_COLUMNS,
    sortable: SORTABLE,
    defaultOrderBy: 'created_at',
    defaultOrder: 'desc',
    defaultLimit: 10,
    maxLimit: 100,
  });
  const { items, count, total } = await repo.listPipelines(ctx.em, scopeOf(ctx, 'simple'), list);
  return { items: items.map(presentPipeline), count, total };
}

export async function getDiagnostic(ctx: RequestContext, id: string) {
  const d = await repo.findDiagnostic(ctx.em, id);
  if (!d) throw notFound('diagnostic event', id);
  assertSameOrganization(ctx.caller, d.organization_id, 'diagnostic event');
  if (!d.project_id) throw new AppError('FORBIDDEN', 'diagnostic events outside a project are for operators');
  await requireProjectPermission(ctx, d.project_id, 'diagnostic:read');
  return d;
}
