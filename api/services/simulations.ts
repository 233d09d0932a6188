// Submitting batches of simulations and reading their results. A submission checks
// everything that can be checked (model, protocol, DOE, names, usage) before anything is
// written, then writes every simulation and job in one transaction and starts one batch
// workflow; the answer does not wait for any simulation.
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Readable } from 'node:stream';
import type { RequestContext } from '../context.ts';
import { AppError, invalid, notFound, ValidationFailed } from '../errors.ts';
import { namedRecordList, parseList, type ListSpec } from '../listQuery.ts';
import * as repo from '../repositories/simulations.ts';
import * as modelRepo from '../repositories/models.ts';
import * as studyRepo from '../repositories/studies.ts';
import { ObjectNotFound } from '../../storage/storage.ts';
import { CellarBatch, CellarOrganization, CellarProject, CellarStatus } from '../../workflows/searchAttributes.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';
import type { SimulationBatchInput } from '../../workflows/simulationBatch.ts';
import { assertSameOrganization, readableProjectsSql, requirePermissionInSomeProject, requireProjectPermission } from './access.ts';
import { DoeError, expandDoe, MAX_DESIGN_POINTS, type DoeRequest } from './doe.ts';
import { loadTemplate, protocolAt } from './experimentTemplates.ts';
import { modelSpec, requireCellSpecification } from './models.ts';
import { DEFAULT_MAX_BACKWARD_JUMPS, inputReferences, JumpLimitError, parseProtocol, ProtocolError, type Ucp } from './protocols/index.ts';
import { initialStateParameters, inputsChecker } from './protocols/inputs.ts';
import { canonicalJson, CHEMISTRY_NAMES, describeModel, ENGINE_BUILD, givenIn, PYBAMM_MODELS, sha256, type ParameterLoc } from './simulationWorker.ts';
import { recordStarts, startRecorded } from './workflowStarts.ts';
import { varPtsIssue } from './workLimits.ts';
import { simulationFileFromPack } from './resultPacks.ts';
import { isPlainObject, UUID } from '../values.ts';

/** Result columns every simulation has; an extra variable cannot repeat one. */
const BASE_COLUMNS = ['Time [s]', 'Voltage [V]', 'Current [A]', 'Step count', 'Cycle count', 'Discharge capacity [A.h]', 'Charge capacity [A.h]', 'Discharge energy [W.h]', 'Charge energy [W.h]'];
const QUICK_FIELDS = ['capacity', 'chemistry', 'resistance_pct', 'cell_spec_id', 'simulation_settings'];
const MODEL_CONFIG_FIELDS = ['kind', 'type', 'options', 'parameter_set', 'parameters', 'simulation_settings'];
const MODEL_TYPES: readonly string[] = PYBAMM_MODELS.map((m) => m.type);
const SOLVERS = ['IDAKLUSolver', 'CasadiSolver'];
const MODEL_FORMS = 'must be {"quick_model": {...}}, {"model_id", "parameters"}, {"model", "parameters"} or a parameterized model id';

type Loc = (string | number)[];

interface ResolvedModel {
  spec: Record<string, unknown>;
  parameterizedModelId: string | null;
  projectId: string | null;
  /** Where the request gave a parameter, for a 422 about it. */
  parameterLoc?: ParameterLoc;
}

