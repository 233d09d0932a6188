// Protocol limits and values as the worker has them: jump and step counts, the values at the
// limits, the same limits in the published schema, and the inputs of each design point.
import { expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { countExpansion, JumpLimitError, parseProtocol, UCP_SCHEMA } from '../../api/services/protocols/index.ts';
import { initialStateParameters, inputsChecker } from '../../api/services/protocols/inputs.ts';
import { error } from './parseError.ts';

export function workerLimitCases() {
  const ucp = (doc: unknown) => parseProtocol(doc, Infinity).ucp;

  it('counts jumps and unrolled steps as ucp_expand.py expand() does, nested loops re-armed', () => {
    // The cases of pyworker tests/test_simulation_protocol.py.
    const flat = ucp({
      steps: [
        { Rest: { duration: 10 } },
        { Discharge: { mode: 'C-rate', value: 1, ends: ['Voltage < 3'] } },
        { Charge: { mode: 'current', value: 2.5, ends: ['Voltage > 4.1'] } },
        { Goto: { step: 1, repeat: 2 } },
        { Rest: { duration: 60 } },
      ],
    });
    expect(countExpansion(flat)).toEqual({ steps: 8, jumps: 2 });
    const nested = ucp({
      steps: [
        { Discharge: { mode: 'C-rate', value: 1, duration: 60 } },
        { Rest: { duration: 10 } },
        { Goto: { step: 1, repeat: 1 } },
        { Goto: { step: 0, repeat: 1 } },
      ],
    });
    expect(countExpansion(nested, 3)).toEqual({ steps: 6, jumps: 3 });
    // The third jump is the inner Goto's, on the second pass.
    const over = (() => {
      try {
        countExpansion(nested, 2);
      } catch (err) {
        return err;
      }
    })();
    expect(over).toBeInstanceOf(JumpLimitError);
    expect((over as JumpLimitError).path).toEqual(['steps', 2, 'Goto', 'repeat']);
    expect((over as JumpLimitError).message).toMatch(/max_backward_jumps=2 /);
    // 10 x 100 passes of a two-step body: 2000 steps, 99 * 10 + 9 jumps.
    const deep = ucp({
      steps: [
        { Rest: { duration: 1 } },
        { Rest: { duration: 1 } },
        { Goto: { step: 0, repeat: 99 } },
        { Goto: { step: 0, repeat: 9 } },
      ],
    });
    expect(countExpansion(deep, Infinity)).toEqual({ steps: 2000, jumps: 999 });
    expect(() => countExpansion(deep, 998)).toThrow(JumpLimitError);
    // A cap above the default admits more jumps; the step limit holds whatever the cap.
    expect(
      parseProtocol({ steps: [{ Rest: { duration: 5 } }, { Goto: { step: 0, repeat: 1001 } }] }, 1001).ucp.steps,
    ).toHaveLength(2);
    expect(
      error(
        { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 999 } }, { Goto: { step: 0, repeat: 99 } }] },
        1e9,
      ).path,
    ).toEqual(['steps']);
    expect(error({ steps: [{ Rest: { duration: 5 } }, { Goto: { step: 0, repeat: 3 } }] }, 2).path).toEqual([
      'steps',
      1,
      'Goto',
      'repeat',
    ]);
  });

  it('accepts the values the worker accepts, at the limits', () => {
    const ok = ucp({
      global: { initial_state_type: 'soc_percentage', initial_state_value: 0, initial_temperature: -273 },
      steps: [{ Hold: { mode: 'voltage', value: 4.2, ends: ['Current < -0', 'C-rate < 0', 'Time > 0.5'] } }],
    });
    expect(ok.steps[0]).toEqual({
      Hold: { mode: 'voltage', value: 4.2, ends: ['Current < 0', 'C-rate < 0', 'Time > 0.5'] },
    });
    expect(
      ucp({
        global: { initial_state_type: 'soc_percentage', initial_state_value: 100 },
        steps: [{ Rest: { duration: 1 } }],
      }).global,
    ).toMatchObject({ initial_state_value: 100 });
    expect(
      ucp({ global: { initial_state_type: 'voltage', initial_state_value: 0.1 }, steps: [{ Rest: { duration: 1 } }] })
        .global,
    ).toMatchObject({ initial_state_value: 0.1 });
  });

  it('publishes the same limits in the protocol schema', () => {
    const validate = new Ajv2020({ strict: false }).compile(UCP_SCHEMA);
    const doc = (ends: string[], global?: Record<string, unknown>) => ({
      ...(global ? { global } : {}),
      steps: [{ Rest: { ends } }],
    });
    for (const refused of [
      ['Voltage < 0'],
      ['Voltage < -1'],
      ['Voltage > 0.0e3'],
      ['Current < -0.1'],
      ['C-rate < -1e-3'],
      ['Time > 0'],
      ['Time >= -5'],
      ['Time < 5'],
    ]) {
      expect(validate(doc(refused)), refused[0]).toBe(false);
    }
    for (const accepted of [
      ['Voltage < 0.5'],
      ['Current < 0'],
      ['Current < -0.0'],
      ['C-rate < 0.02'],
      ['Time > 0.5'],
      ['Time >= 10'],
    ]) {
      expect(validate(doc(accepted)), `${accepted[0]}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const soc = (v: unknown) => doc(['Voltage < 3'], { initial_state_type: 'soc_percentage', initial_state_value: v });
    const volts = (v: unknown) => doc(['Voltage < 3'], { initial_state_type: 'voltage', initial_state_value: v });
    expect(
      [soc(-1), soc(100.5), volts(0), doc(['Voltage < 3'], { initial_temperature: -273.15 })].map((d) => validate(d)),
    ).toEqual([false, false, false, false]);
    expect(
      [soc(0), soc(100), volts(3.5), soc("input['SOC']"), doc(['Voltage < 3'], { initial_temperature: -273 })].map(
        (d) => validate(d),
      ),
    ).toEqual([true, true, true, true, true]);
  });

  it('checks the inputs of each design point as job.py does', () => {
    const params = new Set([
      'Initial SoC',
      'R0 [Ohm]',
      'Ambient temperature [K]',
      'Initial temperature [K]',
      'Initial SOC [%]',
    ]);
    const quick = initialStateParameters({ kind: 'quick', capacity: 5, chemistry: 'NMC/Graphite' });
    expect(quick).toEqual(['Initial SoC']);
    expect(
      initialStateParameters({ kind: 'pybamm', type: 'SPMe', options: {}, parameter_set: 'Chen2020' }),
    ).toHaveLength(2);
    // Unknown without asking PyBaMM: left to the worker.
    expect(initialStateParameters({ kind: 'pybamm', type: 'SPM', options: { thermal: 'lumped' } })).toBeUndefined();
    expect(initialStateParameters({ kind: 'pybamm', type: 'SPM', parameter_set: 'Marquis2019' })).toBeUndefined();

    const rate = inputsChecker(
      ucp({
        steps: [
          { Rest: { duration: 1 } },
          { Discharge: { mode: 'C-rate', value: "input['Rate']", ends: ['Voltage < 3'] } },
        ],
      }),
      params,
      quick,
    );
    expect(rate({ Rate: 1 })).toBeUndefined();
    expect(rate({ Rate: 0 })).toEqual({
      name: 'Rate',
      message: "steps[1] (Discharge).value (input['Rate']) must be greater than 0",
    });
    expect(rate({ Rate: 1, 'Initial SOC [%]': 100 })).toBeUndefined();
    expect(rate({ Rate: 1, 'Initial SOC [%]': -1 })).toMatchObject({
      name: 'Initial SOC [%]',
      message: expect.stringMatching(/between 0 and 100/),
    });
    // 'Initial SOC [%]' sets the initial state, which a state parameter would contradict.
    expect(rate({ Rate: 1, 'Initial SOC [%]': 50, 'Initial SoC': 0.5 })).toMatchObject({
      name: 'Initial SoC',
      message: expect.stringMatching(/conflicts with the initial state/),
    });
    expect(rate({ Rate: 1, 'Initial SoC': 0.5 })).toBeUndefined();
    expect(
      inputsChecker(
        ucp({ steps: [{ Rest: { duration: 1 } }] }),
        params,
        undefined,
      )({ 'Initial SOC [%]': 50, 'Initial SoC': 0.5 }),
    ).toBeUndefined();

    const fixed = inputsChecker(
      ucp({
        global: { initial_state_type: 'soc_percentage', initial_state_value: 50, initial_temperature: 25 },
        steps: [{ Rest: { duration: 1 } }],
      }),
      params,
      quick,
    );
    expect(fixed({ 'R0 [Ohm]': 0.01 })).toBeUndefined();
    expect(fixed({ 'Initial SOC [%]': 80 })).toMatchObject({
      name: 'Initial SOC [%]',
      message: expect.stringMatching(/conflicts with the protocol's global.initial_state_value/),
    });
    expect(fixed({ 'Initial SoC': 0.2 })).toMatchObject({ name: 'Initial SoC' });
    expect(fixed({ 'R0 [Ohm]': 0.01, 'Initial temperature [K]': 300 })).toMatchObject({
      name: 'Initial temperature [K]',
      message: expect.stringMatching(/initial_temperature/),
    });

    const placeholders = inputsChecker(
      ucp({
        global: {
          initial_state_type: 'voltage',
          initial_state_value: "input['V0']",
          initial_temperature: "input['T']",
        },
        steps: [{ Rest: { duration: 1 } }],
      }),
      params,
      quick,
    );
    expect(placeholders({ V0: 3.8, T: 25 })).toBeUndefined();
    expect(placeholders({ V0: 0, T: 25 })).toMatchObject({
      name: 'V0',
      message: expect.stringMatching(/initial voltage must be positive/),
    });
    expect(placeholders({ V0: 3.8, T: -280 })).toMatchObject({
      name: 'T',
      message: expect.stringMatching(/absolute zero/),
    });
    const socInput = inputsChecker(
      ucp({
        global: { initial_state_type: 'soc_percentage', initial_state_value: "input['Initial SOC [%]']" },
        steps: [{ Rest: { duration: 1 } }],
      }),
      params,
      quick,
    );
    expect(socInput({ 'Initial SOC [%]': 40 })).toBeUndefined();
    expect(socInput({ 'Initial SOC [%]': 140 })).toMatchObject({ name: 'Initial SOC [%]' });
  });
}
