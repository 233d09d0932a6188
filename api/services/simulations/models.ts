// parameterized_model in each of its forms (a stored parameterized model's id, a stored model
// with parameters, an inline model config, the quick model) → the worker's model spec, checked
// before anything is written.
import type { RequestContext } from '../../context.ts';
import { invalid, ValidationFailed } from '../../errors.ts';
import * as modelRepo from '../../../db/repositories/models.ts';
import { assertSameOrganization } from '../access.ts';
import { modelSpec, requireCellSpecification } from '../models.ts';
import { CHEMISTRY_NAMES, givenIn, PYBAMM_MODELS, type ParameterLoc } from '../simulationWorker.ts';
import { isPlainObject, UUID } from '../../values.ts';
import { SOLVERS } from '../../../tables/index.ts';
import { varPtsIssue } from '../workLimits.ts';

const QUICK_FIELDS = ['capacity', 'chemistry', 'resistance_pct', 'cell_spec_id', 'simulation_settings'];
const MODEL_CONFIG_FIELDS = [
  'kind',
  'type',
  'options',
  'parameter_set',
  'parameters',
  'simulation_settings',
  'custom_variables',
];
const MODEL_TYPES: readonly string[] = PYBAMM_MODELS.map((m) => m.type);
const MODEL_FORMS =
  'must be {"quick_model": {...}}, {"model_id", "parameters"}, {"model", "parameters"} or a parameterized model id';

export type Loc = (string | number)[];

export interface ResolvedModel {
  spec: Record<string, unknown>;
  parameterizedModelId: string | null;
  projectId: string | null;
  /** Where the request gave a parameter, for a 422 about it. */
  parameterLoc?: ParameterLoc;
}

/** A positive number at `loc`: a value that is no number at all (e.g. "5") is told so, not "greater than". */
function requirePositive(v: unknown, loc: Loc, what: string): void {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw invalid(loc, `must be ${what} given as a finite number`, 'float_type', v);
  if (v <= 0) throw invalid(loc, `must be ${what} greater than 0`, 'greater_than', v);
}

/**
 * simulation_settings as the worker's normalize_model_spec checks it. The model description
 * is cached per model shape, which leaves out the var_pts counts and the solver, so those are
 * checked here (submesh_types and spatial_methods are part of the shape: described anew).
 */
function checkSettings(raw: unknown, loc: Loc, allowMesh: boolean): void {
  if (raw === undefined || raw === null) return;
  if (!isPlainObject(raw)) throw invalid(loc, 'must be an object', 'dict_type', raw);
  const allowed = allowMesh ? ['var_pts', 'submesh_types', 'spatial_methods', 'solver'] : ['solver'];
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key))
      throw invalid([...loc, key], `unknown field; allowed: ${allowed.join(', ')}`, 'extra_forbidden', raw[key]);
  }
  if (raw.var_pts !== undefined && raw.var_pts !== null) {
    if (!isPlainObject(raw.var_pts))
      throw invalid([...loc, 'var_pts'], 'must map spatial variables to point counts', 'dict_type', raw.var_pts);
    const issue = varPtsIssue(raw.var_pts, [...loc, 'var_pts']);
    if (issue) throw new ValidationFailed([issue]);
  }
  let solver = raw.solver || {};
  if (typeof solver === 'string') solver = { name: solver };
  if (!isPlainObject(solver))
    throw invalid([...loc, 'solver'], 'must be an object or a solver name', 'dict_type', raw.solver);
  for (const key of Object.keys(solver)) {
    if (!['name', 'rtol', 'atol'].includes(key))
      throw invalid(
        [...loc, 'solver', key],
        'unknown field; allowed: name, rtol, atol',
        'extra_forbidden',
        solver[key],
      );
  }
  if ('name' in solver && !SOLVERS.includes(solver.name as string)) {
    throw invalid([...loc, 'solver', 'name'], `must be one of ${SOLVERS.join(', ')}`, 'enum', solver.name, {
      expected: SOLVERS,
    });
  }
  for (const key of ['rtol', 'atol']) {
    if (key in solver) requirePositive(solver[key], [...loc, 'solver', key], 'a tolerance');
  }
}

