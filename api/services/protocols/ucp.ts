// The canonical protocol form (UCP JSON): its schema (tables/ucp.schema.json), a check
// that names the step (index and type) and field at fault, and the canonical form that is
// stored and hashed (numeric strings become numbers, placeholders read input['Name']).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { UCP_SCHEMA, UCP_TOP_FIELDS } from '../../../tables/index.ts';
import { countExpansion, DEFAULT_MAX_BACKWARD_JUMPS } from './ucpExpansion.ts';
import { checkGlobal } from './ucpGlobal.ts';
import { checkStep } from './ucpSteps.ts';
import { describe, inputName, ProtocolError, stepWhere, type Ucp } from './ucpValues.ts';

const ajv = new Ajv2020({ allErrors: false, strict: false });
const validateSchema = ajv.compile(UCP_SCHEMA);
const TOP_FIELDS = UCP_TOP_FIELDS;

/**
 * Checks a UCP document and answers its canonical form; throws ProtocolError. Its loops
 * are counted against `maxBackwardJumps` (Infinity: only the unrolled-size limit).
 */
export function canonicalUcp(doc: unknown, maxBackwardJumps: number = DEFAULT_MAX_BACKWARD_JUMPS): Ucp {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ProtocolError([], "protocol: must be an object with 'steps' (and optionally 'global')");
  }
  const d = doc as Record<string, unknown>;
  for (const key of Object.keys(d)) {
    if (!TOP_FIELDS.includes(key))
      throw new ProtocolError([key], `protocol: unknown field ${describe(key)}; allowed: ${TOP_FIELDS.join(', ')}`);
  }
  if (!Array.isArray(d.steps) || !d.steps.length)
    throw new ProtocolError(['steps'], 'steps: must be a non-empty list of steps');
  const steps = d.steps as unknown[];
  const out: Ucp = { steps: steps.map((s, i) => checkStep(s, i, steps)) };
  if (typeof d.name === 'string') out.name = d.name;
  if (typeof d.description === 'string') out.description = d.description;
  if (d.global !== undefined && d.global !== null) {
    const g = checkGlobal(d.global);
    if (Object.keys(g).length) out.global = g;
  }
  // The published schema has the last word, so what passes here also passes the worker's check.
  if (!validateSchema(out)) {
    const err = validateSchema.errors![0]!;
    const loc = err.instancePath
      .split('/')
      .filter(Boolean)
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const where =
      loc[0] === 'steps' && typeof loc[1] === 'number'
        ? `${stepWhere(loc[1], loc[2] as string | undefined)}${loc
            .slice(3)
            .map((s) => `.${s}`)
            .join('')}`
        : loc.join('.') || 'protocol';
    throw new ProtocolError(loc, `${where}: ${err.message}`);
  }
  countExpansion(out, maxBackwardJumps);
  return out;
}

/** Names of every input['...'] placeholder, in order of first use. */
export function inputReferences(ucp: Ucp): string[] {
  const values: unknown[] = [ucp.global?.initial_state_value, ucp.global?.initial_temperature];
  for (const step of ucp.steps) for (const fields of Object.values(step)) values.push(fields.value);
  const names: string[] = [];
  for (const v of values) {
    const n = inputName(v);
    if (n !== undefined && !names.includes(n)) names.push(n);
  }
  return names;
}
