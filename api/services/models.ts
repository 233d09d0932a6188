// Rules for models (shared by the organization: model:* held in some project of it, or an
// owner) and parameterized models (a model with parameter values, in a project). Every model is built once by the
// Python worker before it
// is stored, which also gives its simulator_version (the PyBaMM version).
import type { RequestBody } from '../schemas.ts';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/models.ts';
import { countBuildersOf } from '../../db/repositories/modelBuilders.ts';
import {
  assertSameOrganization,
  holdsInProject,
  readableProjectsSql,
  requirePermissionInSomeProject,
  requireProjectPermission,
} from './access.ts';
import { indexEntity, unindexEntity } from './searchIndex.ts';
import { describeModel, givenIn, validateCustomModel, type ParameterLoc } from './simulationWorker.ts';
import { isPlainObject } from '../values.ts';
import { jsonDepth, MAX_JSON_DEPTH, tooDeep } from '../bodyLimits.ts';

export const CUSTOM_MODEL_CHEMISTRIES = ['lithium_ion', 'lithium_sulfur', 'ecm', 'generic'] as const;

const MODEL_LIST = namedRecordList(
  {
    description: { kind: 'text', sql: 'm.description' },
    chemistry: { kind: 'text', sql: 'm.chemistry' },
    is_custom_model: { kind: 'boolean', sql: 'm.is_custom_model' },
    user_id: { kind: 'id', sql: 'm.user_id' },
    created_by_email: { kind: 'text', sql: '(select u.email from users u where u.id = m.user_id)' },
  },
  { alias: 'm', tieBreak: 'm.id' },
);

const PM_LIST = namedRecordList({ project_id: { kind: 'id' }, model_id: { kind: 'id' }, cell_spec_id: { kind: 'id' } });

function indexModel(ctx: RequestContext, m: repo.ModelRow) {
  return indexEntity(ctx.em, {
    entity_type: 'model',
    entity_id: m.id,
    organization_id: m.organization_id,
    name: m.name,
    body: [m.description, m.chemistry, (m.config as { type?: string }).type].filter(Boolean).join(' '),
  });
}

function indexParameterizedModel(ctx: RequestContext, pm: repo.ParameterizedModelRow) {
  return indexEntity(ctx.em, {
    entity_type: 'parameterized_model',
    entity_id: pm.id,
    organization_id: pm.organization_id,
    project_id: pm.project_id,
    parent_id: pm.model_id,
    name: pm.name,
    body: pm.description,
  });
}

/** A model of the caller's organization (404 when missing, 403 when another organization's or without model:read). */
export async function loadModel(ctx: RequestContext, id: string): Promise<repo.ModelRow> {
  const m = await repo.findModel(ctx.em, id);
  if (!m) throw notFound('model', id);
  assertSameOrganization(ctx.caller, m.organization_id, 'model');
  await requirePermissionInSomeProject(ctx, 'model:read');
  return m;
}

async function storeModel(
  ctx: RequestContext,
  input: { name: string; description?: string | null; chemistry: string; config: unknown; custom: boolean },
  loc: (string | number)[],
  parameterLoc?: ParameterLoc,
  pybammVersion?: string,
) {
  await requirePermissionInSomeProject(ctx, 'model:create');
  const checked = await validateCustomModel(ctx, input.config, loc, parameterLoc);
  checkPybammVersion(pybammVersion, checked.simulator_version);
  return ctx.em.transactional(async (em) => {
    const row = await repo.insertModel(em, {
      id: randomUUID(),
      organization_id: ctx.caller.organizationId,
      user_id: ctx.caller.userId,
      name: input.name,
      description: input.description ?? null,
      is_custom_model: input.custom,
      chemistry: input.chemistry,
      config: checked.model,
      simulator_version: checked.simulator_version,
    });
    await indexModel({ ...ctx, em }, row);
    return row;
  });
}

type ModelCreateBody = RequestBody<'createModel'>;

/**
 * Models belong to the organization; a project_id given must be one the caller reads.
 * Top-level simulation_settings (the client's place for them) go into the config, where the
 * engine applies them. A pybamm_version other than the engine's is refused, not ignored.
 */
