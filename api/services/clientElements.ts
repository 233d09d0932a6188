// Pipeline elements as the Python client builds them with ionworks-schema (`iws.DataFit`,
// `iws.Validation`, `iws.calculations.*`, `iws.direct_entries.DirectEntry`), turned into the
// engine's element configs. The client validates its configs with ionworks-schema before it
// sends them; what is checked here is what Cellar's engine can run, each refusal naming the
// client's field. An entry is the same in both forms and needs no translation.
import type { ValidationIssue } from '../errors.ts';
import { isPlainObject } from '../values.ts';
import { OBJECTIVE_LABEL, needsJointFit, objectiveDatasets } from './clientObjectives.ts';

type Json = Record<string, unknown>;
type Loc = (string | number)[];

/** ionworks-schema objective types the engine runs: the measured current drives the model. */
const OBJECTIVES = ['CurrentDriven'];
/** ionworks-schema cost types → the engine's. */
const COSTS: Record<string, string> = { RMSE: 'RMSE', MAE: 'MAE', Max: 'Max', SSE: 'SSE' };
/** ionworks-schema scipy optimizers → the engine's methods. */
const MINIMIZE_METHODS = ['L-BFGS-B', 'Nelder-Mead', 'Powell', 'TNC', 'SLSQP'];
const MODEL_TYPES = ['SPM', 'SPMe', 'DFN'];
// DataFit fields with a meaning the engine has no equivalent for: refused rather than ignored.
const UNSUPPORTED_FIT_FIELDS = ['initial_guesses', 'multistarts', 'initial_guess_sampler', 'priors', 'cost_logger'];
const IGNORED_FIT_FIELDS = ['source', 'objective_parallelism', 'element_type'];

/** The client's calculations the engine runs, with the engine's name for each. */
const CALCULATIONS: Record<string, (el: Json, loc: Loc, issues: ValidationIssue[]) => Json | null> = {
  ElectrodeCapacity(el, loc, issues) {
    if (el.use_stoich_window === true)
      issues.push(
        unsupported(
          [...loc, 'use_stoich_window'],
          'use_stoich_window: true (the engine computes the capacity of the whole stoichiometry range)',
          true,
        ),
      );
    if (el.method !== undefined && el.method !== 'auto')
      issues.push(
        unsupported(
          [...loc, 'method'],
          `method ${JSON.stringify(el.method)} (the engine solves for the capacity: "auto")`,
          el.method,
        ),
      );
    if (el.phase !== undefined && el.phase !== null)
      issues.push(unsupported([...loc, 'phase'], 'a phase (single-phase electrodes only)', el.phase));
    return { type: 'electrode_capacity', electrode: el.electrode };
  },
  AreaToSquareWidthHeight: () => ({ type: 'area_to_square_width_height' }),
};

function unsupported(loc: Loc, what: string, input?: unknown): ValidationIssue {
  return {
    loc,
    msg: `${what} is not supported by Cellar's engine`,
    type: 'value_error',
    ...(input !== undefined ? { input } : {}),
  };
}

/** True when the element is in ionworks-schema form rather than the engine's own. */
export function isClientForm(el: unknown): el is Json {
  if (!isPlainObject(el)) return false;
  if (el.element_type === 'calculation') return typeof el.type === 'string' && /^[A-Z]/.test(el.type);
  return (
    ['data_fit', 'array_data_fit', 'validation'].includes(el.element_type as string) && el.objectives !== undefined
  );
}

export interface Translated {
  element: Json;
  /** Engine field → the client's path, to name the client's field in later issues. */
  locs: Record<string, Loc>;
  /** The objective's name, for the result's validation_results and the series. */
  objective?: string;
}

