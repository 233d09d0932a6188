// The checks of a submission that need its model: the project it belongs to, its design
// points, extra variables and inputs. Each failure is a 422 at the field that caused it, and
// they all run before anything is written.
import type { RequestContext } from '../../context.ts';
import { invalid, ValidationFailed } from '../../errors.ts';
import * as studyRepo from '../../../db/repositories/studies.ts';
import { requirePermissionInSomeProject, requireProjectPermission } from '../access.ts';
import { DoeError, expandDoe, MAX_DESIGN_POINTS, type DoeRequest } from '../doe.ts';
import { inputReferences, type Ucp } from '../protocols/index.ts';
import { initialStateParameters, inputsChecker } from '../protocols/inputs.ts';
import type { ModelDescription } from '../../../activities/simulations.ts';
import type { Loc, ResolvedModel } from './models.ts';

/** Columns every result has, so never an extra variable. */
const BASE_COLUMNS = [
  'Time [s]',
  'Voltage [V]',
  'Current [A]',
  'Step count',
  'Cycle count',
  'Discharge capacity [A.h]',
  'Charge capacity [A.h]',
  'Discharge energy [W.h]',
  'Charge energy [W.h]',
];

/** Experiment parameter sets, each with where it came from in the request. */
export type ParameterSets = { values: Record<string, number>; loc: Loc }[];

/**
 * The project: named, or implied by the parameterized model or the study; all must agree. The
 * caller needs simulation:create there (without a project: in some project of the organization).
 */
export async function projectOf(
  ctx: RequestContext,
  named: string | null | undefined,
  model: ResolvedModel,
  studyId: string | null | undefined,
  modelInput: unknown,
): Promise<string | null> {
  let projectId = named ?? model.projectId;
  if (named && model.projectId && named !== model.projectId) {
    throw invalid(
      ['body', 'parameterized_model'],
      'belongs to another project than project_id',
      'value_error',
      modelInput,
    );
  }
  if (studyId) {
    const study = await studyRepo.findStudy(ctx.em, studyId);
    if (!study || study.organization_id !== ctx.caller.organizationId)
      throw invalid(['body', 'study_id'], 'is not a study of this organization', 'value_error', studyId);
    if (projectId && study.project_id !== projectId)
      throw invalid(['body', 'study_id'], 'belongs to another project than the simulations', 'value_error', studyId);
    projectId = study.project_id;
  }
  if (projectId) await requireProjectPermission(ctx, projectId, 'simulation:create');
  else await requirePermissionInSomeProject(ctx, 'simulation:create');
  return projectId;
}

/** The design points of the DOE (one empty point without one), within the size limit. */
export function designPoints(doe: DoeRequest | null | undefined, sets: number): Record<string, number>[] {
  let points;
  try {
    points = expandDoe(doe, ['body', 'design_parameters_doe']);
  } catch (err) {
    if (err instanceof DoeError) throw new ValidationFailed(err.issues);
    throw err;
  }
  const total = points.length * sets;
  if (total > MAX_DESIGN_POINTS) {
    throw invalid(
      ['body', 'design_parameters_doe'],
      `${sets} parameter sets × ${points.length} design points = ${total} simulations; ` +
        `at most ${MAX_DESIGN_POINTS} per submission`,
      'too_long',
    );
  }
  return points;
}

/** Extra variables: each a variable of the model with one value per time, not already a column. */
export function checkExtraVariables(extra: string[], described: ModelDescription): void {
  const variableNames = new Set(described.variable_names);
  const spatialNames = new Set(described.spatial_variable_names);
  extra.forEach((name, i) => {
    if (BASE_COLUMNS.includes(name) || extra.indexOf(name) !== i)
      throw invalid(['body', 'extra_variables', i], `${JSON.stringify(name)} is already a column`, 'value_error', name);
    if (spatialNames.has(name))
      throw invalid(
        ['body', 'extra_variables', i],
        `${JSON.stringify(name)} varies in space, so it has no single value per time to put in a column`,
        'value_error',
        name,
      );
    if (!variableNames.has(name))
      throw invalid(
        ['body', 'extra_variables', i],
        `unknown variable ${JSON.stringify(name)} for this model (GET ` +
          `/parameterized_models/{id}/variable-names lists ` +
          `a stored model's)`,
        'value_error',
        name,
      );
  });
}

/**
 * Every name swept or set is a parameter of the model or an input of the protocol, every input
 * the protocol uses has a value, and every design point passes the checks the worker will make
 * (a value it refuses is a 422 at the DOE row or experiment parameter that gave it).
 */
export function checkInputs(
  ucp: Ucp,
  doe: DoeRequest | null | undefined,
  sets: ParameterSets,
  points: Record<string, number>[],
  model: ResolvedModel,
  described: ModelDescription,
): void {
  const parameterNames = new Set(described.parameter_names);
  const refs = inputReferences(ucp);
  const known = (name: string) => parameterNames.has(name) || refs.includes(name);
  const doeNames = (doe?.rows ?? []).map((r) => r.name as string);
  doeNames.forEach((name, i) => {
    if (!known(name))
      throw invalid(
        ['body', 'design_parameters_doe', 'rows', i, 'name'],
        `${JSON.stringify(name)} is neither a parameter of the model nor an input of the protocol`,
        'value_error',
        name,
      );
  });
  for (const set of sets) {
    for (const [name, value] of Object.entries(set.values)) {
      if (!known(name))
        throw invalid(
          [...set.loc, name],
          `${JSON.stringify(name)} is neither a parameter of the model nor an input of the protocol`,
          'value_error',
          name,
        );
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw invalid([...set.loc, name], 'must be a finite number', 'float_type', value);
    }
    const missing = refs.filter((r) => !(r in set.values) && !doeNames.includes(r));
    if (missing.length)
      throw invalid(
        set.loc,
        `no value for ${missing.map((m) => `input['${m}']`).join(', ')} used by the protocol`,
        'missing',
      );
  }
  const check = inputsChecker(ucp, parameterNames, initialStateParameters(model.spec));
  for (const set of sets) {
    for (const point of points) {
      const problem = check({ ...set.values, ...point });
      if (!problem) continue;
      const row = problem.name in point ? doeNames.indexOf(problem.name) : -1;
      const value = problem.name in point ? point[problem.name] : set.values[problem.name];
      const msg = `${JSON.stringify(problem.name)} = ${value}: ${problem.message}`;
      throw invalid(
        row >= 0 ? ['body', 'design_parameters_doe', 'rows', row] : [...set.loc, problem.name],
        msg,
        'value_error',
        value,
      );
    }
  }
}
