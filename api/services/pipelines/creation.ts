// Creating a pipeline or simple pipeline: elements checked, one job per element, written in one
// transaction with the workflow's start.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../context.ts';
import type { RequestBody } from '../../schemas.ts';
import { ValidationFailed } from '../../errors.ts';
import * as repo from '../../../db/repositories/pipelines.ts';
import { requireProjectPermission } from '../access.ts';
import { pipelineWorkflowStart } from '../../../workflows/pipelineStarts.ts';
import { recordStarts, startRecorded } from '../../../db/workflowStarts.ts';
import { pipelineWorkflowIds } from '../../../workflows/pipelineIds.ts';
import { type Json } from './dataChecks.ts';
import { checkElements } from './elementChecks.ts';
import { type PipelineKind, presentPipeline } from './presentation.ts';
import { indexPipeline } from './records.ts';
import { checkRefs } from './references.ts';

/** Either form: /pipelines takes `elements`, /simple_pipelines also the client's `config.elements`. */
export type PipelineCreate = RequestBody<'createPipeline'> | RequestBody<'createSimplePipeline'>;

// The Python client makes the name optional.
const DEFAULT_NAME: Record<PipelineKind, string> = {
  pipeline: 'Pipeline',
  simple: 'Simple pipeline',
  optimization: 'Optimization',
};

/** Elements the caller has checked already (an optimization's design element): passed on as they are. */
export const checkedByCaller: typeof checkElements = (elements) => ({
  issues: [],
  refs: { measurements: [], pipelines: [] },
  elements,
});

export async function createPipeline(
  ctx: RequestContext,
  input: PipelineCreate,
  kind: PipelineKind,
  check: typeof checkElements = checkElements,
) {
  // openapi.yaml lets exactly one of elements and config.elements through.
  const given = ('config' in input && input.config ? input.config.elements : input.elements) as Json;
  const body = { ...input, elements: given, name: input.name ?? DEFAULT_NAME[kind] };
  await requireProjectPermission(ctx, body.project_id, 'pipeline:create');
  const { issues, refs, elements: checked } = check(body.elements, kind);
  if (issues.length) throw new ValidationFailed(issues);
  await checkRefs(ctx, refs);
  const id = randomUUID();
  const elements = Object.entries(checked).map(([name, el]) => {
    const { element_type, ...config } = el as Json;
    return {
      id: randomUUID(),
      name,
      element_type: element_type as string,
      config,
      job_id: randomUUID(),
      workflow_id: pipelineWorkflowIds.element(id, name),
    };
  });
  const row = await ctx.em.transactional(async (em) => {
    const p = await repo.insertPipeline(
      em,
      {
        id,
        organization_id: ctx.caller.organizationId,
        project_id: body.project_id,
        kind,
        name: body.name,
        description: body.description ?? null,
        options: body.options ?? {},
        workflow_id: pipelineWorkflowIds.pipeline(id),
        created_by: ctx.caller.userId,
      },
      elements,
    );
    await indexPipeline(em, p);
    // Its first run: a later run of the same id is the retry's to start.
    return { p, recorded: await recordStarts(em, [pipelineWorkflowStart(ctx.config, p, 'REJECT_DUPLICATE')]) };
  });
  await startRecorded(ctx, row.recorded);
  return presentPipeline(row.p);
}
