// The streaming LTTB sampler of plot reads against a whole-array reference implementation:
// the same rows are kept whatever the data, including rows without a voltage or a time.
import { describe, expect, it } from 'vitest';
import { Lttb } from '../api/services/parquetColumns.ts';

/** Textbook LTTB over whole arrays, with the plot read's rules for missing values. */
function referenceLttb(xsRaw: (number | null)[], ysRaw: (number | null)[], maxPoints: number): number[] {
  const n = xsRaw.length;
  let lastX = 0;
  const xs = xsRaw.map((x) => (typeof x === 'number' ? (lastX = x) : lastX));
  const ys = ysRaw.map((y) => (typeof y === 'number' ? y : Number.NaN));
  const buckets = maxPoints - 2;
  const every = (n - 2) / buckets;
  const start = (b: number) => (b >= buckets ? n - 1 : Math.floor(b * every) + 1);
  const kept = [0];
  let ax = xs[0]!;
  let ay = Number.isNaN(ys[0]!) ? 0 : ys[0]!;
  for (let b = 0; b < buckets; b++) {
    let avgX = ax;
    let avgY = ay;
    if (b === buckets - 1) {
      avgX = xs[n - 1]!;
      avgY = Number.isNaN(ys[n - 1]!) ? ay : ys[n - 1]!;
    } else {
      let sx = 0;
      let sy = 0;
      let count = 0;
      for (let i = start(b + 1); i < start(b + 2); i++) {
        if (Number.isNaN(ys[i]!)) continue;
        sx += xs[i]!;
        sy += ys[i]!;
        count++;
      }
      if (count) [avgX, avgY] = [sx / count, sy / count];
    }
    let best = start(b);
    let bestArea = -1;
    for (let i = start(b); i < start(b + 1); i++) {
      const area = Number.isNaN(ys[i]!) ? -1 : Math.abs((ax - avgX) * (ys[i]! - ay) - (ax - xs[i]!) * (avgY - ay));
      if (area > bestArea) [bestArea, best] = [area, i];
    }
    kept.push(best);
    if (!Number.isNaN(ys[best]!)) [ax, ay] = [xs[best]!, ys[best]!];
  }
  kept.push(n - 1);
  return kept;
}

function streamed(xs: (number | null)[], ys: (number | null)[], maxPoints: number): number[] {
  const kept: number[] = [];
  const sampler = new Lttb(xs.length, maxPoints, (row) => kept.push(row));
  xs.forEach((x, i) => sampler.push(i, x, ys[i]));
  return kept;
}

/** A deterministic pseudo-random series: a noisy voltage with runs of `gapRun` rows (of every 97) without one. */
function series(n: number, seed: number, gapRun: number) {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const xs: (number | null)[] = [];
  const ys: (number | null)[] = [];
  for (let i = 0; i < n; i++) {
    xs.push(gapRun && i % 31 === 7 ? null : i * 10 + rand());
    ys.push(i % 97 < gapRun ? null : 3.6 + 0.5 * Math.sin(i / 50) + 0.05 * rand());
  }
  return { xs, ys };
}

describe('LTTB sampler of plot reads', () => {
  it('keeps the same rows as a whole-array LTTB, first and last included', () => {
    // Runs of 30 rows without a voltage leave whole buckets of 10 rows without one.
    for (const [n, maxPoints, gapRun] of [
      [10_000, 500, 0],
      [10_001, 3, 0],
      [5_003, 777, 3],
      [10_002, 1_000, 30],
      [2_500, 40, 60],
    ] as const) {
      const { xs, ys } = series(n, n + maxPoints, gapRun);
      const kept = streamed(xs, ys, maxPoints);
      expect(kept, `n=${n} maxPoints=${maxPoints}`).toEqual(referenceLttb(xs, ys, maxPoints));
      expect(kept).toHaveLength(maxPoints);
      expect(kept[0]).toBe(0);
      expect(kept.at(-1)).toBe(n - 1);
      expect(kept.every((row, i) => i === 0 || row > kept[i - 1]!)).toBe(true);
    }
  });

  it('keeps a spike that a plain every-k-th-row sample would miss', () => {
    const n = 100_000;
    const xs = Array.from({ length: n }, (_, i) => i);
    const ys = xs.map((i) => (i === 54_321 ? 10 : 3.7));
    expect(streamed(xs, ys, 100)).toContain(54_321);
  });

  it('never chooses a row without a voltage when its bucket has one with', () => {
    const { xs, ys } = series(20_000, 7, 5);
    const kept = streamed(xs, ys, 1_000);
    expect(kept.slice(1, -1).filter((row) => ys[row] === null)).toEqual([]);
  });
});
