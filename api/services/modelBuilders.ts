// Model builders: a project's recipe that turns a cell specification into a model's parameter
// values (api/services/builders/recipe.ts). Permissions are the parameterized models' (a build
// saves one); update and delete only the organization's own, as for parameterized models.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import type { RequestBody } from '../schemas.ts';
import { conflict, invalid, notFound, ValidationFailed, type ValidationIssue } from '../errors.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/modelBuilders.ts';
import { orConflict } from '../../db/repositories/sqlRows.ts';
import * as models from '../../db/repositories/models.ts';
import { findSpec, type SpecRow } from '../../db/repositories/cells.ts';
import {
  assertSameOrganization,
  readableProjectsSql,
  requirePermissionInSomeProject,
  requireProjectPermission,
} from './access.ts';
import { requireSpec } from './cellAccess.ts';
import { createParameterizedModel, modelSpec, requireCellSpecification } from './models.ts';
import { describeModel } from './simulationWorker.ts';
import { checkRecipe, previewOne, runRecipe, type ReadinessIssue, type RecipeElement } from './builders/recipe.ts';
import { calculationsProducing } from './builders/calculationCatalog.ts';

const LIST = namedRecordList({ project_id: { kind: 'id' }, model_id: { kind: 'id' } });
type Loc = (string | number)[];

function recipeOf(config: unknown, loc: Loc): RecipeElement[] {
  const issues: ValidationIssue[] = [];
  const elements = checkRecipe(config, loc, issues);
  if (issues.length) throw new ValidationFailed(issues);
  return elements;
}

/** A model of the caller's organization named in a body, else 422 at `loc`. */
async function modelIn(ctx: RequestContext, id: string, loc: Loc) {
  const m = await models.findModel(ctx.em, id);
  if (!m || m.organization_id !== ctx.caller.organizationId)
    throw invalid(loc, 'is not a model of this organization', 'value_error', id);
  await requirePermissionInSomeProject(ctx, 'model:read');
  return m;
}

async function loadBuilder(ctx: RequestContext, id: string, permission: string) {
  const b = await repo.findBuilder(ctx.em, id);
  if (!b) throw notFound('model builder', id);
  assertSameOrganization(ctx.caller, b.organization_id, 'model builder');
  await requireProjectPermission(ctx, b.project_id, permission);
  return b;
}

async function nameFree(ctx: RequestContext, projectId: string, modelId: string, name: string, self?: string) {
  const clash = await repo.findBuilderByName(ctx.em, projectId, modelId, name);
  if (clash && clash.id !== self)
    throw conflict(`a model builder named "${name}" already exists for this model`, { existing_id: clash.id });
}

export async function createBuilder(ctx: RequestContext, body: RequestBody<'createModelBuilder'>) {
  await requireProjectPermission(ctx, body.project_id, 'parameterized_model:create');
  const model = await modelIn(ctx, body.model_id, ['body', 'model_id']);
  recipeOf(body.config, ['body', 'config']);
  await nameFree(ctx, body.project_id, model.id, body.name);
  const insert = () =>
    repo.insertBuilder(ctx.em, {
      id: randomUUID(),
      organization_id: ctx.caller.organizationId,
      project_id: body.project_id,
      model_id: model.id,
      name: body.name,
      description: body.description ?? null,
      config: body.config,
      created_by: ctx.caller.userId,
    });
  // A concurrent create of the same name: the same 409 as the check above.
  return orConflict(insert, () => nameFree(ctx, body.project_id, model.id, body.name));
}

export async function listBuilders(ctx: RequestContext, query: Record<string, unknown>) {
  if (typeof query.project_id === 'string')
    await requireProjectPermission(ctx, query.project_id, 'parameterized_model:read');
  const list = parseList(query, LIST);
  return repo.listBuilders(ctx.em, [readableProjectsSql(ctx.caller, 'project_id')], list);
}

export const getBuilder = (ctx: RequestContext, id: string) => loadBuilder(ctx, id, 'parameterized_model:read');

