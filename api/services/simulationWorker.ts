// What the API asks the Python simulation worker: a model's variable and parameter names
// (cached in the database per model shape, so a submission rarely waits for it) and the
// check of an uploaded custom model. Both run as a short workflow on the TypeScript queue
// that calls the Python activity, since a Temporal client cannot call an activity directly.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError, WorkflowIdReusePolicy } from '@temporalio/client';
import { ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ROOT } from '../../stack/config.ts';
import type { Services } from '../context.ts';
import { AppError, ValidationFailed, invalid } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { parameterValueProblem } from './parameterValues.ts';
import { checkWorkerArg } from './workLimits.ts';
import type { ModelDescription } from '../../activities/simulations.ts';
import { CHEMISTRIES, CHEMISTRIES_PATH, MODELS } from '../../tables/index.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';
import type { SimulationWorkerCallInput } from '../../workflows/simulationWorkerCall.ts';

export { CHEMISTRIES };
export const CHEMISTRY_NAMES = CHEMISTRIES.chemistries.map((c) => c.name);

/**
 * What results depend on besides the request: the PyBaMM version the Python worker is
 * provisioned with (pinned in pyworker/requirements.in) and the quick models' base
 * parameters. Part of the model-description cache key and of the reuse hash, so after an
 * upgrade models are described anew and results of the engine before are never reused.
 */
export const ENGINE_BUILD = (() => {
  const pin =
    /^pybamm==(\S+)/m.exec(fs.readFileSync(path.join(ROOT, 'pyworker', 'requirements.in'), 'utf8'))?.[1] ?? 'unpinned';
  const chemistries = createHash('sha256').update(fs.readFileSync(CHEMISTRIES_PATH)).digest('hex').slice(0, 16);
  return `pybamm ${pin}; chemistries ${chemistries}`;
})();

/** Built-in PyBaMM model types the worker builds (tables/models.json), as GET /models/pybamm lists them. */
export const PYBAMM_MODELS = MODELS.map(({ type, name, default_parameter_set, family }) => ({
  type,
  name,
  default_parameter_set,
  family,
}));

/** JSON with sorted keys, for hashes that do not depend on key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The parts of a model spec that decide its names: not parameter values or the capacity. */
function shapeKey(spec: Record<string, unknown>): string {
  if (spec.kind === 'quick') return canonicalJson({ kind: 'quick', chemistry: spec.chemistry });
  const settings = (spec.simulation_settings ?? {}) as Record<string, unknown>;
  return canonicalJson({
    kind: spec.kind,
    type: spec.type,
    options: spec.options ?? {},
    parameter_set: spec.parameter_set ?? null,
    parameters: Object.keys((spec.parameters ?? {}) as object).sort(),
    var_pts: Object.keys((settings.var_pts ?? {}) as object).sort(),
    // Class names, whole: the worker checks each, so a spec naming another must be described anew.
    ...(settings.submesh_types ? { submesh_types: settings.submesh_types } : {}),
    ...(settings.spatial_methods ? { spatial_methods: settings.spatial_methods } : {}),
    // Their names are variables of the model (only when some: the keys of models without stay).
    ...(spec.custom_variables ? { custom_variables: spec.custom_variables } : {}),
  });
}

/** A failed call's reason: a configuration mistake (the worker's message) or an unavailable worker. */
export class WorkerRejected extends Error {}

export async function callWorker<T>(
  services: Services,
  activity: SimulationWorkerCallInput['activity'],
  arg: unknown,
  key: string,
): Promise<T> {
  try {
    return (await services.temporal.workflow.execute('simulationWorkerCall', {
      taskQueue: services.config.taskQueue,
      workflowId: simulationWorkflowIds.workerCall(activity, key),
      // The Python worker serves these apart from the solves (pyworker/cellar_worker/main.py),
      // so a submission never waits behind a long batch.
      args: [{ activity, arg, simulationTaskQueue: `${services.config.simulationTaskQueue}-models` }],
      workflowExecutionTimeout: '45 seconds',
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    })) as T;
  } catch (err) {
    let cause: unknown = err instanceof WorkflowFailedError ? err.cause : err;
    while (
      cause &&
      !(cause instanceof ApplicationFailure) &&
      !(cause instanceof TimeoutFailure) &&
      (cause as Error).cause
    )
      cause = (cause as Error).cause;
    if (cause instanceof ApplicationFailure && cause.type === 'CONFIGURATION_ERROR')
      throw new WorkerRejected(cause.message);
    if (err instanceof WorkflowFailedError) {
      throw new AppError('SERVICE_UNAVAILABLE', 'the simulation worker did not answer; try again shortly', {
        reason: (cause as Error | undefined)?.message ?? err.message,
      });
    }
    throw err;
  }
}

/** Where a request gave the parameter `name`, if the caller can tell. */
export type ParameterLoc = (name: string) => (string | number)[] | undefined;

/** A ParameterLoc for the names of `parameters`, found at `loc`. */
export function givenIn(parameters: object | null | undefined, loc: (string | number)[]): ParameterLoc {
  return (name) => (parameters && Object.hasOwn(parameters, name) ? [...loc, name] : undefined);
}