/** A positive number at `loc`: a value that is no number at all (e.g. "5") is told so, not "greater than". */
function requirePositive(v: unknown, loc: Loc, what: string): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(loc, `must be ${what} given as a finite number`, 'float_type', v);
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
    if (!allowed.includes(key)) throw invalid([...loc, key], `unknown field; allowed: ${allowed.join(', ')}`, 'extra_forbidden', raw[key]);
  }
  if (raw.var_pts !== undefined && raw.var_pts !== null) {
    if (!isPlainObject(raw.var_pts)) throw invalid([...loc, 'var_pts'], 'must map spatial variables to point counts', 'dict_type', raw.var_pts);
    const issue = varPtsIssue(raw.var_pts, [...loc, 'var_pts']);
    if (issue) throw new ValidationFailed([issue]);
  }
  let solver = raw.solver || {};
  if (typeof solver === 'string') solver = { name: solver };
  if (!isPlainObject(solver)) throw invalid([...loc, 'solver'], 'must be an object or a solver name', 'dict_type', raw.solver);
  for (const key of Object.keys(solver)) {
    if (!['name', 'rtol', 'atol'].includes(key)) throw invalid([...loc, 'solver', key], 'unknown field; allowed: name, rtol, atol', 'extra_forbidden', solver[key]);
  }
  if ('name' in solver && !SOLVERS.includes(solver.name as string)) {
    throw invalid([...loc, 'solver', 'name'], `must be one of ${SOLVERS.join(', ')}`, 'enum', solver.name, { expected: SOLVERS });
  }
  for (const key of ['rtol', 'atol']) {
    if (key in solver) requirePositive(solver[key], [...loc, 'solver', key], 'a tolerance');
  }
}

/** A model config given inline (what POST /models takes as config), with the checks the cached description skips. */
function inlineModelConfig(raw: Record<string, unknown>, loc: Loc): Record<string, unknown> {
  for (const key of Object.keys(raw)) {
    if (!MODEL_CONFIG_FIELDS.includes(key)) throw invalid([...loc, key], `unknown model config field; allowed: ${MODEL_CONFIG_FIELDS.join(', ')}`, 'extra_forbidden', raw[key]);
  }
  if (raw.kind !== undefined && raw.kind !== 'pybamm') {
    throw invalid([...loc, 'kind'], 'must be "pybamm" (a quick model is given as {"quick_model": {...}})', 'literal_error', raw.kind);
  }
  if (!MODEL_TYPES.includes(raw.type as string)) {
    throw invalid([...loc, 'type'], `must be one of ${MODEL_TYPES.join(', ')} (GET /discovery/pybamm_models)`, 'enum', raw.type, { expected: MODEL_TYPES });
  }
  checkParameters(raw.parameters, [...loc, 'parameters']);
  checkSettings(raw.simulation_settings, [...loc, 'simulation_settings'], true);
  return raw;
}