/** The engine's element for a client-form one; null with issues when it cannot run. */
export function fromClientForm(el: Json, loc: Loc, issues: ValidationIssue[]): Translated | null {
  const before = issues.length;
  if (el.element_type === 'calculation') {
    const calc = Object.hasOwn(CALCULATIONS, el.type as string) ? CALCULATIONS[el.type as string]! : undefined;
    if (!calc) {
      issues.push({
        loc: [...loc, 'type'],
        msg:
          `calculation ${JSON.stringify(el.type)} is not supported by Cellar's engine; supported: ` +
          `${Object.keys(CALCULATIONS).join(', ')}`,
        type: 'value_error',
        input: el.type,
      });
      return null;
    }
    const element = calc(el, loc, issues);
    return issues.length > before || !element
      ? null
      : { element: { element_type: 'calculation', ...element }, locs: {} };
  }
  if (el.element_type === 'array_data_fit') {
    issues.push(
      unsupported(
        [...loc, 'element_type'],
        "ArrayDataFit in ionworks-schema form (use a DataFit, or the engine's array_data_fit)",
        el.element_type,
      ),
    );
    return null;
  }
  const fit = el.element_type === 'data_fit';
  const objectives = objectivesOf(el.objectives, [...loc, 'objectives'], issues, fit);
  if (!objectives) return null;
  const [name, obj] = objectives[0]!;
  // Several objectives (or weights on them): one joint fit of the engine, an objective per data set.
  const joint =
    fit && needsJointFit(el)
      ? objectiveDatasets(Object.fromEntries(objectives), el.cost, [...loc, 'objectives'], [...loc, 'cost'], issues)
      : undefined;
  if (joint === null) return null;
  const at = [...loc, 'objectives', name];
  const options = (isPlainObject(obj.options) ? obj.options : {}) as Json;
  const model = modelOf(options, [...at, 'options'], issues);
  const element: Json = joint
    ? {
        element_type: 'array_data_fit',
        model,
        independent_variable: OBJECTIVE_LABEL,
        datasets: joint.datasets,
        objectives: joint.names,
      }
    : { element_type: el.element_type, model, data: obj.data };
  const locs: Record<string, Loc> = {
    model: [...at, 'options', 'model'],
    ...(joint ? { datasets: [...loc, 'objectives'] } : { data: [...at, 'data'] }),
  };
  const targets = options['objective variables'] ?? options.objective_variables;
  if (targets !== undefined && targets !== null) {
    element.target = targets;
    locs.target = [...at, 'options', 'objective variables'];
  }
  if (options.simulation_kwargs !== undefined && options.simulation_kwargs !== null)
    issues.push(unsupported([...at, 'options', 'simulation_kwargs'], 'simulation_kwargs'));
  if (options['independent variable'] !== undefined && options['independent variable'] !== 'time')
    issues.push(
      unsupported(
        [...at, 'options', 'independent variable'],
        'an independent variable other than time',
        options['independent variable'],
      ),
    );
  for (const [each, o] of objectives)
    for (const key of ['constraints', 'penalties', 'callbacks']) {
      if (o[key] !== undefined && o[key] !== null) issues.push(unsupported([...loc, 'objectives', each, key], key));
    }
  const overrides = obj.parameters ?? undefined;
  if (fit) {
    element.parameters = fitParameters(el.parameters, [...loc, 'parameters'], issues);
    locs.parameters = [...loc, 'parameters'];
    if (overrides !== undefined && overrides !== null) {
      element.fixed_parameters = overrides;
      locs.fixed_parameters = [...at, 'parameters'];
    }
    const cost = costOf(el.cost ?? obj.cost, [...loc, el.cost !== undefined ? 'cost' : 'objectives'], issues);
    if (cost) element.cost = cost;
    const optimizer = optimizerOf(
      el.optimizer,
      isPlainObject(el.options) ? el.options : {},
      [...loc, 'optimizer'],
      issues,
    );
    if (optimizer) {
      element.optimizer = optimizer;
      locs.optimizer = [...loc, 'optimizer'];
    }
    for (const key of UNSUPPORTED_FIT_FIELDS) {
      if (el[key] !== undefined && el[key] !== null) issues.push(unsupported([...loc, key], key));
    }
    const known = new Set([
      'objectives',
      'parameters',
      'cost',
      'optimizer',
      'options',
      ...UNSUPPORTED_FIT_FIELDS,
      ...IGNORED_FIT_FIELDS,
    ]);
    for (const key of Object.keys(el))
      if (!known.has(key))
        issues.push({ loc: [...loc, key], msg: 'unknown field of a DataFit', type: 'extra_forbidden' });
  } else {
    if (overrides !== undefined && overrides !== null) {
      element.parameter_values = overrides;
      locs.parameter_values = [...at, 'parameters'];
    }
    for (const key of Object.keys(el)) {
      if (!['objectives', 'element_type', 'source'].includes(key))
        issues.push(unsupported([...loc, key], `the Validation field ${key}`));
    }
  }
  if (issues.length > before) return null;
  return joint ? { element, locs } : { element, locs, objective: name };
}