/** A model config given inline (what POST /models takes as config), with the checks the cached description skips. */
function inlineModelConfig(raw: Record<string, unknown>, loc: Loc): Record<string, unknown> {
  for (const key of Object.keys(raw)) {
    if (!MODEL_CONFIG_FIELDS.includes(key))
      throw invalid(
        [...loc, key],
        `unknown model config field; allowed: ${MODEL_CONFIG_FIELDS.join(', ')}`,
        'extra_forbidden',
        raw[key],
      );
  }
  if (raw.kind !== undefined && raw.kind !== 'pybamm') {
    throw invalid(
      [...loc, 'kind'],
      'must be "pybamm" (a quick model is given as {"quick_model": {...}})',
      'literal_error',
      raw.kind,
    );
  }
  if (!MODEL_TYPES.includes(raw.type as string)) {
    throw invalid(
      [...loc, 'type'],
      `must be one of ${MODEL_TYPES.join(', ')} (GET /discovery/pybamm_models)`,
      'enum',
      raw.type,
      { expected: MODEL_TYPES },
    );
  }
  checkParameters(raw.parameters, [...loc, 'parameters']);
  checkSettings(raw.simulation_settings, [...loc, 'simulation_settings'], true);
  return raw;
}

function checkParameters(raw: unknown, loc: Loc): Record<string, number> {
  const parameters = raw ?? {};
  if (!isPlainObject(parameters))
    throw invalid(loc, 'must be an object of parameter names to numbers', 'dict_type', parameters);
  for (const [k, v] of Object.entries(parameters)) {
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw invalid([...loc, k], 'must be a finite number', 'float_type', v);
  }
  return parameters as Record<string, number>;
}

async function storedModel(ctx: RequestContext, id: unknown, loc: Loc) {
  const model = typeof id === 'string' && UUID.test(id) ? await modelRepo.findModel(ctx.em, id) : null;
  if (!model) throw invalid(loc, 'is not a model id', 'value_error', id);
  assertSameOrganization(ctx.caller, model.organization_id, 'model');
  return model;
}

function quickSpec(raw: Record<string, unknown>, loc: Loc): Record<string, unknown> {
  for (const key of Object.keys(raw)) {
    if (!QUICK_FIELDS.includes(key))
      throw invalid(
        [...loc, key],
        `unknown quick model field; allowed: ${QUICK_FIELDS.join(', ')}`,
        'extra_forbidden',
        raw[key],
      );
  }
  requirePositive(raw.capacity, [...loc, 'capacity'], 'a nominal capacity in A.h');
  if (!CHEMISTRY_NAMES.includes(raw.chemistry as string)) {
    throw invalid(
      [...loc, 'chemistry'],
      `must be one of ${CHEMISTRY_NAMES.join(', ')} (GET /discovery/chemistries)`,
      'enum',
      raw.chemistry,
      { expected: CHEMISTRY_NAMES },
    );
  }
  if (raw.resistance_pct !== undefined && raw.resistance_pct !== null)
    requirePositive(raw.resistance_pct, [...loc, 'resistance_pct'], 'a percentage');
  if (raw.cell_spec_id != null && !(typeof raw.cell_spec_id === 'string' && UUID.test(raw.cell_spec_id))) {
    throw invalid([...loc, 'cell_spec_id'], 'must be a cell specification id', 'uuid_type', raw.cell_spec_id);
  }
  checkSettings(raw.simulation_settings, [...loc, 'simulation_settings'], false);
  return {
    kind: 'quick',
    capacity: raw.capacity,
    chemistry: raw.chemistry,
    ...(raw.resistance_pct != null ? { resistance_pct: raw.resistance_pct } : {}),
    // The cell it stands for, kept with the model (the worker ignores it).
    ...(raw.cell_spec_id != null ? { cell_spec_id: raw.cell_spec_id } : {}),
    ...(raw.simulation_settings ? { simulation_settings: raw.simulation_settings } : {}),
  };
}

