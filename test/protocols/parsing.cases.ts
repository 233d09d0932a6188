// Protocol parsing: PyBaMM experiment lines converted to UCP, UCP as YAML, JSON text or an
// object, and the step, type and field each mistake is named by.
import { expect, it } from 'vitest';
import { parseProtocol } from '../../api/services/protocols/index.ts';
import { error } from './parseError.ts';

/** PyBaMM experiment lines. */
export function pybammLineCases() {
  it('converts every documented form to UCP', () => {
    const { ucp, format } = parseProtocol(
      'Discharge at 0.5C until 2.5V\nRest for 1 hour\nCharge at 1 A until 4.2 V\nHold at 4.2V until ' +
        'C/50\nDischarge at ' +
        '2 W for 10 minutes or until 3 V',
    );
    expect(format).toBe('pybamm');
    expect(ucp.steps).toEqual([
      { Discharge: { mode: 'C-rate', value: 0.5, ends: ['Voltage < 2.5'] } },
      { Rest: { duration: 3600 } },
      { Charge: { mode: 'current', value: 1, ends: ['Voltage > 4.2'] } },
      { Hold: { mode: 'voltage', value: 4.2, ends: ['C-rate < 0.02'] } },
      { Discharge: { mode: 'power', value: 2, duration: 600, ends: ['Voltage < 3'] } },
    ]);
  });

  it('reads C/n rates, milli-units, a list of lines and a logging period', () => {
    const { ucp } = parseProtocol([
      'Discharge at C/20 for 0.5 hours',
      'Charge at 500 mA until 4100 mV (10 second period)',
      'Hold at 4.1 V until 50 mA',
    ]);
    expect(ucp.steps[0]).toEqual({ Discharge: { mode: 'C-rate', value: 0.05, duration: 1800 } });
    expect(ucp.steps[1]).toEqual({ Charge: { mode: 'current', value: 0.5, ends: ['Voltage > 4.1'] } });
    expect(ucp.steps[2]).toEqual({ Hold: { mode: 'voltage', value: 4.1, ends: ['Current < 0.05'] } });
    expect(ucp.global).toEqual({ resolution: { time: 10 } });
  });

  it('names the line and step of a mistake', () => {
    expect(error('Rest for 1 hour\nDischarge at 1 parsec until 2.5 V').message).toMatch(
      /^line 2 \(steps\[1\] Discharge\): the value 1 needs a unit/,
    );
    expect(error('Rest for 1 hour\nJump to 0').message).toMatch(
      /^line 2 \(steps\[1\]\): "Jump to 0" is not a PyBaMM experiment step/,
    );
    expect(error('Discharge at 1C until 2.5 V\nCharge at 1C until soon').message).toMatch(
      /^line 2 \(steps\[1\] Charge\): "soon" is not an end condition/,
    );
    expect(error('Discharge at 1C').message).toMatch(/needs 'for <duration>' or 'until <condition>'/);
    expect(error('Rest until 3 V').path).toEqual(['steps', 0]);
    expect(error('Charge at 4.2 V until 1 A').message).toMatch(/Hold at 4.2 V/);
  });
}