function checkParameters(raw: unknown, loc: Loc): Record<string, number> {
  const parameters = raw ?? {};
  if (!isPlainObject(parameters)) throw invalid(loc, 'must be an object of parameter names to numbers', 'dict_type', parameters);
  for (const [k, v] of Object.entries(parameters)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid([...loc, k], 'must be a finite number', 'float_type', v);
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
    if (!QUICK_FIELDS.includes(key)) throw invalid([...loc, key], `unknown quick model field; allowed: ${QUICK_FIELDS.join(', ')}`, 'extra_forbidden', raw[key]);
  }
  requirePositive(raw.capacity, [...loc, 'capacity'], 'a nominal capacity in A.h');
  if (!CHEMISTRY_NAMES.includes(raw.chemistry as string)) {
    throw invalid([...loc, 'chemistry'], `must be one of ${CHEMISTRY_NAMES.join(', ')} (GET /discovery/chemistries)`, 'enum', raw.chemistry, { expected: CHEMISTRY_NAMES });
  }
  if (raw.resistance_pct !== undefined && raw.resistance_pct !== null) requirePositive(raw.resistance_pct, [...loc, 'resistance_pct'], 'a percentage');
  if (raw.cell_spec_id != null && !(typeof raw.cell_spec_id === 'string' && UUID.test(raw.cell_spec_id))) {
    throw invalid([...loc, 'cell_spec_id'], 'must be a cell specification id', 'uuid_type', raw.cell_spec_id);
  }
  checkSettings(raw.simulation_settings, [...loc, 'simulation_settings'], false);
  return {
    kind: 'quick', capacity: raw.capacity, chemistry: raw.chemistry,
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
async function resolveModel(ctx: RequestContext, raw: unknown, loc: Loc): Promise<ResolvedModel> {
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
    if (obj.quick_model === null || typeof obj.quick_model !== 'object') throw invalid([...loc, 'quick_model'], 'must be an object with capacity and chemistry', 'model_type', obj.quick_model);
    return quickModel(ctx, obj.quick_model as Record<string, unknown>, [...loc, 'quick_model']);
  }
  if ('model_id' in obj) {
    const model = await storedModel(ctx, obj.model_id, [...loc, 'model_id']);
    const parameters = checkParameters(obj.parameters, [...loc, 'parameters']);
    return { spec: modelSpec(model, parameters), parameterizedModelId: null, projectId: null, parameterLoc: givenIn(parameters, [...loc, 'parameters']) };
  }
  // {"model", "parameters"}: model is a stored model's id (a string or {"id"}) or a model
  // config given inline, which becomes a spec the way a stored model's config does.
  if ('model' in obj) {
    const parameters = checkParameters(obj.parameters, [...loc, 'parameters']);
    const given = givenIn(parameters, [...loc, 'parameters']);
    const m = obj.model;
    if (typeof m === 'string' || (isPlainObject(m) && 'id' in m)) {
      const model = await storedModel(ctx, isPlainObject(m) ? m.id : m, isPlainObject(m) ? [...loc, 'model', 'id'] : [...loc, 'model']);
      return { spec: modelSpec(model, parameters), parameterizedModelId: null, projectId: null, parameterLoc: given };
    }
    if (!isPlainObject(m)) throw invalid([...loc, 'model'], 'must be a model id or a model config such as {"type": "SPMe"}', 'model_type', m);
    const inConfig = givenIn(m.parameters as object | undefined, [...loc, 'model', 'parameters']);
    return {
      spec: modelSpec({ config: inlineModelConfig(m, [...loc, 'model']) }, parameters), parameterizedModelId: null, projectId: null,
      parameterLoc: (name) => given(name) ?? inConfig(name),
    };
  }
  if ('capacity' in obj || 'chemistry' in obj) return quickModel(ctx, obj, loc);
  throw invalid(loc, MODEL_FORMS, 'model_type', raw);
}

interface Submission {
  ucp: Ucp;
  name: string;
  parameterizedModel: unknown;
  /** Experiment parameter sets (each with where it came from), one or more. */
  sets: { values: Record<string, number>; loc: Loc }[];
  doe?: DoeRequest | null;
  maxBackwardJumps?: number | null;
  studyId?: string | null;
  extraVariables?: string[] | null;
  forceRerun?: boolean;
  projectId?: string | null;
  templateId?: string | null;
  /** The Idempotency-Key the client sent, recorded with the batch. */
  key?: SubmissionKey;
}

type SubmissionAnswer = { simulation_id: string; job_id: string }[];
interface SubmissionKey { key: string; requestHash: string }

/**
 * A submission sent again with the same Idempotency-Key (a client that lost the answer) is
 * answered the batch the first one made, and starts and counts nothing; the same key with
 * another request is 409. Without a key every submission is a new batch.
 */
async function once(ctx: RequestContext, operation: string, body: unknown, idempotencyKey: string | undefined, run: (key?: SubmissionKey) => Promise<SubmissionAnswer>): Promise<SubmissionAnswer> {
  if (idempotencyKey === undefined) return run();
  const key = { key: idempotencyKey, requestHash: sha256(`${operation}|${canonicalJson(body)}`) };
  const prior = async () => {
    const row = await repo.findSubmissionKey(ctx.em, ctx.caller.organizationId, ctx.caller.userId, key.key);
    if (!row) return undefined;
    if (row.request_hash !== key.requestHash) {
      throw new AppError('CONFLICT', 'this Idempotency-Key was sent with another submission; use a new key for a new batch', { idempotency_key: key.key, batch_id: row.batch_id });
    }
    return repo.batchAnswer(ctx.em, row.batch_id);
  };
  const first = await prior();
  if (first) return first;
  try {
    return await run(key);
  } catch (err) {
    // The same request, sent twice at once: the other one committed its batch (and key) first.
    const other = err instanceof UniqueConstraintViolationException ? await prior() : undefined;
    if (other) return other;
    throw err;
  }
}

async function submit(ctx: RequestContext, s: Submission): Promise<SubmissionAnswer> {
  const model = await resolveModel(ctx, s.parameterizedModel, ['body', 'parameterized_model']);

  // The project: named, or implied by the parameterized model or the study; all must agree.
  let projectId = s.projectId ?? model.projectId;
  if (s.projectId && model.projectId && s.projectId !== model.projectId) {
    throw invalid(['body', 'parameterized_model'], 'belongs to another project than project_id', 'value_error', s.parameterizedModel);
  }
  if (s.studyId) {
    const study = await studyRepo.findStudy(ctx.em, s.studyId);
    if (!study || study.organization_id !== ctx.caller.organizationId) throw invalid(['body', 'study_id'], 'is not a study of this organization', 'value_error', s.studyId);
    if (projectId && study.project_id !== projectId) throw invalid(['body', 'study_id'], 'belongs to another project than the simulations', 'value_error', s.studyId);
    projectId = study.project_id;
  }
  // Without a project, a simulation is the organization's: simulation:create in some project of it.
  if (projectId) await requireProjectPermission(ctx, projectId, 'simulation:create');
  else await requirePermissionInSomeProject(ctx, 'simulation:create');

  let points;
  try {
    points = expandDoe(s.doe, ['body', 'design_parameters_doe']);
  } catch (err) {
    if (err instanceof DoeError) throw new ValidationFailed(err.issues);
    throw err;
  }
  const total = points.length * s.sets.length;
  if (total > MAX_DESIGN_POINTS) {
    throw invalid(['body', 'design_parameters_doe'], `${s.sets.length} parameter sets × ${points.length} design points = ${total} simulations; at most ${MAX_DESIGN_POINTS} per submission`, 'too_long');
  }

  const described = await describeModel(ctx, ctx.em, model.spec, ['body', 'parameterized_model'], model.parameterLoc);
  const parameterNames = new Set(described.parameter_names);
  const variableNames = new Set(described.variable_names);
  const spatialNames = new Set(described.spatial_variable_names);
  const extra = s.extraVariables ?? [];
  extra.forEach((name, i) => {
    if (BASE_COLUMNS.includes(name) || extra.indexOf(name) !== i) throw invalid(['body', 'extra_variables', i], `${JSON.stringify(name)} is already a column`, 'value_error', name);
    if (spatialNames.has(name)) throw invalid(['body', 'extra_variables', i], `${JSON.stringify(name)} varies in space, so it has no single value per time to put in a column`, 'value_error', name);
    if (!variableNames.has(name)) throw invalid(['body', 'extra_variables', i], `unknown variable ${JSON.stringify(name)} for this model (GET /parameterized_models/{id}/variable-names lists a stored model's)`, 'value_error', name);
  });
  const refs = inputReferences(s.ucp);
  const known = (name: string) => parameterNames.has(name) || refs.includes(name);
  const doeNames = (s.doe?.rows ?? []).map((r) => r.name as string);
  doeNames.forEach((name, i) => {
    if (!known(name)) throw invalid(['body', 'design_parameters_doe', 'rows', i, 'name'], `${JSON.stringify(name)} is neither a parameter of the model nor an input of the protocol`, 'value_error', name);
  });
  for (const set of s.sets) {
    for (const [name, value] of Object.entries(set.values)) {
      if (!known(name)) throw invalid([...set.loc, name], `${JSON.stringify(name)} is neither a parameter of the model nor an input of the protocol`, 'value_error', name);
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid([...set.loc, name], 'must be a finite number', 'float_type', value);
    }
    const missing = refs.filter((r) => !(r in set.values) && !doeNames.includes(r));
    if (missing.length) throw invalid(set.loc, `no value for ${missing.map((m) => `input['${m}']`).join(', ')} used by the protocol`, 'missing');
  }
  // Every design point, as the worker will check its inputs: a value it refuses is a 422 at
  // the DOE row or experiment parameter that gave it.
  const check = inputsChecker(s.ucp, parameterNames, initialStateParameters(model.spec));
  for (const set of s.sets) {
    for (const point of points) {
      const problem = check({ ...set.values, ...point });
      if (!problem) continue;
      const row = problem.name in point ? doeNames.indexOf(problem.name) : -1;
      const value = problem.name in point ? point[problem.name] : set.values[problem.name];
      const msg = `${JSON.stringify(problem.name)} = ${value}: ${problem.message}`;
      throw invalid(row >= 0 ? ['body', 'design_parameters_doe', 'rows', row] : [...set.loc, problem.name], msg, 'value_error', value);
    }
  }

  // Everything checked: build the rows. The content hash decides reuse of stored results.
  const { name: _n, description: _d, ...protocolBody } = s.ucp;
  const common = sha256(canonicalJson({ model: model.spec, protocol: protocolBody, extra_variables: extra, max_backward_jumps: s.maxBackwardJumps ?? null, engine: [described.simulator_version, ENGINE_BUILD] }));
  const batchId = randomUUID();
  const sims: repo.SimulationInsert[] = [];
  for (const set of s.sets) {
    for (const point of points) {
      const seq = sims.length + 1;
      sims.push({
        id: randomUUID(), seq, job_id: randomUUID(), name: total === 1 ? s.name : `${s.name} #${seq}`,
        parameterized_model_id: model.parameterizedModelId, design_parameters: point, experiment_parameters: set.values,
        content_hash: sha256(`${common}|${canonicalJson({ ...set.values, ...point })}`),
      });
    }
  }
  const org = ctx.caller.organizationId;
  const input: SimulationBatchInput = {
    batchId, organizationId: org, projectId, simulationTaskQueue: ctx.config.simulationTaskQueue, afterSeq: 0, size: total, slots: ctx.config.sweepSlots,
  };
  const recorded = await ctx.em.transactional(async (em) => {
    const usage = await repo.addSimulationUsage(em, org, total, ctx.config.simulationMonthlyLimit);
    if (usage.usage > usage.limit) {
      const before = usage.usage - total;
      throw new AppError('USAGE_LIMIT_EXCEEDED', `the organization's monthly simulation limit is ${usage.limit}; ${before} used this month, so ${total} more would exceed it`, {
        limit: usage.limit, usage: before, requested: total,
      });
    }
    await repo.insertBatch(em, {
      id: batchId, organization_id: org, project_id: projectId, name: s.name, model_config: model.spec, protocol: protocolBody,
      extra_variables: extra, max_backward_jumps: s.maxBackwardJumps ?? null, force_rerun: s.forceRerun ?? false,
      experiment_template_id: s.templateId ?? null, simulator_version: described.simulator_version, size: total, created_by: ctx.caller.userId,
    }, sims, org, projectId, ctx.caller.userId);
    if (s.studyId) await repo.linkBatchToStudy(em, batchId, s.studyId);
    if (s.key) await repo.insertSubmissionKey(em, { organizationId: org, userId: ctx.caller.userId, key: s.key.key, requestHash: s.key.requestHash, batchId });
    // Accepted with the batch: if Temporal cannot take it now, the dispatcher starts it later.
    return recordStarts(em, [{
      workflowType: 'simulationBatch',
      workflowId: simulationWorkflowIds.batch(batchId),
      taskQueue: ctx.config.taskQueue,
      args: [input],
      reusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: [
        { key: CellarOrganization, value: org },
        { key: CellarBatch, value: batchId },
        { key: CellarStatus, value: 'running' },
        ...(projectId ? [{ key: CellarProject, value: projectId }] : []),
      ],
    }]);
  });
  await startRecorded(ctx, recorded);
  return sims.map((sim) => ({ simulation_id: sim.id, job_id: sim.job_id }));
}

export interface ProtocolBatchBody {
  parameterized_model: unknown;
  protocol_experiment: { protocol: unknown; name?: string };
  experiment_parameters?: Record<string, number> | null;
  design_parameters_doe?: DoeRequest | null;
  max_backward_jumps?: number | null;
  study_id?: string | null;
  extra_variables?: string[] | null;
  force_rerun?: boolean;
  project_id?: string | null;
}

/** What both batch forms take from their body as it is. */
function sharedFields(body: ProtocolBatchBody | TemplateBatchBody) {
  return {
    parameterizedModel: body.parameterized_model,
    doe: body.design_parameters_doe,
    maxBackwardJumps: body.max_backward_jumps,
    studyId: body.study_id,
    extraVariables: body.extra_variables,
    forceRerun: body.force_rerun,
    projectId: body.project_id,
  };
}

export function submitProtocolBatch(ctx: RequestContext, body: ProtocolBatchBody, idempotencyKey?: string) {
  return once(ctx, 'protocol', body, idempotencyKey, (key) => {
    // The loops are counted against this batch's max_backward_jumps, as the worker will.
    const parsed = protocolAt(body.protocol_experiment.protocol, ['body', 'protocol_experiment', 'protocol'], body.max_backward_jumps ?? DEFAULT_MAX_BACKWARD_JUMPS);
    return submit(ctx, {
      ucp: parsed.ucp,
      name: body.protocol_experiment.name || parsed.ucp.name || 'Simulation',
      sets: [{ values: body.experiment_parameters ?? {}, loc: ['body', 'experiment_parameters'] }],
      ...sharedFields(body),
      key,
    });
  });
}

export interface TemplateBatchBody {
  parameterized_model: unknown;
  experiment_template_id: string;
  experiment_parameter_sets?: Record<string, number>[] | null;
  design_parameters_doe?: DoeRequest | null;
  max_backward_jumps?: number | null;
  study_id?: string | null;
  extra_variables?: string[] | null;
  force_rerun?: boolean;
  project_id: string;
}

export function submitTemplateBatch(ctx: RequestContext, body: TemplateBatchBody, idempotencyKey?: string) {
  return once(ctx, 'template', body, idempotencyKey, (key) => submitFromTemplate(ctx, body, key));
}

async function submitFromTemplate(ctx: RequestContext, body: TemplateBatchBody, key?: SubmissionKey) {
  await requireProjectPermission(ctx, body.project_id, 'simulation:create');
  const template = await loadTemplate(ctx, body.experiment_template_id, 'experiment_template:read');
  if (template.project_id !== body.project_id) throw invalid(['body', 'experiment_template_id'], 'belongs to another project than project_id', 'value_error', body.experiment_template_id);
  try {
    // Checked again: against this batch's max_backward_jumps (the template was counted
    // against the default), and by any rule newer than the template.
    parseProtocol(template.protocol_config, body.max_backward_jumps ?? DEFAULT_MAX_BACKWARD_JUMPS);
  } catch (err) {
    if (err instanceof JumpLimitError) throw invalid(['body', 'max_backward_jumps'], `the template's ${err.message}`, 'protocol_error', body.max_backward_jumps ?? DEFAULT_MAX_BACKWARD_JUMPS);
    if (err instanceof ProtocolError) throw invalid(['body', 'experiment_template_id'], `the template's ${err.message}`, 'protocol_error', body.experiment_template_id);
    throw err;
  }
  const base = template.experiment_parameters ?? {};
  const given = body.experiment_parameter_sets?.length ? body.experiment_parameter_sets : [{}];
  return submit(ctx, {
    ucp: template.protocol_config as unknown as Ucp,
    name: template.name,
    sets: given.map((values, i) => ({ values: { ...base, ...values }, loc: body.experiment_parameter_sets?.length ? ['body', 'experiment_parameter_sets', i] : ['body', 'experiment_template_id'] })),
    ...sharedFields(body),
    templateId: template.id,
    key,
  });
}

/** Simulations (and jobs) without a project belong to the whole organization. */
export function readableSql(ctx: RequestContext, alias: string) {
  const scope = readableProjectsSql(ctx.caller, `${alias}.project_id`);
  return { sql: `((${alias}.project_id is null and ${alias}.organization_id = ?) or ${scope.sql})`, params: [ctx.caller.organizationId, ...scope.params] };
}

async function loadBatch(ctx: RequestContext, id: string, permission: string): Promise<repo.BatchRow> {
  const batch = await repo.findBatch(ctx.em, id);
  if (!batch) throw notFound('simulation batch', id);
  assertSameOrganization(ctx.caller, batch.organization_id, 'simulation batch');
  if (batch.project_id) await requireProjectPermission(ctx, batch.project_id, permission);
  return batch;
}

/** A batch is over when none of its jobs is pending or running. */
const batchIsOver = (b: repo.BatchRow) => b.jobs.pending + b.jobs.running === 0;

/**
 * A batch as stored, with its jobs counted by status. Lists leave out the heavy model and
 * protocol (each simulation echoes them too).
 */
function presentBatch(b: repo.BatchRow, opts: { heavy: boolean } = { heavy: true }) {
  const { model_config: model, protocol, ...stored } = b;
  return { ...stored, ...(opts.heavy ? { model, protocol } : {}), is_terminal: batchIsOver(b) };
}

const BATCH_LIST: ListSpec = {
  columns: {
    name: { kind: 'text', sql: 'b.name' },
    project_id: { kind: 'id', sql: 'b.project_id' },
    created_at: { kind: 'date', sql: 'b.created_at' },
  },
  sortable: ['name', 'created_at'],
  defaultOrderBy: 'created_at',
  defaultOrder: 'desc',
  tieBreak: 'b.id',
};

/** The submissions the caller may read, newest first, each with its jobs counted. */
export async function listBatches(ctx: RequestContext, query: Record<string, unknown>) {
  const { items, count, total } = await repo.listBatches(ctx.em, readableSql(ctx, 'b'), parseList(query, BATCH_LIST));
  return { items: items.map((b) => presentBatch(b, { heavy: false })), count, total };
}

export async function getBatch(ctx: RequestContext, id: string) {
  return presentBatch(await loadBatch(ctx, id, 'simulation:read'));
}

/**
 * Cancels what is left of a batch: its workflow ends every job not yet ended within a second
 * or two and stops its chunks at their next step. Finished jobs keep their results. A batch
 * with nothing left answers as it is.
 */
export async function cancelBatch(ctx: RequestContext, id: string) {
  const batch = await loadBatch(ctx, id, 'simulation:update');
  if (!batchIsOver(batch)) {
    const legacy = simulationWorkflowIds.isLegacySimulation(await repo.firstJobWorkflowId(ctx.em, id));
    // One transaction around both: if Temporal cannot take the cancel, nothing changes (503).
    await ctx.em.transactional(async (em) => {
      // A sweep's workflow ends its open jobs itself, in one statement, as the first step of its
      // cancel (a 10,000-point batch is answered at once). A legacy batch's children end their
      // own jobs, so the ones not started yet are ended here.
      if (legacy) await repo.cancelOpenJobsOfBatch(em, id);
      try {
        await ctx.temporal.workflow.getHandle(simulationWorkflowIds.batch(id)).cancel();
      } catch (err) {
        // Not started yet (it will find nothing left to run) or already over.
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        if (!legacy) await repo.cancelOpenJobsOfBatch(em, id);
      }
    });
  }
  return presentBatch((await repo.findBatch(ctx.em, id))!);
}

export async function loadSimulation(ctx: RequestContext, id: string): Promise<repo.SimulationRow> {
  const sim = await repo.findSimulation(ctx.em, id);
  if (!sim) throw notFound('simulation', id);
  assertSameOrganization(ctx.caller, sim.organization_id, 'simulation');
  if (sim.project_id) await requireProjectPermission(ctx, sim.project_id, 'simulation:read');
  return sim;
}

const SIM_LIST = {
  ...namedRecordList({
    project_id: { kind: 'id', sql: 's.project_id' },
    batch_id: { kind: 'id', sql: 's.batch_id' },
    parameterized_model_id: { kind: 'id', sql: 's.parameterized_model_id' },
    experiment_template_id: { kind: 'id', sql: 'b.experiment_template_id' },
    status: { kind: 'enum', sql: 'j.status', values: ['pending', 'running', 'completed', 'failed', 'canceled'] },
  }, { alias: 's', tieBreak: 's.seq, s.id' }),
  // The Python client pages up to 1000 and expects 100 by default.
  maxLimit: 1000,
} satisfies ListSpec;

// The Python client's state filter: failed includes canceled runs.
const STATE_STATUSES: Record<string, string> = {
  queued: 'in.(pending)', running: 'in.(running)', completed: 'in.(completed)', failed: 'in.(failed,canceled)',
};

/**
 * A page whose items are also under `simulations`, where the Python client reads them. With
 * summary=true each run's metrics are left out (the client's summary listing).
 */
export async function listSimulations(ctx: RequestContext, input: Record<string, unknown>) {
  const { state, summary, ...query } = input;
  if (typeof state === 'string') query.status = STATE_STATUSES[state];
  const list = parseList({ ...query, limit: query.limit ?? '100' }, SIM_LIST);
  const clauses = [readableSql(ctx, 's')];
  if (query.study_id !== undefined) {
    const studyId = String(query.study_id);
    if (!UUID.test(studyId)) throw invalid(['query', 'study_id'], `"${studyId}" is not a UUID`, 'uuid_parsing', studyId);
    clauses.push({ sql: 's.id in (select simulation_id from study_simulations where study_id = ?)', params: [studyId] });
  }
  const { items, total } = await repo.listSimulations(ctx.em, clauses, list);
  const shown = summary === 'true' ? items.map(({ metrics: _m, ...rest }) => rest) : items;
  return { items: shown, simulations: shown, count: items.length, total };
}

/**
 * POST /simulations/statuses: the job status of many simulations in one light request; ids
 * that are unknown or not readable are left out (the caller compares).
 */
export async function simulationStatuses(ctx: RequestContext, body: { simulation_ids: string[]; limit?: number }) {
  const ids = [...new Set(body.simulation_ids)].slice(0, body.limit ?? body.simulation_ids.length);
  const readable = readableSql(ctx, 's');
  const rows = await ctx.em.execute<{ simulation_id: string; status: string; error: string | null; error_code: string | null; updated_at: Date }[]>(
    `select s.id as simulation_id, j.status, j.error, j.error_code, j.updated_at
       from simulations s join jobs j on j.id = s.job_id
      where s.id in (${ids.map(() => '?').join(', ')}) and ${readable.sql} order by s.seq, s.id`,
    [...ids, ...readable.params],
  );
  return rows.map((r) => ({ ...r, updated_at: r.updated_at.toISOString() }));
}

export const RESULT_FILES = { time_series: 'time_series.parquet', steps: 'steps.parquet' } as const;

/** A result file as a stream; 404 until the results are stored. */
export async function resultFile(ctx: RequestContext, id: string, kind: keyof typeof RESULT_FILES): Promise<{ stream: Readable; filename: string }> {
  const sim = await loadSimulation(ctx, id);
  if (!sim.storage_folder) {
    const why = sim.status === 'failed' || sim.status === 'canceled' ? `none were stored: its job ended ${sim.status}` : `they are not stored yet (status ${sim.status})`;
    throw new AppError('NOT_FOUND', `no results for simulation ${id}: ${why}`, { id, status: sim.status });
  }
  try {
    // A sweep's result: a byte range of its pack. Simulations stored before: their own folder.
    const pack = await repo.resultPack(ctx.em, id);
    const stream = pack
      ? Readable.from([await simulationFileFromPack(ctx.storage, pack, kind)])
      : await ctx.storage.get(sim.storage_folder + RESULT_FILES[kind]);
    return { stream, filename: `${id}-${RESULT_FILES[kind]}` };
  } catch (err) {
    if (err instanceof ObjectNotFound) throw notFound(`${kind} file of simulation`, id);
    throw err;
  }
}

export async function usage(ctx: RequestContext) {
  const row = await repo.usageThisMonth(ctx.em, ctx.caller.organizationId, ctx.config.simulationMonthlyLimit);
  const compute = Math.round(Number(row.compute_seconds ?? 0) * 1000) / 1000;
  return {
    organization_id: ctx.caller.organizationId,
    period_start: row.period_start,
    period_end: row.period_end,
    simulation: { usage: Number(row.simulations ?? 0), limit: Number(row.limit) },
    compute: { usage: compute, usage_by_type: { simulation: compute }, limit: null, unit: 'seconds' },
  };
}

