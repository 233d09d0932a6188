// The submissions the batch endpoints refuse with 422, each with the loc of its first issue: what
// the spec states, what the worker would refuse of the protocol and of each design point's
// values, and models and parameters it does not know.
import { QUICK } from './helpers.ts';

/** `ok` is a valid submission; `foreignStudy` a study of another project. */
export function refusedSubmissions(ok: Record<string, unknown>, foreignStudy: { id: string }) {
  const protocolAt = ['body', 'protocol_experiment', 'protocol'];
  const rateProtocol = {
    steps: [{ Discharge: { mode: 'C-rate', value: "input['Rate']", ends: ['Voltage < 2.5'] } }],
  };
  const fixedStart = {
    global: { initial_state_type: 'soc_percentage', initial_state_value: 50, initial_temperature: 25 },
    steps: [{ Rest: { duration: 60 } }],
  };
  const startFromInputs = {
    global: {
      initial_state_type: 'soc_percentage',
      initial_state_value: "input['SOC']",
      initial_temperature: "input['T']",
    },
    steps: [{ Rest: { duration: 60 } }],
  };
  const cases: [unknown, (string | number)[]][] = [
    [
      { ...ok, protocol_experiment: { protocol: { steps: [{ Jump: { to: 0 } }] } } },
      ['body', 'protocol_experiment', 'protocol', 'steps', 0, 'Jump'],
    ],
    [
      {
        ...ok,
        protocol_experiment: {
          protocol: { steps: [{ Discharge: { mode: 'C-rate', value: 'fast', ends: ['Voltage < 2.5'] } }] },
        },
      },
      ['body', 'protocol_experiment', 'protocol', 'steps', 0, 'Discharge', 'value'],
    ],
    [
      {
        ...ok,
        protocol_experiment: {
          protocol: { steps: [{ Discharge: { mode: 'C-rate', value: 1, ends: ['Temperature > 40'] } }] },
        },
      },
      ['body', 'protocol_experiment', 'protocol', 'steps', 0, 'Discharge', 'ends', 0],
    ],
    [
      { ...ok, design_parameters_doe: { sampling: 'grid', rows: [{ type: 'discrete', name: 'R0 [Ohm]' }] } },
      ['body', 'design_parameters_doe', 'rows', 0, 'values'],
    ],
    [
      {
        ...ok,
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.001, max: 0.01 }],
        },
      },
      ['body', 'design_parameters_doe', 'rows', 0, 'count'],
    ],
    [
      {
        ...ok,
        design_parameters_doe: {
          sampling: 'random',
          rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.001, max: 0.01 }],
        },
      },
      ['body', 'design_parameters_doe', 'count'],
    ],
    [
      {
        ...ok,
        design_parameters_doe: {
          sampling: 'grid',
          rows: [
            { type: 'range', name: 'R0 [Ohm]', min: 0.001, max: 0.01, count: 101 },
            { type: 'range', name: 'Initial SOC [%]', min: 50, max: 100, count: 100 },
          ],
        },
      },
      ['body', 'design_parameters_doe', 'rows'],
    ],
    [
      { ...ok, parameterized_model: { quick_model: { capacity: 5, chemistry: 'Unobtainium' } } },
      ['body', 'parameterized_model', 'quick_model', 'chemistry'],
    ],
    [{ ...ok, extra_variables: ['Flux capacitance [F]'] }, ['body', 'extra_variables', 0]],
    [{ ...ok, experiment_parameters: { 'Warp factor [-]': 9 } }, ['body', 'experiment_parameters', 'Warp factor [-]']],
    [
      {
        ...ok,
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'discrete', name: 'Warp factor [-]', values: [1] }],
        },
      },
      ['body', 'design_parameters_doe', 'rows', 0, 'name'],
    ],
    [{ ...ok, study_id: foreignStudy.id }, ['body', 'study_id']],
    [
      {
        ...ok,
        protocol_experiment: {
          protocol: { steps: [{ Discharge: { mode: 'C-rate', value: "input['Rate']", ends: ['Voltage < 2.5'] } }] },
        },
      },
      ['body', 'experiment_parameters'],
    ],
    // What the worker refuses of the protocol: loops past max_backward_jumps or its step limit, values out of range.
    [
      {
        ...ok,
        protocol_experiment: {
          protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 1001 } }] },
        },
      },
      [...protocolAt, 'steps', 1, 'Goto', 'repeat'],
    ],
    [
      {
        ...ok,
        protocol_experiment: { protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 3 } }] } },
        max_backward_jumps: 2,
      },
      [...protocolAt, 'steps', 1, 'Goto', 'repeat'],
    ],
    [
      {
        ...ok,
        protocol_experiment: {
          protocol: {
            steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 999 } }, { Goto: { step: 0, repeat: 99 } }],
          },
        },
        max_backward_jumps: 1_000_000,
      },
      [...protocolAt, 'steps'],
    ],
    [
      { ...ok, protocol_experiment: { protocol: 'Discharge at 1C until 0 V' } },
      [...protocolAt, 'steps', 0, 'Discharge', 'ends', 0],
    ],
    [
      { ...ok, protocol_experiment: { protocol: { steps: [{ Rest: { ends: ['Time > 0'] } }] } } },
      [...protocolAt, 'steps', 0, 'Rest', 'ends', 0],
    ],
    [
      {
        ...ok,
        protocol_experiment: {
          protocol: {
            global: { initial_state_type: 'soc_percentage', initial_state_value: 120 },
            steps: [{ Rest: { duration: 1 } }],
          },
        },
      },
      [...protocolAt, 'global', 'initial_state_value'],
    ],
    [
      {
        ...ok,
        protocol_experiment: {
          protocol: { global: { initial_temperature: -300 }, steps: [{ Rest: { duration: 1 } }] },
        },
      },
      [...protocolAt, 'global', 'initial_temperature'],
    ],
    // What the worker refuses of a design point's values, at the row or parameter that gives it.
    [
      {
        ...ok,
        protocol_experiment: { protocol: rateProtocol },
        design_parameters_doe: { sampling: 'grid', rows: [{ type: 'discrete', name: 'Rate', values: [1, -1] }] },
      },
      ['body', 'design_parameters_doe', 'rows', 0],
    ],
    [
      { ...ok, protocol_experiment: { protocol: rateProtocol }, experiment_parameters: { Rate: 0 } },
      ['body', 'experiment_parameters', 'Rate'],
    ],
    [
      { ...ok, experiment_parameters: { 'Initial SOC [%]': 150 } },
      ['body', 'experiment_parameters', 'Initial SOC [%]'],
    ],
    [
      { ...ok, protocol_experiment: { protocol: fixedStart }, experiment_parameters: { 'Initial SOC [%]': 80 } },
      ['body', 'experiment_parameters', 'Initial SOC [%]'],
    ],
    [
      { ...ok, protocol_experiment: { protocol: fixedStart }, experiment_parameters: { 'Initial SoC': 0.5 } },
      ['body', 'experiment_parameters', 'Initial SoC'],
    ],
    [
      {
        ...ok,
        protocol_experiment: { protocol: fixedStart },
        design_parameters_doe: {
          sampling: 'grid',
          rows: [
            { type: 'discrete', name: 'R0 [Ohm]', values: [0.004] },
            { type: 'discrete', name: 'Ambient temperature [K]', values: [298, 308] },
          ],
        },
      },
      ['body', 'design_parameters_doe', 'rows', 1],
    ],
    [
      {
        ...ok,
        protocol_experiment: { protocol: startFromInputs },
        design_parameters_doe: { sampling: 'grid', rows: [{ type: 'discrete', name: 'SOC', values: [50, 101] }] },
        experiment_parameters: { T: 25 },
      },
      ['body', 'design_parameters_doe', 'rows', 0],
    ],
    [
      { ...ok, protocol_experiment: { protocol: startFromInputs }, experiment_parameters: { SOC: 50, T: -300 } },
      ['body', 'experiment_parameters', 'T'],
    ],
    // A negative value of a quantity that cannot be negative (a resistance, a temperature, a thickness).
    [
      {
        ...ok,
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, -0.001] }],
        },
      },
      ['body', 'design_parameters_doe', 'rows', 0],
    ],
    [
      { ...ok, experiment_parameters: { 'Ambient temperature [K]': -5 } },
      ['body', 'experiment_parameters', 'Ambient temperature [K]'],
    ],
    [
      { ...ok, experiment_parameters: { 'Nominal cell capacity [A.h]': 0 } },
      ['body', 'experiment_parameters', 'Nominal cell capacity [A.h]'],
    ],
    [
      {
        ...ok,
        parameterized_model: { model: { type: 'SPM' }, parameters: { 'Negative electrode thickness [m]': -1e-5 } },
      },
      ['body', 'parameterized_model', 'parameters', 'Negative electrode thickness [m]'],
    ],
    // {"model", "parameters"}: a model id that is none, an inline config the worker would refuse.
    [
      { ...ok, parameterized_model: { model: 'no-such-model', parameters: {} } },
      ['body', 'parameterized_model', 'model'],
    ],
    [
      { ...ok, parameterized_model: { model: { id: '00000000-0000-4000-8000-000000000000' }, parameters: {} } },
      ['body', 'parameterized_model', 'model', 'id'],
    ],
    [
      { ...ok, parameterized_model: { model: { type: 'Bogus' }, parameters: {} } },
      ['body', 'parameterized_model', 'model', 'type'],
    ],
    [
      { ...ok, parameterized_model: { model: { type: 'SPM', colour: 'red' }, parameters: {} } },
      ['body', 'parameterized_model', 'model', 'colour'],
    ],
    [
      { ...ok, parameterized_model: { model: { type: 'SPM', kind: 'quick' }, parameters: {} } },
      ['body', 'parameterized_model', 'model', 'kind'],
    ],
    [
      { ...ok, parameterized_model: { model: { type: 'SPM', simulation_settings: { var_pts: { x_n: 0 } } } } },
      ['body', 'parameterized_model', 'model', 'simulation_settings', 'var_pts', 'x_n'],
    ],
    [
      { ...ok, parameterized_model: { model: { type: 'SPM', simulation_settings: { solver: { name: 'Euler' } } } } },
      ['body', 'parameterized_model', 'model', 'simulation_settings', 'solver', 'name'],
    ],
    [
      { ...ok, parameterized_model: { model: { type: 'SPM' }, parameters: { 'Flux capacitance [F]': 1 } } },
      ['body', 'parameterized_model', 'parameters', 'Flux capacitance [F]'],
    ],
    [
      {
        ...ok,
        parameterized_model: { model: { type: 'SPM', parameters: { "Warp's factor [-]": 1 } }, parameters: {} },
      },
      ['body', 'parameterized_model', 'model', 'parameters', "Warp's factor [-]"],
    ],
    [
      {
        ...ok,
        parameterized_model: { quick_model: { ...QUICK.quick_model, simulation_settings: { solver: { rtol: 0 } } } },
      },
      ['body', 'parameterized_model', 'quick_model', 'simulation_settings', 'solver', 'rtol'],
    ],
  ];
  return cases;
}