async function quickModel(ctx: RequestContext, raw: Record<string, unknown>, loc: Loc): Promise<ResolvedModel> {
  const spec = quickSpec(raw, loc);
  if (spec.cell_spec_id) await requireCellSpecification(ctx, spec.cell_spec_id as string, [...loc, 'cell_spec_id']);
  return { spec, parameterizedModelId: null, projectId: null };
}

/** parameterized_model in its forms → the worker's model spec and the project it implies. */
export async function resolveModel(ctx: RequestContext, raw: unknown, loc: Loc): Promise<ResolvedModel> {
  if (typeof raw === 'string') {
    const pm = UUID.test(raw) ? await modelRepo.findParameterizedModel(ctx.em, raw) : null;
    if (!pm) throw invalid(loc, 'is not a parameterized model id', 'value_error', raw);
    assertSameOrganization(ctx.caller, pm.organization_id, 'parameterized model');
    const model = (await modelRepo.findModel(ctx.em, pm.model_id))!;
    return { spec: modelSpec(model, pm.parameters), parameterizedModelId: pm.id, projectId: pm.project_id };
  }
  if (!isPlainObject(raw)) throw invalid(loc, MODEL_FORMS, 'model_type', raw);
  const obj = raw as Record<string, unknown>;
  if ('quick_model' in obj) {
    if (obj.quick_model === null || typeof obj.quick_model !== 'object')
      throw invalid(
        [...loc, 'quick_model'],
        'must be an object with capacity and chemistry',
        'model_type',
        obj.quick_model,
      );
    return quickModel(ctx, obj.quick_model as Record<string, unknown>, [...loc, 'quick_model']);
  }
  if ('model_id' in obj) {
    const model = await storedModel(ctx, obj.model_id, [...loc, 'model_id']);
    const parameters = checkParameters(obj.parameters, [...loc, 'parameters']);
    return {
      spec: modelSpec(model, parameters),
      parameterizedModelId: null,
      projectId: null,
      parameterLoc: givenIn(parameters, [...loc, 'parameters']),
    };
  }
  // {"model", "parameters"}: model is a stored model's id (a string or {"id"}) or a model
  // config given inline, which becomes a spec the way a stored model's config does.
  if ('model' in obj) {
    const parameters = checkParameters(obj.parameters, [...loc, 'parameters']);
    const given = givenIn(parameters, [...loc, 'parameters']);
    const m = obj.model;
    if (typeof m === 'string' || (isPlainObject(m) && 'id' in m)) {
      const model = await storedModel(
        ctx,
        isPlainObject(m) ? m.id : m,
        isPlainObject(m) ? [...loc, 'model', 'id'] : [...loc, 'model'],
      );
      return { spec: modelSpec(model, parameters), parameterizedModelId: null, projectId: null, parameterLoc: given };
    }
    if (!isPlainObject(m))
      throw invalid(
        [...loc, 'model'],
        'must be a model id or a model config such as {"type": "SPMe"}',
        'model_type',
        m,
      );
    const inConfig = givenIn(m.parameters as object | undefined, [...loc, 'model', 'parameters']);
    return {
      spec: modelSpec({ config: inlineModelConfig(m, [...loc, 'model']) }, parameters),
      parameterizedModelId: null,
      projectId: null,
      parameterLoc: (name) => given(name) ?? inConfig(name),
    };
  }
  if ('capacity' in obj || 'chemistry' in obj) return quickModel(ctx, obj, loc);
  throw invalid(loc, MODEL_FORMS, 'model_type', raw);
}