/** The named objectives, each an object of a type the engine runs; a validation has one. */
function objectivesOf(raw: unknown, loc: Loc, issues: ValidationIssue[], many: boolean): [string, Json][] | null {
  if (!isPlainObject(raw) || Object.keys(raw).length === 0) {
    issues.push({ loc, msg: 'must be an object of named objectives', type: 'dict_type', input: raw });
    return null;
  }
  const entries = Object.entries(raw);
  if (entries.length > 1 && !many) {
    issues.push(unsupported(loc, 'more than one objective in a Validation (give each objective its own element)'));
    return null;
  }
  const before = issues.length;
  for (const [name, obj] of entries) {
    if (!isPlainObject(obj))
      issues.push({ loc: [...loc, name], msg: 'must be an objective object', type: 'dict_type' });
    else if (!OBJECTIVES.includes(obj.type as string))
      issues.push({
        loc: [...loc, name, 'type'],
        msg:
          `objective type ${JSON.stringify(obj.type)} is not supported by Cellar's engine; supported: ` +
          `${OBJECTIVES.join(', ')}`,
        type: 'value_error',
        input: obj.type,
      });
  }
  return issues.length > before ? null : (entries as [string, Json][]);
}

/** options.model: a PyBaMM model name, or an engine model spec; or a stored parameterized model (not yet). */
function modelOf(options: Json, loc: Loc, issues: ValidationIssue[]): unknown {
  if (options.parameterized_model_id !== undefined && options.parameterized_model_id !== null) {
    issues.push(unsupported([...loc, 'parameterized_model_id'], 'a parameterized_model_id (give options.model)'));
    return undefined;
  }
  const model = options.model;
  if (typeof model === 'string') {
    if (MODEL_TYPES.includes(model)) return { type: model };
    issues.push({
      loc: [...loc, 'model'],
      msg: `model ${JSON.stringify(model)} is not one of ${MODEL_TYPES.join(', ')} (or give an engine model spec)`,
      type: 'value_error',
      input: model,
    });
    return undefined;
  }
  return model;
}

/** {name: {initial_value, bounds}} as iws.Parameter serializes it. */
function fitParameters(raw: unknown, loc: Loc, issues: ValidationIssue[]): unknown {
  if (!isPlainObject(raw)) return raw;
  const out: Json = {};
  for (const [name, p] of Object.entries(raw)) {
    if (!isPlainObject(p)) {
      out[name] = p;
      continue;
    }
    for (const key of Object.keys(p)) {
      if (!['initial_value', 'bounds', 'name'].includes(key) && p[key] !== null)
        issues.push(unsupported([...loc, name, key], `the Parameter field ${key}`));
    }
    out[name] = { bounds: p.bounds, initial_value: p.initial_value };
  }
  return out;
}

function costOf(raw: unknown, loc: Loc, issues: ValidationIssue[]): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const type = isPlainObject(raw) ? raw.type : raw;
  // objective_weights is read with the objectives (clientObjectives.ts); any other option is refused.
  const others = isPlainObject(raw) ? Object.keys(raw).filter((k) => k !== 'type' && k !== 'objective_weights') : [];
  if (typeof type === 'string' && Object.hasOwn(COSTS, type) && others.length === 0) return COSTS[type];
  issues.push({
    loc,
    msg:
      `cost ${JSON.stringify(type)} is not supported by Cellar's engine; supported: ` +
      `${Object.keys(COSTS).join(', ')}`,
    type: 'value_error',
    input: raw,
  });
  return undefined;
}

