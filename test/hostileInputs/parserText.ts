// Text made to slow a parser down: CSV cells and protocol conditions and lines of a megabyte, and
// a protocol body over the limit.
import { batch, fitFile, jsonRequest, MB, type HostileInput } from './send.ts';
import { codeIs, invalidProtocol, locIs } from './checks.ts';

const validate = (protocol: unknown) => jsonRequest('/protocols/validate', () => ({ protocol }));

export function parserTextInputs(): HostileInput[] {
  const csvQuotes = `Time [s],Current [A],Voltage [V]\n0,1,4.1${'"'.repeat(MB)}\n`;
  const csvCell = `Time [s],Current [A],Voltage [V]\n0,1,${'1'.repeat(MB)}x\n1,1,4.1\n`;

  return [
    {
      name: 'fit-from-file CSV cell of 1 MB digits',
      status: 422,
      check: locIs('body', 'file', 'Voltage [V]'),
      prepare: fitFile(csvCell, 'key'),
    },
    {
      name: 'fit-from-file CSV cell of 1 MB of quotes',
      status: 422,
      check: locIs('body', 'file', 'Voltage [V]'),
      prepare: fitFile(csvQuotes, 'key'),
    },
    {
      name: 'UCP end condition of 1 MB of "<"',
      status: 200,
      check: invalidProtocol,
      prepare: validate({ steps: [{ Rest: { duration: 10, ends: [`${'<'.repeat(MB)} a b`] } }] }),
    },
    {
      name: 'UCP threshold of 1 MB of digits',
      status: 200,
      check: invalidProtocol,
      prepare: validate({ steps: [{ Rest: { duration: 10, ends: [`Voltage < ${'1'.repeat(MB)}x`] } }] }),
    },
    {
      name: 'PyBaMM line with 1 MB of spaces',
      status: 200,
      check: invalidProtocol,
      prepare: validate(`Discharge at 1C for 1 hour${' '.repeat(MB)}x`),
    },
    {
      name: 'PyBaMM line of 1 MB of " or"',
      status: 200,
      check: invalidProtocol,
      prepare: validate(`Rest for 1 hour${' or'.repeat(MB / 3)}`),
    },
    {
      name: 'simulation protocol with 1 MB of spaces',
      status: 422,
      prepare: batch({ protocol_experiment: { protocol: `Discharge at 1C until${' '.repeat(MB)}x` } }),
    },
    {
      name: '/protocols/validate body of 2 MB',
      status: 413,
      check: codeIs('PAYLOAD_TOO_LARGE'),
      prepare: validate('Rest for 1 hour\n'.repeat((2 * MB) / 16)),
    },
  ];
}