/** UCP. */
export function ucpCases() {
  it('accepts the documented YAML and canonicalizes values', () => {
    const { ucp, format } = parseProtocol(`global:
  initial_state_type: soc_percentage
  initial_state_value: input['Initial SOC [%]']
  initial_temperature: 25.0
  resolution: {time: 1.0, voltage: 0.001, current: 0.001}
steps:
  - Charge: {mode: C-rate, value: "0.6", ends: ["Voltage > 4.2"]}
  - Rest: {duration: 3600}
  - Discharge: {mode: C-rate, value: "0.5", ends: ["Voltage < 2.5"]}
  - Goto: {step: 0, repeat: 2}
`);
    expect(format).toBe('ucp');
    expect(ucp.global).toEqual({
      initial_state_type: 'soc_percentage',
      initial_state_value: "input['Initial SOC [%]']",
      initial_temperature: 25,
      resolution: { time: 1, voltage: 0.001, current: 0.001 },
    });
    expect(ucp.steps[0]).toEqual({ Charge: { mode: 'C-rate', value: 0.6, ends: ['Voltage > 4.2'] } });
    expect(ucp.steps[3]).toEqual({ Goto: { step: 0, repeat: 2 } });
  });

  it('gives the same canonical form for JSON text and an object', () => {
    const doc = { steps: [{ Discharge: { mode: 'current', value: '2', ends: ['Voltage<3'] } }] };
    expect(parseProtocol(JSON.stringify(doc)).ucp).toEqual(parseProtocol(doc).ucp);
    expect(parseProtocol(doc).ucp.steps[0]).toEqual({
      Discharge: { mode: 'current', value: 2, ends: ['Voltage < 3'] },
    });
  });

  it('names the step index, type and field of each mistake', () => {
    const cases: [unknown, (string | number)[], RegExp][] = [
      [
        { steps: [{ Rest: { duration: 1 } }, { Jump: {} }] },
        ['steps', 1, 'Jump'],
        /^steps\[1\]: unknown step type "Jump"/,
      ],
      [
        { steps: [{ Charge: { mode: 'C-rate', value: 'quick', ends: ['Voltage > 4.2'] } }] },
        ['steps', 0, 'Charge', 'value'],
        /^steps\[0\] \(Charge\)\.value: must be a number/,
      ],
      [
        { steps: [{ Charge: { mode: 'C-rate', value: 'input[Rate]', ends: ['Voltage > 4.2'] } }] },
        ['steps', 0, 'Charge', 'value'],
        /write input\['Name'\]/,
      ],
      [
        { steps: [{ Discharge: { mode: 'C-rate', value: 1, ends: ['Temperature > 40'] } }] },
        ['steps', 0, 'Discharge', 'ends', 0],
        /unknown variable "Temperature"/,
      ],
      [
        { steps: [{ Discharge: { mode: 'amps', value: 1, ends: ['Voltage < 3'] } }] },
        ['steps', 0, 'Discharge', 'mode'],
        /must be one of C-rate, current, power/,
      ],
      [
        { steps: [{ Discharge: { mode: 'C-rate', value: 1 } }] },
        ['steps', 0, 'Discharge'],
        /needs a duration or at least one 'ends'/,
      ],
      [{ steps: [{ Rest: { duration: 5, colour: 'red' } }] }, ['steps', 0, 'Rest', 'colour'], /unknown field "colour"/],
      [
        { steps: [{ Rest: { duration: 5 } }, { Goto: { step: 1, repeat: 2 } }] },
        ['steps', 1, 'Goto', 'step'],
        /earlier step/,
      ],
      [
        { steps: [{ Discharge: { mode: 'C-rate', value: -1, ends: ['Voltage < 3'] } }] },
        ['steps', 0, 'Discharge', 'value'],
        /greater than 0/,
      ],
      [
        { global: { initial_state_type: 'soc_percentage' }, steps: [{ Rest: { duration: 5 } }] },
        ['global', 'initial_state_value'],
        /given together/,
      ],
      [{ steps: [] }, ['steps'], /non-empty/],
      ['steps: [unclosed', [], /neither PyBaMM experiment lines nor valid UCP/],
      // Values the worker refuses (ucp_parse.py _parse_end, job.py _initial_state and prepare_point).
      [
        { steps: [{ Discharge: { mode: 'C-rate', value: 1, ends: ['Voltage < 0'] } }] },
        ['steps', 0, 'Discharge', 'ends', 0],
        /voltage threshold must be positive/,
      ],
      [
        { steps: [{ Hold: { mode: 'voltage', value: 4.2, ends: ['Current < -0.05'] } }] },
        ['steps', 0, 'Hold', 'ends', 0],
        /Current is a magnitude, so the threshold must not be negative/,
      ],
      [
        { steps: [{ Hold: { mode: 'voltage', value: 4.2, ends: ['Voltage > 4', 'C-rate < -1'] } }] },
        ['steps', 0, 'Hold', 'ends', 1],
        /C-rate is a magnitude/,
      ],
      [{ steps: [{ Rest: { ends: ['Time > -5'] } }] }, ['steps', 0, 'Rest', 'ends', 0], /Time is a magnitude/],
      [
        { steps: [{ Rest: { ends: ['Voltage > 3', 'Time >= 0'] } }] },
        ['steps', 0, 'Rest', 'ends', 1],
        /^steps\[0\] \(Rest\)\.ends\[1\]: a 'Time > 0' condition ends the step at once/,
      ],
      [
        {
          global: { initial_state_type: 'soc_percentage', initial_state_value: 101 },
          steps: [{ Rest: { duration: 5 } }],
        },
        ['global', 'initial_state_value'],
        /between 0 and 100 %, got 101/,
      ],
      [
        { global: { initial_state_type: 'voltage', initial_state_value: '0' }, steps: [{ Rest: { duration: 5 } }] },
        ['global', 'initial_state_value'],
        /initial voltage must be positive/,
      ],
      [
        { global: { initial_temperature: -273.15 }, steps: [{ Rest: { duration: 5 } }] },
        ['global', 'initial_temperature'],
        /above absolute zero/,
      ],
      // Loops: jumps past the default cap, and an unrolled protocol past the worker's limit.
      [
        { steps: [{ Rest: { duration: 5 } }, { Goto: { step: 0, repeat: 1001 } }] },
        ['steps', 1, 'Goto', 'repeat'],
        /^steps\[1\] \(Goto\)\.repeat: the protocol needs more than max_backward_jumps=1000/,
      ],
      [
        {
          steps: [
            ...Array.from({ length: 100 }, () => ({ Rest: { duration: 1 } })),
            { Goto: { step: 0, repeat: 500 } },
          ],
        },
        ['steps'],
        /unroll into more than 50000 steps/,
      ],
    ];
    for (const [input, path, message] of cases) {
      const err = error(input);
      expect(err.path, err.message).toEqual(path);
      expect(err.message).toMatch(message);
    }
  });
}