/** The loc of the parameter a worker's message is about ("model.parameters['X']: ..."), if known. */
function rejectedParameterLoc(
  message: string,
  parameterLoc: ParameterLoc | undefined,
): (string | number)[] | undefined {
  const m = /^model\.parameters\[(['"])(.*?)\1\]: /.exec(message);
  return m && parameterLoc ? parameterLoc(m[2]!) : undefined;
}

/**
 * Variable and parameter names of a model spec; a configuration mistake is a 422 at `loc`, or
 * at the parameter itself when it is about one the request gave (`parameterLoc`).
 */
export async function describeModel(
  services: Services,
  em: EntityManager,
  spec: Record<string, unknown>,
  loc: (string | number)[],
  parameterLoc?: ParameterLoc,
): Promise<ModelDescription> {
  // Values are not part of the description's key, so the API checks them itself.
  for (const [name, value] of Object.entries((spec.parameters ?? {}) as Record<string, unknown>)) {
    const problem = typeof value === 'number' ? parameterValueProblem(name, value) : undefined;
    if (problem)
      throw invalid(
        parameterLoc?.(name) ?? loc,
        `${JSON.stringify(name)} = ${value}: ${problem}`,
        'value_error',
        value,
      );
  }
  checkWorkerArg(spec, loc, 'the model');
  const key = sha256(`${shapeKey(spec)}\n${ENGINE_BUILD}`);
  const [cached] = await em.execute<{ description: ModelDescription }[]>(
    `select description from model_descriptions where key = ?`,
    [key],
  );
  // Descriptions stored before spatial_variable_names existed are made again.
  if (cached?.description.spatial_variable_names) return cached.description;
  let description: ModelDescription;
  try {
    description = await callWorker<ModelDescription>(services, 'describeModel', spec, key.slice(0, 32));
  } catch (err) {
    if (err instanceof WorkerRejected)
      throw invalid(rejectedParameterLoc(err.message, parameterLoc) ?? loc, err.message, 'model_error');
    throw err;
  }
  // Only the names and version are reused: the normalized spec belongs to this one call.
  const stored: ModelDescription = {
    variable_names: description.variable_names,
    spatial_variable_names: description.spatial_variable_names,
    parameter_names: description.parameter_names,
    simulator_version: description.simulator_version,
    model: null,
  };
  await em.execute(
    `insert into model_descriptions (key, description) values (?, ?) on conflict (key) do update
      set description = excluded.description`,
    [key, JSON.stringify(stored)],
  );
  return stored;
}

/**
 * Builds a model config on the worker: its normalized spec and engine version, or a 422 at
 * `loc` (at the parameter itself when it is about one of those `parameterLoc` knows).
 */
export async function validateCustomModel(
  services: Services,
  modelJson: unknown,
  loc: (string | number)[],
  parameterLoc?: ParameterLoc,
): Promise<{ model: Record<string, unknown>; simulator_version: string }> {
  type Answer = { valid: boolean; error?: string; model?: Record<string, unknown>; simulator_version?: string };
  checkWorkerArg(modelJson, loc, 'the model');
  const res = await callWorker<Answer>(
    services,
    'validateCustomModel',
    modelJson,
    sha256(canonicalJson(modelJson)).slice(0, 32),
  ).catch((err): Answer => {
    if (err instanceof WorkerRejected) return { valid: false, error: err.message };
    throw err;
  });
  if (!res.valid)
    throw invalid(
      (res.error && rejectedParameterLoc(res.error, parameterLoc)) || loc,
      res.error ?? 'the model cannot be built',
      'model_error',
    );
  return { model: res.model!, simulator_version: res.simulator_version! };
}

/**
 * POST /discovery/pybamm_models/validate: whether the worker builds this model with these
 * options, by the path a simulation takes (describeModel); the answer is the client's
 * {valid, error?, error_type?}. Nothing is stored but the worker's description of a model that builds.
 */
export async function validatePybammModel(
  services: Services,
  em: EntityManager,
  body: RequestBody<'validatePybammModel'>,
) {
  const known = PYBAMM_MODELS.find((m) => m.type === body.pybamm_model);
  if (!known) {
    return {
      valid: false,
      error:
        `${JSON.stringify(body.pybamm_model)} is not a model Cellar's engine builds; ` +
        `it builds ${PYBAMM_MODELS.map((m) => m.type).join(', ')}`,
      error_type: 'UnsupportedModel',
    };
  }
  // The client's module names a PyBaMM submodule; it does not apply to the equivalent-circuit model.
  if (known.family === 'lithium_ion' && body.module !== undefined && body.module !== 'lithium_ion') {
    return {
      valid: false,
      error: `${known.type} is in pybamm.lithium_ion, not pybamm.${body.module}`,
      error_type: 'UnsupportedModel',
    };
  }
  try {
    await describeModel(services, em, { kind: 'pybamm', type: known.type, options: body.options ?? {} }, [
      'body',
      'options',
    ]);
    return { valid: true };
  } catch (err) {
    if (err instanceof ValidationFailed) return { valid: false, error: err.issues[0]!.msg, error_type: 'ModelError' };
    throw err;
  }
}
