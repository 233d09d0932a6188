// Optimizations: a parameter fit or a design optimization run as a durable workflow on the pipeline
// engine (a pipeline of kind 'optimization' with one element: a data fit "fit", or a
// design_optimization "design", designOptimizations.ts), answered in the shapes the Python
// client's OptimizationClient reads.
import type { RequestContext } from '../context.ts';
import type { RequestBody, Schema } from '../schemas.ts';
import { ValidationFailed, invalid } from '../errors.ts';
import { isPlainObject } from '../values.ts';
import { parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/pipelines.ts';
import { readableProjectsSql, requireProjectPermission } from './access.ts';
import { designElement } from './designOptimizations.ts';
import { clientResult } from './clientElements.ts';
import { resolveModel } from './simulations/models.ts';
import { cancelPipelines } from './pipelines/cancellation.ts';
import { checkedByCaller, createPipeline, type PipelineCreate } from './pipelines/creation.ts';
import { loadPipeline } from './pipelines/pipelineAccess.ts';
import { presentPipeline } from './pipelines/presentation.ts';
import { updatePipeline } from './pipelines/records.ts';
import { isTerminal, OPTIMIZATION_STATUSES } from '../../workflows/statuses.ts';

type Json = Record<string, unknown>;

const ELEMENT = 'fit';
const STATUS: Record<string, string> = OPTIMIZATION_STATUSES;

function present(p: repo.PipelineRow, el: repo.ElementRow | undefined) {
  const {
    status,
    options: _o,
    result: _r,
    workflow_id: _w,
    is_terminal: _t,
    is_failed: _f,
    ...rest
  } = presentPipeline(p);
  const config = (el?.config ?? {}) as Json;
  const done = el?.status === 'completed' && el.result ? (el.result as Json) : null;
  // The trace is read from the job's metadata (client.job.get_parameter_trace), not carried here.
  const { intermediate_results: _trace, ...fit } = done ?? {};
  return {
    ...rest,
    job_id: el?.job_id,
    status: STATUS[status] ?? status,
    config,
    parameterized_model_id: (p.options as Json).parameterized_model_id ?? null,
    parameter_names: Object.keys((config.parameters as Json | undefined) ?? {}),
    parameter_values: done ? (fit.parameter_values ?? null) : null,
    metrics: done
      ? {
          cost: fit.cost ?? null,
          cost_name: fit.cost_name ?? null,
          summary_stats: fit.summary_stats ?? null,
          iterations: fit.iterations ?? null,
          evaluations: fit.evaluations ?? null,
          converged: fit.converged ?? null,
          n_points: fit.n_points ?? null,
          ...(el?.element_type === 'design_optimization'
            ? {
                objective_value: fit.objective_value ?? null,
                metric: fit.metric ?? null,
                aim: fit.aim ?? null,
                simulation: fit.metrics ?? null,
                failed_evaluations: fit.failed_evaluations ?? null,
              }
            : {}),
        }
      : null,
    result: done ? clientResult(el!.element_type, el!.name, config, fit) : null,
  };
}

async function load(ctx: RequestContext, id: string, permission: string) {
  const p = await loadPipeline(ctx, id, permission, 'optimization');
  const [el] = await repo.listElements(ctx.em, p.id);
  return { p, el };
}

/** A refusal about the element names the client's field: body.config rather than body.elements.fit. */
function underConfig(err: unknown): never {
  if (!(err instanceof ValidationFailed)) throw err;
  throw new ValidationFailed(
    err.issues.map((i) => {
      if (i.loc[0] !== 'body' || i.loc[1] !== 'elements') return i;
      const rest = i.loc[2] === ELEMENT ? i.loc.slice(3) : i.loc.slice(2);
      return { ...i, loc: ['body', 'config', ...rest] };
    }),
  );
}

/**
 * The fit's model from a stored parameterized model (its model with its parameter values): set as
 * each client objective's options.model, or as an engine fit's model. Giving a model as well is a 422.
 */
async function withParameterizedModel(ctx: RequestContext, body: RequestBody<'createOptimization'>, config: Json) {
  const id = body.parameterized_model_id;
  if (id === undefined || id === null) return config;
  const loc = ['body', 'parameterized_model_id'];
  const { spec, projectId } = await resolveModel(ctx, id, loc);
  if (projectId !== body.project_id)
    throw invalid(loc, 'is a parameterized model of another project', 'value_error', id);
  const both = 'give either a model or parameterized_model_id, not both';
  if (!isPlainObject(config.objectives)) {
    if (config.model !== undefined) throw invalid(['body', 'config', 'model'], both);
    return { ...config, model: spec };
  }
  const objectives: Json = {};
  for (const [name, obj] of Object.entries(config.objectives)) {
    const options = isPlainObject(obj) && isPlainObject(obj.options) ? obj.options : {};
    if (options.model !== undefined) throw invalid(['body', 'config', 'objectives', name, 'options', 'model'], both);
    objectives[name] = isPlainObject(obj) ? { ...obj, options: { ...options, model: spec } } : obj;
  }
  return { ...config, objectives };
}

/** A design optimization: its config checked against its model, stored as one element named design. */
async function createDesignOptimization(ctx: RequestContext, body: RequestBody<'createOptimization'>) {
  // Checked before the model is described: no worker call for a caller who may not create.
  await requireProjectPermission(ctx, body.project_id, 'pipeline:create');
  const config = body.config as unknown as Schema<'DesignOptimizationConfig'>;
  const element = await designElement(ctx, config, body.project_id, body.parameterized_model_id);
  const input = {
    project_id: body.project_id,
    name: body.name,
    description: body.description,
    options: body.parameterized_model_id ? { parameterized_model_id: body.parameterized_model_id } : {},
    elements: { design: element },
  } as unknown as PipelineCreate;
  const created = await createPipeline(ctx, input, 'optimization', checkedByCaller);
  return getOptimization(ctx, created.id);
}

export async function createOptimization(ctx: RequestContext, body: RequestBody<'createOptimization'>) {
  if ((body.config as Json).type === 'design') return createDesignOptimization(ctx, body);
  const given = { ...body.config, element_type: body.config.element_type ?? 'data_fit' } as Json;
  const config = await withParameterizedModel(ctx, body, given);
  const input = {
    project_id: body.project_id,
    name: body.name,
    description: body.description,
    // Kept with the pipeline, to answer which parameterized model the fit started from.
    options: body.parameterized_model_id ? { parameterized_model_id: body.parameterized_model_id } : {},
    elements: { [ELEMENT]: config },
  } as unknown as PipelineCreate;
  const created = await createPipeline(ctx, input, 'optimization').catch(underConfig);
  return getOptimization(ctx, created.id);
}

export async function getOptimization(ctx: RequestContext, id: string) {
  const { p, el } = await load(ctx, id, 'pipeline:read');
  return present(p, el);
}

export async function updateOptimization(ctx: RequestContext, id: string, body: RequestBody<'updateOptimization'>) {
  await loadPipeline(ctx, id, 'pipeline:update', 'optimization');
  await updatePipeline(ctx, id, body, 'optimization');
  return getOptimization(ctx, id);
}

/** Stops a queued or running fit; a finished optimization is answered as it is. */
export async function cancelOptimization(ctx: RequestContext, id: string) {
  const { p } = await load(ctx, id, 'pipeline:update');
  if (!isTerminal(p.status)) await cancelPipelines(ctx, [id]);
  return getOptimization(ctx, id);
}

/** GET /optimizations: newest first, {optimizations, total}, `limit`/`offset`. */
export async function listOptimizations(ctx: RequestContext, query: Record<string, unknown>) {
  const list = parseList(query, {
    columns: { project_id: { kind: 'id' } },
    sortable: ['created_at'],
    defaultOrderBy: 'created_at',
    defaultOrder: 'desc',
    defaultLimit: 50,
    maxLimit: 1000,
  });
  const scope = [
    readableProjectsSql(ctx.caller, 'project_id'),
    { sql: `kind = 'optimization'`, params: [] },
    { sql: 'organization_id = ?', params: [ctx.caller.organizationId] },
  ];
  const { items, total } = await repo.listPipelines(ctx.em, scope, list);
  const elements = new Map(
    (
      await repo.listElementsOf(
        ctx.em,
        items.map((p) => p.id),
      )
    ).map((e) => [e.pipeline_id, e]),
  );
  return { optimizations: items.map((p) => present(p, elements.get(p.id))), total };
}
