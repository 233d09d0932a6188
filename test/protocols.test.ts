// Protocol parsing (UCP YAML/JSON and PyBaMM experiment lines) and DOE expansion: pure
// logic, plus the protocol operations of the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  countExpansion,
  JumpLimitError,
  parseProtocol,
  ProtocolError,
  UCP_SCHEMA,
} from '../api/services/protocols/index.ts';
import { initialStateParameters, inputsChecker } from '../api/services/protocols/inputs.ts';
import { expandDoe, normalQuantile, type DoeRequest } from '../api/services/doe.ts';
import { client, newOrg, startApi, type TestApi } from './harness.ts';

function error(input: unknown, maxBackwardJumps?: number): ProtocolError {
  try {
    parseProtocol(input, maxBackwardJumps);
  } catch (err) {
    if (err instanceof ProtocolError) return err;
    throw err;
  }
  throw new Error('expected a ProtocolError');
}

describe('PyBaMM experiment lines', () => {
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
});

describe('UCP', () => {
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
});

describe('protocol limits and values as the worker has them', () => {
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
});

describe('design of experiments', () => {
  it('expands a grid as the cartesian product, ranges including both ends', () => {
    const points = expandDoe({
      sampling: 'grid',
      rows: [
        { type: 'discrete', name: 'a', values: [1, 2] },
        { type: 'range', name: 'b', min: 0, max: 1, count: 3 },
      ],
    });
    expect(points).toEqual([
      { a: 1, b: 0 },
      { a: 1, b: 0.5 },
      { a: 1, b: 1 },
      { a: 2, b: 0 },
      { a: 2, b: 0.5 },
      { a: 2, b: 1 },
    ]);
    expect(expandDoe(undefined)).toEqual([{}]);
    expect(
      expandDoe({ sampling: 'grid', rows: [{ type: 'discrete', name: 'a', values: [1] }], count: 99 }),
    ).toHaveLength(1);
  });

  it('draws random and Latin hypercube points, reproducibly with a seed', () => {
    const doe: DoeRequest = {
      sampling: 'latin_hypercube',
      count: 10,
      seed: 7,
      rows: [
        { type: 'range', name: 'x', min: 0, max: 10 },
        { type: 'normal', name: 'y', mean: 5, std: 1 },
      ],
    };
    const points = expandDoe(doe);
    expect(points).toHaveLength(10);
    expect(expandDoe(doe)).toEqual(points);
    // One point in each tenth of x's range.
    expect(points.map((p) => Math.floor(p.x!)).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const random = expandDoe({
      sampling: 'random',
      count: 200,
      seed: 1,
      rows: [{ type: 'discrete', name: 'z', values: [1, 2, 3] }],
    });
    expect(new Set(random.map((p) => p.z))).toEqual(new Set([1, 2, 3]));
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
  });
});

describe('protocol operations', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it("names the field of each DOE mistake, the spec's rules by the validator and the rest by hand", async () => {
    const c = client(api.url, (await newOrg(api.orm)).api_key);
    const loc = async (doe: unknown) => {
      const res = await c.post('/simulations/protocol/batch', {
        parameterized_model: { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } },
        protocol_experiment: { protocol: 'Discharge at 1C until 2.5 V' },
        design_parameters_doe: doe,
      });
      expect(res.status, res.text).toBe(422);
      return (res.body.detail as { loc: (string | number)[] }[]).map((i) => i.loc.join('.'));
    };
    const at = 'body.design_parameters_doe';
    expect(await loc({ sampling: 'grid', rows: [{ type: 'discrete', name: 'a' }] })).toContain(`${at}.rows.0.values`);
    expect(await loc({ sampling: 'grid', rows: [{ type: 'range', name: 'a', min: 0, max: 1 }] })).toContain(
      `${at}.rows.0.count`,
    );
    expect(await loc({ sampling: 'random', rows: [{ type: 'range', name: 'a', min: 0, max: 1 }] })).toContain(
      `${at}.count`,
    );
    expect(await loc({ sampling: 'sobol', rows: [] })).toContain(`${at}.sampling`);
    const twice = [
      { type: 'discrete', name: 'a', values: [1] },
      { type: 'discrete', name: 'a', values: [2] },
    ];
    expect(await loc({ sampling: 'grid', rows: twice })).toEqual([`${at}.rows.1.name`]);
    expect(await loc({ rows: [{ type: 'range', name: 'a', min: 1, max: 0, count: 2 }] })).toEqual([`${at}.rows.0.max`]);
    const grid = (a: number, b: number) => ({
      sampling: 'grid',
      rows: [
        { type: 'range', name: 'a', min: 0, max: 1, count: a },
        { type: 'range', name: 'b', min: 0, max: 1, count: b },
      ],
    });
    expect(await loc(grid(101, 100))).toEqual([`${at}.rows`]);
    // 10,000 points is within the limit.
    expect(expandDoe(grid(100, 100) as DoeRequest)).toHaveLength(10_000);
  });

  it('validates, lists input references, serves the schema and stores content-addressed templates', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const ok = await c.post('/protocols/validate', { protocol: 'Discharge at 1C until 2.5 V' });
    expect(ok.body).toMatchObject({
      valid: true,
      format: 'pybamm',
      protocol: { steps: [{ Discharge: { mode: 'C-rate', value: 1 } }] },
    });
    const bad = await c.post('/protocols/validate', {
      protocol: { steps: [{ Charge: { mode: 'C-rate', value: 'x', ends: ['Voltage > 4'] } }] },
    });
    expect(bad.status).toBe(200);
    expect(bad.body.valid).toBe(false);
    expect(bad.body.error).toMatch(/steps\[0\] \(Charge\)\.value/);
    // What the worker would refuse is reported the same way, naming step and field.
    const loops = await c.post('/protocols/validate', {
      protocol: { steps: [{ Rest: { duration: 5 } }, { Rest: { duration: 5 } }, { Goto: { step: 0, repeat: 1001 } }] },
    });
    expect(loops.body).toMatchObject({ valid: false, loc: ['steps', 2, 'Goto', 'repeat'] });
    expect(loops.body.error).toMatch(/^steps\[2\] \(Goto\)\.repeat: .*max_backward_jumps=1000/);
    const zero = await c.post('/protocols/validate', { protocol: 'Discharge at 1C until 0 V' });
    expect(zero.body).toMatchObject({ valid: false, loc: ['steps', 0, 'Discharge', 'ends', 0] });
    expect(zero.body.error).toMatch(/^steps\[0\] \(Discharge\)\.ends\[0\]: the voltage threshold must be positive/);
    const hot = await c.post('/protocols/validate', {
      protocol: { global: { initial_temperature: -300 }, steps: [{ Rest: { duration: 5 } }] },
    });
    expect(hot.body).toMatchObject({ valid: false, loc: ['global', 'initial_temperature'] });
    const refs = await c.post('/protocols/input_references', {
      protocol: {
        global: { initial_state_type: 'soc_percentage', initial_state_value: "input['SOC']" },
        steps: [{ Discharge: { mode: 'C-rate', value: "input['Rate']", ends: ['Voltage < 3'] } }],
      },
    });
    expect(refs.body).toEqual(['SOC', 'Rate']);
    const schema = await c.get('/discovery/schemas/protocol');
    expect(schema.body.$schema).toMatch(/2020-12/);
    expect(schema.body.$defs.step.oneOf.map((s: { title: string }) => s.title)).toEqual([
      'Charge',
      'Discharge',
      'Rest',
      'Hold',
      'DriveCycle',
      'Goto',
    ]);
    const chems = await c.get('/discovery/chemistries');
    expect(chems.body.chemistries.map((x: { name: string }) => x.name)).toContain('NMC/Graphite');

    const project = (await c.post('/projects', { name: 'Protocols' })).body;
    const body = {
      protocol_experiment: { protocol: 'Rest for 1 hour', name: 'Rest' },
      project_id: project.id,
      experiment_parameters: {},
    };
    const first = await c.post('/protocols/parse-to-template', body);
    expect(first.status, first.text).toBe(200);
    expect((await c.post('/protocols/parse-to-template', body)).body.template_id).toBe(first.body.template_id);
    const other = await c.post('/protocols/parse-to-template', {
      ...body,
      protocol_experiment: { protocol: 'Rest for 2 hours', name: 'Rest' },
    });
    expect(other.body.template_id).not.toBe(first.body.template_id);
    const light = await c.get(`/experiment_templates?project_id=${project.id}`);
    expect(light.body.total).toBe(2);
    expect(light.body.items[0]).not.toHaveProperty('protocol_config');
    const heavy = await c.get(`/experiment_templates?project_id=${project.id}&include=protocol_config,source_protocol`);
    expect(heavy.body.items[0].protocol_config.steps[0].Rest.duration).toBeGreaterThan(0);
    expect(heavy.body.items[0]).not.toHaveProperty('parameters_schema');
    expect((await c.get(`/experiment_templates?include=colour`)).status).toBe(422);
    const renamed = await c.patch(`/experiment_templates/${first.body.template_id}`, {
      name: 'Long rest',
      description: 'one hour',
    });
    expect(renamed.body).toMatchObject({ name: 'Long rest', description: 'one hour' });
    const stranger = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await stranger.get(`/experiment_templates/${first.body.template_id}`)).status).toBe(403);
    expect((await c.delete(`/experiment_templates/${first.body.template_id}`)).body).toEqual({
      id: first.body.template_id,
      deleted: true,
    });
    expect((await c.get(`/experiment_templates/${first.body.template_id}`)).status).toBe(404);
    const [doc] = await api.orm.em
      .fork()
      .execute(`select name from search_documents where entity_type = 'experiment_template' and entity_id = ?`, [
        other.body.template_id,
      ]);
    expect(doc).toEqual({ name: 'Rest' });

    // A protocol the worker would refuse is not stored as a template.
    const refused: [unknown, (string | number)[]][] = [
      [
        {
          steps: [
            ...Array.from({ length: 100 }, () => ({ Rest: { duration: 1 } })),
            { Goto: { step: 0, repeat: 500 } },
          ],
        },
        ['steps'],
      ],
      [
        { steps: [{ Hold: { mode: 'voltage', value: 4.2, ends: ['Current < -0.05'] } }] },
        ['steps', 0, 'Hold', 'ends', 0],
      ],
      [
        {
          global: { initial_state_type: 'soc_percentage', initial_state_value: 120 },
          steps: [{ Rest: { duration: 1 } }],
        },
        ['global', 'initial_state_value'],
      ],
    ];
    for (const [protocol, loc] of refused) {
      const res = await c.post('/protocols/parse-to-template', {
        ...body,
        protocol_experiment: { protocol, name: 'Refused' },
      });
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'protocol_experiment', 'protocol', ...loc]);
    }
    expect((await c.get(`/experiment_templates?project_id=${project.id}`)).body.total).toBe(1);
    // Loops beyond the default cap make a template: each batch counts them against its own max_backward_jumps.
    const ageing = await c.post('/protocols/parse-to-template', {
      ...body,
      protocol_experiment: {
        protocol: { steps: [{ Rest: { duration: 1 } }, { Goto: { step: 0, repeat: 1500 } }] },
        name: 'Ageing',
      },
    });
    expect(ageing.status, ageing.text).toBe(200);
  });
});