/** ScipyMinimize(method, maxiter/max_iterations, tol), ScipyDifferentialEvolution, ScipyLeastSquares. */
function optimizerOf(raw: unknown, runtime: Json, loc: Loc, issues: ValidationIssue[]): Json | undefined {
  const out: Json = {};
  if (raw !== undefined && raw !== null) {
    const o = isPlainObject(raw) ? raw : {};
    const { type, method, maxiter, max_iterations, tol, ...rest } = o;
    if (type === 'ScipyMinimize') {
      if (method !== undefined && !MINIMIZE_METHODS.includes(method as string)) {
        issues.push({
          loc: [...loc, 'method'],
          msg: `must be one of ${MINIMIZE_METHODS.join(', ')}`,
          type: 'enum',
          input: method,
        });
      }
      out.method = method ?? 'Nelder-Mead';
    } else if (type === 'ScipyDifferentialEvolution') out.method = 'differential_evolution';
    else if (type === 'ScipyLeastSquares') out.method = 'least_squares';
    else {
      issues.push({
        loc: [...loc, 'type'],
        msg:
          `optimizer ${JSON.stringify(type)} is not supported by Cellar's engine; supported: ScipyMinimize, ` +
          `ScipyDifferentialEvolution, ScipyLeastSquares`,
        type: 'value_error',
        input: type,
      });
      return undefined;
    }
    const iterations = maxiter ?? max_iterations;
    if (iterations !== undefined) out.max_iterations = iterations;
    if (tol !== undefined) out.tolerance = tol;
    for (const key of Object.keys(rest)) issues.push(unsupported([...loc, key], `the optimizer option ${key}`));
  }
  // DataFitOptions: max_iterations applies; a seed or wall-time limit has no equivalent.
  if (runtime.max_iterations !== undefined) out.max_iterations = runtime.max_iterations;
  for (const key of ['seed', 'maxtime', 'low_memory']) {
    if (runtime[key] !== undefined && runtime[key] !== null)
      issues.push(unsupported([...loc.slice(0, -1), 'options', key], `options.${key}`));
  }
  return Object.keys(out).length ? out : undefined;
}

/** An issue about an engine field, renamed to the client's field it came from. */
export function toClientLoc(issue: ValidationIssue, elementLoc: Loc, locs: Record<string, Loc>): ValidationIssue {
  const field = issue.loc[elementLoc.length];
  if (typeof field !== 'string' || !Object.hasOwn(locs, field)) return issue;
  return { ...issue, loc: [...locs[field]!, ...issue.loc.slice(elementLoc.length + 1)] };
}

/**
 * An element's result as the client decodes it (ionworks-schema result types, by `type`): a
 * fit as an OptimizationResult (`x` in the order of its parameters, `fun` its cost), a
 * validation as a ValidationResult with its statistics per objective, entries and calculations
 * as PassthroughResults. The engine's own fields stay beside them.
 */
export function clientResult(elementType: string, name: string, config: Json, result: Json): Json {
  switch (elementType) {
    case 'data_fit':
    case 'array_data_fit':
    case 'design_optimization': {
      const values = (isPlainObject(result.parameter_values) ? result.parameter_values : {}) as Json;
      const order = isPlainObject(config.parameters) ? Object.keys(config.parameters) : Object.keys(values);
      // A client DataFit of several objectives: each objective's figures (weight, cost, statistics) by name.
      const names = Array.isArray(config.objectives) ? (config.objectives as string[]) : null;
      const per = Array.isArray(result.per_dataset) ? (result.per_dataset as unknown[]) : [];
      return {
        ...result,
        ...(names ? { objective_results: Object.fromEntries(names.map((n, i) => [n, per[i] ?? null])) } : {}),
        type: 'OptimizationResult',
        x: order.map((k) => values[k] ?? null),
        fun: result.cost ?? null,
        success: result.converged ?? null,
        initial_guess: result.initial_parameters ?? null,
      };
    }
    case 'validation': {
      const objective = typeof config.objective === 'string' ? config.objective : name;
      const stats = { summary_stats: result.summary_stats, n_points: result.n_points, coverage: result.coverage };
      return {
        ...result,
        type: 'ValidationResult',
        parameter_values: result.parameter_values ?? {},
        validation_results: { [objective]: stats },
      };
    }
    default:
      return { ...result, type: 'PassthroughResult' };
  }
}
