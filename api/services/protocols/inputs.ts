// What the worker refuses of one simulation's inputs (the design point merged with the
// experiment parameters) given the protocol and the model: the checks of job.py prepare_point
// and _initial_state that depend on values, so a submission can make them for every design
// point before anything is created.
import { parameterValueProblem } from '../parameterValues.ts';
import { inputReferences } from './ucp.ts';
import { ABSOLUTE_ZERO_C, initialStateProblem, TEMPERATURE_PROBLEM } from './ucpGlobal.ts';
import { inputName, type Ucp } from './ucpValues.ts';

/** Pseudo-parameter: the initial state of charge when the protocol sets none (models.py). */
const INITIAL_SOC_PERCENT = 'Initial SOC [%]';
/** Owned by the protocol's initial_temperature when it sets one (models.py). */
const TEMPERATURE_PARAMETERS = ['Ambient temperature [K]', 'Initial temperature [K]'] as const;

const LITHIUM_ION_STATE = [
  'Initial concentration in negative electrode [mol.m-3]',
  'Initial concentration in positive electrode [mol.m-3]',
];
const DEFAULT_PARAMETER_SETS: Record<string, string> = {
  SPM: 'Chen2020',
  SPMe: 'Chen2020',
  DFN: 'Chen2020',
  ECM: 'ECM_Example',
};

/**
 * The parameters PyBaMM's set_initial_state writes for a model spec (the worker's
 * ModelRecipe.state_parameters), where they are known without asking PyBaMM: quick models
 * and the built-in models with default options and parameter set (read from PyBaMM 26.10).
 * Undefined otherwise: those clashes are left to the worker.
 */
export function initialStateParameters(spec: Record<string, unknown>): readonly string[] | undefined {
  if (spec.kind === 'quick') return ['Initial SoC'];
  const options = spec.options;
  if (options && (typeof options !== 'object' || Object.keys(options).length)) return undefined;
  const type = spec.type as string;
  const set = (spec.parameter_set as string | undefined) || DEFAULT_PARAMETER_SETS[type];
  if (type === 'ECM' && set === 'ECM_Example') return ['Initial SoC'];
  if ((type === 'SPM' || type === 'SPMe' || type === 'DFN') && set === 'Chen2020') return LITHIUM_ION_STATE;
  return undefined;
}

export interface InputsProblem {
  /** The input the problem is about: where the submission points the user. */
  name: string;
  /** Why its value is refused (the caller names the input and its value). */
  message: string;
}

/**
 * A checker of one simulation's inputs; answers the first problem the worker would refuse
 * them for, or undefined. Inputs are assumed finite and every input['...'] present (the
 * submission checks that first). `parameterNames` are the model's (describeModel).
 */
export function inputsChecker(
  ucp: Ucp,
  parameterNames: ReadonlySet<string>,
  stateParameters: readonly string[] | undefined,
) {
  const refs = new Set(inputReferences(ucp));
  const stepValues: { where: string; name: string }[] = [];
  ucp.steps.forEach((step, index) => {
    for (const [type, fields] of Object.entries(step)) {
      const name = inputName(fields.value);
      if (name !== undefined) stepValues.push({ where: `steps[${index}] (${type}).value`, name });
    }
  });
  const g = ucp.global ?? {};
  const stateType = g.initial_state_type as 'soc_percentage' | 'voltage' | undefined;
  const stateInput = inputName(g.initial_state_value);
  const temperatureInput = inputName(g.initial_temperature);

  return (inputs: Record<string, number>): InputsProblem | undefined => {
    for (const { where, name } of stepValues) {
      const v = inputs[name]!;
      if (v <= 0) return { name, message: `${where} (input['${name}']) must be greater than 0` };
    }
    // What the worker applies as parameter values (job.py prepare_point).
    const parameters = Object.keys(inputs).filter(
      (n) => n !== INITIAL_SOC_PERCENT && !(refs.has(n) && !parameterNames.has(n)),
    );
    for (const name of parameters) {
      const problem = parameterValueProblem(name, inputs[name]!);
      if (problem) return { name, message: problem };
    }

    let initialState = false;
    if (stateType === undefined) {
      if (INITIAL_SOC_PERCENT in inputs) {
        initialState = true;
        const problem = initialStateProblem('soc_percentage', inputs[INITIAL_SOC_PERCENT]!);
        if (problem) return { name: INITIAL_SOC_PERCENT, message: problem };
      }
    } else {
      initialState = true;
      if (INITIAL_SOC_PERCENT in inputs && !refs.has(INITIAL_SOC_PERCENT)) {
        return { name: INITIAL_SOC_PERCENT, message: "conflicts with the protocol's global.initial_state_value" };
      }
      // A number was checked with the protocol.
      if (stateInput !== undefined) {
        const problem = initialStateProblem(stateType, inputs[stateInput]!);
        if (problem)
          return { name: stateInput, message: `global.initial_state_value (input['${stateInput}']): ${problem}` };
      }
    }
    if (initialState && stateParameters) {
      const clash = parameters.filter((n) => stateParameters.includes(n)).sort()[0];
      if (clash !== undefined)
        return {
          name: clash,
          message: `conflicts with the initial state set by the protocol or '${INITIAL_SOC_PERCENT}'`,
        };
    }

    if (g.initial_temperature !== undefined) {
      if (temperatureInput !== undefined && inputs[temperatureInput]! <= ABSOLUTE_ZERO_C) {
        return {
          name: temperatureInput,
          message: `global.initial_temperature (input['${temperatureInput}']) ${TEMPERATURE_PROBLEM}`,
        };
      }
      const clash = parameters.filter((n) => (TEMPERATURE_PARAMETERS as readonly string[]).includes(n)).sort()[0];
      if (clash !== undefined)
        return { name: clash, message: "conflicts with the protocol's global.initial_temperature" };
    }
    return undefined;
  };
}
