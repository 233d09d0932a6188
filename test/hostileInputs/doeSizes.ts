// DOE grids whose points could never be made: rows of billions, a product of billions.
import { batch, type HostileInput } from './send.ts';
import { locIs } from './checks.ts';

const rangeRow = (name: string, count: number) => ({ type: 'range', name, min: 0.001, max: 0.01, count });

export function doeSizeInputs(): HostileInput[] {
  return [
    {
      name: 'DOE range row of count 50,000,000',
      status: 422,
      check: locIs('body', 'design_parameters_doe', 'rows', 0, 'count'),
      prepare: batch({ design_parameters_doe: { sampling: 'grid', rows: [rangeRow('R0 [Ohm]', 50_000_000)] } }),
    },
    {
      name: 'DOE range row of count 4,000,000,000',
      status: 422,
      check: locIs('body', 'design_parameters_doe', 'rows', 0, 'count'),
      prepare: batch({ design_parameters_doe: { sampling: 'grid', rows: [rangeRow('R0 [Ohm]', 4_000_000_000)] } }),
    },
    {
      name: 'DOE grid of 10,000^3 points',
      status: 422,
      check: locIs('body', 'design_parameters_doe', 'rows'),
      prepare: batch({
        design_parameters_doe: {
          sampling: 'grid',
          rows: [rangeRow('R0 [Ohm]', 10_000), rangeRow('a', 10_000), rangeRow('b', 10_000)],
        },
      }),
    },
  ];
}