export async function createModel(ctx: RequestContext, body: ModelCreateBody) {
  if (body.project_id) await requireProjectPermission(ctx, body.project_id, 'project:read');
  let config = body.config;
  if (body.simulation_settings !== undefined) {
    if (config.simulation_settings !== undefined) {
      throw invalid(
        ['body', 'simulation_settings'],
        'is also given in config.simulation_settings: give it once',
        'value_error',
        body.simulation_settings,
      );
    }
    config = { ...config, simulation_settings: body.simulation_settings };
  }
  const parameters = config.parameters;
  const { simulation_settings: _s, pybamm_version: _v, project_id: _p, ...rest } = body;
  const row = await storeModel(
    ctx,
    { ...rest, config, chemistry: body.chemistry ?? 'lithium_ion', custom: false },
    ['body', 'config'],
    isPlainObject(parameters) ? givenIn(parameters, ['body', 'config', 'parameters']) : undefined,
    body.pybamm_version,
  );
  return row;
}

function checkPybammVersion(wanted: string | undefined, engine: string) {
  if (wanted !== undefined && wanted !== engine) {
    throw invalid(['body', 'pybamm_version'], `this Cellar simulates with PyBaMM ${engine}`, 'value_error', wanted, {
      expected: engine,
    });
  }
}

/** The multipart gate of POST /models/upload-custom: may the caller create models, before the file is read. */
export const uploadCustomModelGate = (ctx: RequestContext) => requirePermissionInSomeProject(ctx, 'model:create');

export async function uploadCustomModel(
  ctx: RequestContext,
  body: Record<string, unknown>,
  files: { fieldname: string; buffer: Buffer }[] | undefined,
) {
  const file = files?.find((f) => f.fieldname === 'file');
  if (!file) throw invalid(['body', 'file'], 'a file part named "file" holding the model JSON is required', 'missing');
  if (jsonDepth(file.buffer) > MAX_JSON_DEPTH) throw tooDeep(['body', 'file']);
  let config: unknown;
  try {
    config = JSON.parse(file.buffer.toString('utf8'));
  } catch (err) {
    throw invalid(['body', 'file'], `is not valid JSON: ${(err as Error).message}`, 'json_invalid');
  }
  const name = typeof body.name === 'string' && body.name.trim() ? body.name : undefined;
  if (!name) throw invalid(['body', 'name'], 'is required', 'missing');
  const chemistry = (body.chemistry as string | undefined) || 'lithium_ion';
  return storeModel(
    ctx,
    { name, description: (body.description as string | undefined) ?? null, chemistry, config, custom: true },
    ['body', 'file'],
  );
}

/**
 * Models belong to the organization. The Python client always names a project: it must be one
 * the caller reads, and the answer is still the organization's models.
 */
export async function listModels(ctx: RequestContext, query: Record<string, unknown>) {
  if (typeof query.project_id === 'string') await requireProjectPermission(ctx, query.project_id, 'project:read');
  const list = parseList(query, MODEL_LIST);
  await requirePermissionInSomeProject(ctx, 'model:read');
  const { items, total } = await repo.listModels(ctx.em, ctx.caller.organizationId, list);
  return { items, count: items.length, total };
}

/** Only the model's creator or an organization owner changes or deletes it. */
export function assertModelOwner(ctx: RequestContext, m: repo.ModelRow) {
  if (m.user_id !== ctx.caller.userId && !ctx.caller.isOwner)
    throw forbidden("only the model's creator or an organization owner may change it", { model_id: m.id });
}

export async function updateModel(
  ctx: RequestContext,
  id: string,
  input: { name?: string; description?: string | null; pybamm_version?: string },
) {
  const model = await loadModel(ctx, id);
  assertModelOwner(ctx, model);
  await requirePermissionInSomeProject(ctx, 'model:update');
  checkPybammVersion(input.pybamm_version, model.simulator_version);
  const { pybamm_version: _v, ...body } = input;
  return ctx.em.transactional(async (em) => {
    const row = await repo.updateModel(em, id, body);
    await indexModel({ ...ctx, em }, row);
    return row;
  });
}