export async function updateBuilder(ctx: RequestContext, id: string, body: RequestBody<'updateModelBuilder'>) {
  const b = await loadBuilder(ctx, id, 'parameterized_model:update');
  if (body.config !== undefined) recipeOf(body.config, ['body', 'config']);
  if (body.name !== undefined) await nameFree(ctx, b.project_id, b.model_id, body.name, b.id);
  // Only the fields a builder has: unknown body fields are ignored, never written.
  const { name, description, config } = body;
  const changes = { name, description, config };
  return orConflict(
    () => repo.updateBuilder(ctx.em, id, changes),
    () => nameFree(ctx, b.project_id, b.model_id, name ?? b.name, b.id),
  );
}

export async function deleteBuilder(ctx: RequestContext, id: string) {
  await loadBuilder(ctx, id, 'parameterized_model:delete');
  await repo.deleteBuilder(ctx.em, id);
  return { id, deleted: true };
}

/** The cell specification as a recipe's paths read it: its own fields, by component. */
export function resolvedOf(spec: SpecRow): Record<string, unknown> {
  const { organization_id: _o, created_by: _c, created_at: _a, updated_at: _u, ...rest } = spec;
  return rest;
}

export async function resolvedSpec(ctx: RequestContext, specId: string) {
  return resolvedOf(await requireSpec(ctx, specId, 'cell_specification:read'));
}

/** A cell specification named in a body: the organization's and readable, else 422 at `loc`. */
async function specIn(ctx: RequestContext, id: string, loc: Loc) {
  await requireCellSpecification(ctx, id, loc);
  return (await findSpec(ctx.em, id))!;
}

interface Evaluation {
  report: { ready: boolean; issues: ReadinessIssue[]; resolved: number; total: number };
  parameters: Record<string, number>;
  /** Parameters the recipe is meant to give that it could not and that the model itself does not. */
  missing: string[];
  /** Produced values that are the model's parameters (what a save keeps). */
  modelParameters: Record<string, number>;
  error: string | null;
}

/**
 * Runs a recipe on a specification. Every PyBaMM model has a parameter set, so a model's
 * defaults cover every parameter; a parameter the recipe targets and cannot produce is still
 * missing unless the model's own config gives it, since the set's value is another cell's.
 */
async function evaluate(
  ctx: RequestContext,
  model: models.ModelRow,
  elements: RecipeElement[],
  spec: SpecRow,
): Promise<Evaluation> {
  const run = runRecipe(elements, resolvedOf(spec));
  const description = await describeModel(ctx, ctx.em, modelSpec(model, {}), ['body', 'model_id']);
  const known = new Set(description.parameter_names);
  const own = ((model.config as { parameters?: Record<string, unknown> }).parameters ?? {}) as Record<string, unknown>;
  const issues = [...run.issues];
  const modelParameters: Record<string, number> = {};
  for (const [name, value] of Object.entries(run.parameters)) {
    if (known.has(name)) modelParameters[name] = value;
    else if (run.targets.includes(name))
      issues.push({
        severity: 'warning',
        code: 'not_a_model_parameter',
        message: `"${name}" is not a parameter of the model; it is computed but not saved`,
        parameter: name,
      });
  }
  const missing = run.targets.filter((t) => known.has(t) && !(t in run.parameters) && !(t in own)).sort();
  const ready = !issues.some((i) => i.severity === 'error');
  return {
    report: { ready, issues, resolved: run.resolved, total: run.total },
    parameters: run.parameters,
    missing,
    modelParameters,
    error: run.error,
  };
}

async function builderRun(ctx: RequestContext, id: string, specId: string) {
  const b = await loadBuilder(ctx, id, 'parameterized_model:read');
  const spec = await specIn(ctx, specId, ['body', 'cell_spec_id']);
  const model = (await models.findModel(ctx.em, b.model_id))!;
  return { b, spec, evaluation: await evaluate(ctx, model, recipeOf(b.config, ['config']), spec) };
}

export async function checkBuilder(ctx: RequestContext, id: string, body: RequestBody<'checkModelBuilder'>) {
  return (await builderRun(ctx, id, body.cell_spec_id)).evaluation.report;
}

