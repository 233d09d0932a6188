// Unit conversion for model builders: a cell specification's {value, unit} to the unit in a
// PyBaMM parameter's name ("Positive electrode thickness [m]"). Units are products of SI
// prefixes and base units with integer powers: "mg/cm^2", "kg.m-3", "mol.m-3", "A.h", "%".

/** Dimensions: m, kg, s, A, mol, K. */
type Dims = [number, number, number, number, number, number];
interface Unit {
  scale: number;
  dims: Dims;
}

const D = (m = 0, kg = 0, s = 0, a = 0, mol = 0, k = 0): Dims => [m, kg, s, a, mol, k];
const BASES: Record<string, Unit> = {
  m: { scale: 1, dims: D(1) },
  g: { scale: 1e-3, dims: D(0, 1) },
  s: { scale: 1, dims: D(0, 0, 1) },
  min: { scale: 60, dims: D(0, 0, 1) },
  h: { scale: 3600, dims: D(0, 0, 1) },
  A: { scale: 1, dims: D(0, 0, 0, 1) },
  mol: { scale: 1, dims: D(0, 0, 0, 0, 1) },
  K: { scale: 1, dims: D(0, 0, 0, 0, 0, 1) },
  C: { scale: 1, dims: D(0, 0, 1, 1) },
  Ah: { scale: 3600, dims: D(0, 0, 1, 1) },
  V: { scale: 1, dims: D(2, 1, -3, -1) },
  W: { scale: 1, dims: D(2, 1, -3) },
  Wh: { scale: 3600, dims: D(2, 1, -2) },
  J: { scale: 1, dims: D(2, 1, -2) },
  Ohm: { scale: 1, dims: D(2, 1, -3, -2) },
  Ω: { scale: 1, dims: D(2, 1, -3, -2) },
  S: { scale: 1, dims: D(-2, -1, 3, 2) },
  N: { scale: 1, dims: D(1, 1, -2) },
  Pa: { scale: 1, dims: D(-1, 1, -2) },
  L: { scale: 1e-3, dims: D(3) },
  '%': { scale: 0.01, dims: D() },
  '-': { scale: 1, dims: D() },
  '1': { scale: 1, dims: D() },
};
const PREFIXES: Record<string, number> = {
  p: 1e-12,
  n: 1e-9,
  u: 1e-6,
  µ: 1e-6,
  μ: 1e-6,
  m: 1e-3,
  c: 1e-2,
  d: 1e-1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
};

function factor(token: string): Unit | null {
  const match = /^([^\d^+-]+|[-%1])\^?([+-]?\d+)?$/.exec(token);
  if (!match) return null;
  const [, symbol, power] = match;
  const base = BASES[symbol!] ?? (PREFIXES[symbol![0]!] && BASES[symbol!.slice(1)]);
  if (!base) return null;
  const scale = BASES[symbol!] ? base.scale : PREFIXES[symbol![0]!]! * base.scale;
  const n = power ? Number(power) : 1;
  return { scale: scale ** n, dims: base.dims.map((d) => d * n) as Dims };
}

/** The unit an expression names, or null when it is not one this reads. */
export function parseUnit(text: string): Unit | null {
  const trimmed = text.trim();
  if (trimmed === '') return { scale: 1, dims: D() };
  let out: Unit = { scale: 1, dims: D() };
  // Everything after a "/" is in the denominator ("mg/cm^2", "W/m.K").
  const [num, ...den] = trimmed.replace(/[()]/g, '').split('/');
  for (const [part, sign] of [[num!, 1] as const, ...den.map((d) => [d, -1] as const)]) {
    for (const token of part.split(/[.*·\s]+/).filter(Boolean)) {
      const f = factor(token);
      if (!f) return null;
      out = { scale: out.scale * f.scale ** sign, dims: out.dims.map((d, i) => d + sign * f.dims[i]!) as Dims };
    }
  }
  return out;
}

/** The unit in a parameter's name: "Positive electrode thickness [m]" → "m"; none → "". */
export function parameterUnit(name: string): string {
  return /\[([^\]]*)\]\s*$/.exec(name)?.[1]?.trim() ?? '';
}

/** `value` in `from` converted to `to`; a string saying why not when the units differ in kind. */
export function convert(value: number, from: string, to: string): number | string {
  const a = parseUnit(from);
  const b = parseUnit(to);
  if (!a) return `the unit "${from}" is not one Cellar reads`;
  if (!b) return `the parameter's unit "${to}" is not one Cellar reads`;
  if (a.dims.some((d, i) => d !== b.dims[i])) return `"${from}" cannot be converted to "${to}"`;
  // Scales are products of powers of ten: rounded to 12 digits, then a division by an exact
  // power rounds once (75.6 um is 7.56e-05 m, not 7.559999e-05).
  const ratio = Number((a.scale / b.scale).toPrecision(12));
  const inverse = Number((1 / ratio).toPrecision(12));
  return ratio < 1 && Number.isInteger(inverse) ? value / inverse : value * ratio;
}

/** A number as Python prints it (the client's figures): 7.56e-05, 0.001, 5.0. */
export function pyNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return n.toFixed(1);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}