export async function deleteModel(ctx: RequestContext, id: string) {
  assertModelOwner(ctx, await loadModel(ctx, id));
  await requirePermissionInSomeProject(ctx, 'model:delete');
  const users = await repo.countParameterizedModelsOf(ctx.em, id);
  if (users)
    throw conflict(`the model is used by ${users} parameterized model(s); delete them first`, {
      model_id: id,
      parameterized_models: users,
    });
  // A builder's recipe is written for its model: deleting the model would silently take the builder.
  const builders = await countBuildersOf(ctx.em, id);
  if (builders)
    throw conflict(`the model is used by ${builders} model builder(s); delete them first`, {
      model_id: id,
      model_builders: builders,
    });
  await ctx.em.transactional(async (em) => {
    await unindexEntity(em, 'model', id);
    await repo.deleteModel(em, id);
  });
  return { id, deleted: true };
}

/** The spec the worker builds: a model's configuration (stored, or given inline) with parameter values applied. */
export function modelSpec(
  model: Pick<repo.ModelRow, 'config'>,
  parameters: Record<string, number>,
): Record<string, unknown> {
  const config = model.config as Record<string, unknown>;
  return {
    ...config,
    kind: 'pybamm',
    parameters: { ...((config.parameters ?? {}) as Record<string, number>), ...parameters },
  };
}

export async function loadParameterizedModel(ctx: RequestContext, id: string, permission: string) {
  const pm = await repo.findParameterizedModel(ctx.em, id);
  if (!pm) throw notFound('parameterized model', id);
  assertSameOrganization(ctx.caller, pm.organization_id, 'parameterized model');
  await requireProjectPermission(ctx, pm.project_id, permission);
  return pm;
}

type PmBody = RequestBody<'createParameterizedModel'>;

/**
 * A cell specification named in a body: of the caller's organization and readable by them
 * (cell_specification:read in its project), else 422 at `loc` (one they cannot read is not
 * revealed); with `projectId`, of that project too.
 */
export async function requireCellSpecification(
  ctx: RequestContext,
  id: string,
  loc: (string | number)[],
  projectId?: string,
) {
  const spec = await repo.findCellSpecification(ctx.em, id);
  if (
    !spec ||
    spec.organization_id !== ctx.caller.organizationId ||
    !(await holdsInProject(ctx, spec.project_id, 'cell_specification:read'))
  ) {
    throw invalid(loc, 'is not a cell specification of this organization that you can read', 'value_error', id);
  }
  if (projectId && spec.project_id !== projectId)
    throw invalid(loc, 'belongs to another project than the parameterized model', 'value_error', id);
  return spec;
}

export async function createParameterizedModel(ctx: RequestContext, body: PmBody, cellSpecId?: string) {
  let projectId = body.project_id;
  let cellSpec = body.cell_spec_id ?? cellSpecId ?? null;
  if (cellSpecId) {
    const spec = await repo.findCellSpecification(ctx.em, cellSpecId);
    if (!spec) throw notFound('cell specification', cellSpecId);
    assertSameOrganization(ctx.caller, spec.organization_id, 'cell specification');
    projectId = spec.project_id;
    cellSpec = spec.id;
  }
  if (!projectId)
    throw invalid(
      ['body', 'project_id'],
      'is required (or create it under /cells/{cell_spec_id}/parameterized_models)',
      'missing',
    );
  await requireProjectPermission(ctx, projectId, 'parameterized_model:create');
  if (body.cell_spec_id && !cellSpecId)
    await requireCellSpecification(ctx, body.cell_spec_id, ['body', 'cell_spec_id'], projectId);
  const model = await repo.findModel(ctx.em, body.model_id);
  if (!model || model.organization_id !== ctx.caller.organizationId)
    throw invalid(['body', 'model_id'], 'is not a model of this organization', 'value_error', body.model_id);
  const parameters = body.parameters ?? {};
  await describeModel(
    ctx,
    ctx.em,
    modelSpec(model, parameters),
    ['body', 'parameters'],
    givenIn(parameters, ['body', 'parameters']),
  );
  return ctx.em.transactional(async (em) => {
    // Names are unique per cell specification (or among the project's models without one), so
    // the client's create_or_get finds the existing one through the 409's existing_id. The
    // lock orders concurrent creates in the project.
    await em.execute(`select pg_advisory_xact_lock(hashtext('parameterized_model:' || ?))`, [projectId]);
    const [clash] = await em.execute<{ id: string }[]>(
      `select id from parameterized_models where project_id = ? and cell_spec_id is not distinct from ? and name = ?`,
      [projectId, cellSpec, body.name],
    );
    if (clash)
      throw conflict(`a parameterized model named "${body.name}" already exists here`, { existing_id: clash.id });
    const row = await repo.insertParameterizedModel(em, {
      id: randomUUID(),
      organization_id: ctx.caller.organizationId,
      project_id: projectId,
      model_id: model.id,
      cell_spec_id: cellSpec,
      name: body.name,
      description: body.description ?? null,
      parameters,
      created_by: ctx.caller.userId,
    });
    await indexParameterizedModel({ ...ctx, em }, row);
    return row;
  });
}