export async function buildWithBuilder(ctx: RequestContext, id: string, body: RequestBody<'buildModelBuilder'>) {
  if (body.save && !body.name)
    throw invalid(['body', 'name'], 'is required to save the parameterized model', 'missing');
  if (body.set_as_default && !body.save)
    throw invalid(
      ['body', 'set_as_default'],
      'needs save: true (only a saved model can be the default)',
      'value_error',
    );
  const { b, spec, evaluation: e } = await builderRun(ctx, id, body.cell_spec_id);
  const warnings = e.report.issues.filter((i) => i.severity === 'warning');
  const result = {
    parameters: e.parameters,
    missing: e.missing,
    issues: warnings,
    parameterized_model_id: null as string | null,
  };
  if (!body.save) return { ...result, issues: e.report.issues };
  if (!e.report.ready || e.missing.length) {
    throw invalid(
      ['body', 'save'],
      `refused: the cell specification does not give ${e.missing.length ? e.missing.join(', ') : 'every value'} ` +
        '(POST /model_builders/{id}/check lists what is lacking)',
      'value_error',
      true,
      { missing: e.missing, issues: e.report.issues.filter((i) => i.severity === 'error') },
    );
  }
  const pm = await createParameterizedModel(ctx, {
    project_id: spec.project_id,
    cell_spec_id: spec.id,
    model_id: b.model_id,
    name: body.name!,
    description: body.description ?? null,
    parameters: e.modelParameters,
  } as Parameters<typeof createParameterizedModel>[1]);
  if (body.set_as_default) await repo.setDefaultModel(ctx.em, spec.id, pm.id);
  return { ...result, parameterized_model_id: pm.id, is_default: Boolean(body.set_as_default) };
}

export async function dryRun(ctx: RequestContext, body: RequestBody<'dryRunModelBuilder'>) {
  const model = await modelIn(ctx, body.model_id, ['body', 'model_id']);
  const elements = recipeOf(body.config, ['body', 'config']);
  const spec = await specIn(ctx, body.cell_spec_id, ['body', 'cell_spec_id']);
  const e = await evaluate(ctx, model, elements, spec);
  // Not ready: nothing is produced (a partial set would read as a build).
  return { report: e.report, parameters: e.report.ready ? e.parameters : {}, missing: e.missing, error: e.error };
}

export async function previewMapping(ctx: RequestContext, body: RequestBody<'previewModelBuilderMapping'>) {
  const issues: ValidationIssue[] = [];
  if (Object.keys(body.mapping).length)
    checkRecipe({ elements: { mapping: { element_type: 'entry', mapping: body.mapping } } }, ['body'], issues);
  if (issues.length) throw new ValidationFailed(issues.map((i) => ({ ...i, loc: ['body', ...i.loc.slice(3)] })));
  const spec = resolvedOf(await specIn(ctx, body.cell_spec_id, ['body', 'cell_spec_id']));
  return Object.fromEntries(
    Object.entries(body.mapping).map(([p, path]) => {
      const { found, converted, curve, issue } = previewOne(spec, p, path);
      return [p, { found, converted, curve, issue }];
    }),
  );
}

export const producing = (parameter: string) => calculationsProducing(parameter);

/** Each builder of the specification's project (optionally for one model) with its readiness. */
export async function builderReadiness(ctx: RequestContext, specId: string, modelId?: string) {
  const spec = await requireSpec(ctx, specId, 'cell_specification:read');
  await requireProjectPermission(ctx, spec.project_id, 'parameterized_model:read');
  const rows = await ctx.em.execute<repo.BuilderRow[]>(
    `select * from model_builders where project_id = ? and (?::uuid is null or model_id = ?::uuid)
      order by created_at desc limit 100`,
    [spec.project_id, modelId ?? null, modelId ?? null],
  );
  const out = [];
  for (const b of rows) {
    const model = (await models.findModel(ctx.em, b.model_id))!;
    const { report } = await evaluate(ctx, model, recipeOf(b.config, ['config']), spec);
    out.push({
      model_builder_id: b.id,
      model_id: b.model_id,
      name: b.name,
      ready: report.ready,
      error_count: report.issues.filter((i) => i.severity === 'error').length,
      warning_count: report.issues.filter((i) => i.severity === 'warning').length,
    });
  }
  return out;
}
