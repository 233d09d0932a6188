// Design of experiments: grids, random and Latin hypercube points.
import { expect, it } from 'vitest';
import { expandDoe, normalQuantile, type DoeRequest } from '../../api/services/doe.ts';

export function doeCases() {
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
}