/** All readable ones, or those of one cell specification (GET /cells/{id}/parameterized_models). */
export async function listParameterizedModels(
  ctx: RequestContext,
  query: Record<string, unknown>,
  cellSpecId?: string,
) {
  const list = parseList(query, PM_LIST);
  let scope = readableProjectsSql(ctx.caller, 'project_id');
  if (cellSpecId) {
    const spec = await repo.findCellSpecification(ctx.em, cellSpecId);
    if (!spec) throw notFound('cell specification', cellSpecId);
    assertSameOrganization(ctx.caller, spec.organization_id, 'cell specification');
    await requireProjectPermission(ctx, spec.project_id, 'parameterized_model:read');
    scope = { sql: `(${scope.sql}) and cell_spec_id = ?`, params: [...scope.params, cellSpecId] };
  }
  const { items, total } = await repo.listParameterizedModels(ctx.em, scope, list);
  return { items, count: items.length, total };
}

/** The parameterized model exists under this cell specification (the Python client's item paths). */
export async function requireOfCellSpec(ctx: RequestContext, cellSpecId: string, id: string) {
  const pm = await loadParameterizedModel(ctx, id, 'parameterized_model:read');
  if (pm.cell_spec_id !== cellSpecId) throw notFound('parameterized model of this cell specification', id);
}

export async function updateParameterizedModel(
  ctx: RequestContext,
  id: string,
  given: { name?: string; description?: string | null; parameters?: Record<string, number> | null },
) {
  const pm = await loadParameterizedModel(ctx, id, 'parameterized_model:update');
  // `parameters: null` clears the values (the model's own apply); the column holds an object (null was a 500).
  const body = { ...given, parameters: given.parameters === null ? {} : given.parameters };
  if (body.parameters) {
    const model = (await repo.findModel(ctx.em, pm.model_id))!;
    await describeModel(
      ctx,
      ctx.em,
      modelSpec(model, body.parameters),
      ['body', 'parameters'],
      givenIn(body.parameters, ['body', 'parameters']),
    );
  }
  return ctx.em.transactional(async (em) => {
    const row = await repo.updateParameterizedModel(em, id, body);
    await indexParameterizedModel({ ...ctx, em }, row);
    return row;
  });
}

export async function deleteParameterizedModel(ctx: RequestContext, id: string) {
  await loadParameterizedModel(ctx, id, 'parameterized_model:delete');
  await ctx.em.transactional(async (em) => {
    await unindexEntity(em, 'parameterized_model', id);
    await repo.deleteParameterizedModel(em, id);
  });
  return { id, deleted: true };
}

/** The variable names as a list (the Python client's answer); with detail, the full description. */
export async function parameterizedModelVariableNames(ctx: RequestContext, id: string, detail = false) {
  const pm = await loadParameterizedModel(ctx, id, 'parameterized_model:read');
  const model = (await repo.findModel(ctx.em, pm.model_id))!;
  const d = await describeModel(ctx, ctx.em, modelSpec(model, pm.parameters), ['path', 'parameterized_model_id']);
  if (!detail) return d.variable_names;
  return {
    parameterized_model_id: id,
    variable_names: d.variable_names,
    spatial_variable_names: d.spatial_variable_names,
    parameter_names: d.parameter_names,
    simulator_version: d.simulator_version,
  };
}
