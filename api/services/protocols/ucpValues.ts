// The pieces every UCP check shares: the document's shape, the error that names step and field,
// and how a value (number, numeric string or input['Name'] placeholder) becomes canonical.
import { isDecimal } from '../../decimal.ts';
import { quoted } from '../../values.ts';

const INPUT_REF = /^\s*input\[\s*(?:'([^']+)'|"([^"]+)")\s*\]\s*$/;

export type UcpValue = number | string;
export interface Ucp {
  name?: string;
  description?: string;
  global?: Record<string, unknown>;
  steps: Record<string, Record<string, unknown>>[];
}

/** A protocol mistake: `path` is the location inside the protocol, `message` names step and field. */
export class ProtocolError extends Error {
  readonly path: (string | number)[];
  constructor(path: (string | number)[], message: string) {
    super(message);
    this.path = path;
  }
}

/** The name inside input['Name'], or undefined when `v` is not a placeholder. */
export function inputName(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = INPUT_REF.exec(v);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** A value as a message quotes it, cut short: a message never echoes a megabyte. */
export function describe(v: unknown): string {
  if (typeof v === 'string') return quoted(v);
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

export function stepWhere(index: number, type?: string): string {
  return type ? `steps[${index}] (${type})` : `steps[${index}]`;
}

/** A number, a numeric string or a placeholder → the canonical value. */
export function canonicalValue(v: unknown, where: string, path: (string | number)[], positive: boolean): UcpValue {
  const name = inputName(v);
  if (name !== undefined) return `input['${name}']`;
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && isDecimal(v.trim())) n = Number(v);
  if (n === undefined || !Number.isFinite(n)) {
    const hint = typeof v === 'string' && v.trim().startsWith('input') ? `; write input['Name']` : '';
    throw new ProtocolError(
      path,
      `${where}: must be a number, a numeric string or input['Name'], got ${describe(v)}${hint}`,
    );
  }
  if (positive && n <= 0) {
    throw new ProtocolError(path, `${where}: must be greater than 0 (the step type sets the direction), got ${n}`);
  }
  return n;
}
