// The canonical protocol form (UCP JSON): its schema (tables/ucp.schema.json), a check
// that names the step (index and type) and field at fault, and the canonical form that is
// stored and hashed (numeric strings become numbers, placeholders read input['Name']).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { UCP_ENDS_VARIABLES, UCP_GLOBAL_FIELDS, UCP_SCHEMA, UCP_STEPS, UCP_TOP_FIELDS } from '../../../tables/index.ts';
import { isDecimal } from '../../decimal.ts';
import { quoted } from '../../values.ts';
import { MAX_DRIVE_CYCLE_POINTS } from '../workLimits.ts';

export { UCP_SCHEMA };

const ajv = new Ajv2020({ allErrors: false, strict: false });
const validateSchema = ajv.compile(UCP_SCHEMA);

// The step table (types, their fields and modes) and the other field lists, from the schema.
export const STEP_TYPES: readonly string[] = UCP_STEPS.map((s) => s.type);
export type StepType = string;
const STEP_FIELDS: Record<StepType, readonly string[]> = Object.fromEntries(UCP_STEPS.map((s) => [s.type, s.fields]));
const STEP_MODES: Partial<Record<StepType, readonly string[]>> = Object.fromEntries(
  UCP_STEPS.filter((s) => s.modes).map((s) => [s.type, s.modes!]),
);
export const ENDS_VARIABLES: readonly string[] = UCP_ENDS_VARIABLES;
const GLOBAL_FIELDS = UCP_GLOBAL_FIELDS;
const TOP_FIELDS = UCP_TOP_FIELDS;

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
function describe(v: unknown): string {
  if (typeof v === 'string') return quoted(v);
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function stepWhere(index: number, type?: string): string {
  return type ? `steps[${index}] (${type})` : `steps[${index}]`;
}

/** A number, a numeric string or a placeholder → the canonical value. */
function canonicalValue(v: unknown, where: string, path: (string | number)[], positive: boolean): UcpValue {
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

/**
 * '<Variable> <op> <threshold>' → its three parts, or undefined. A hand scanner: the regular
 * expression it replaces backtracked quadratically on long runs of '<' or '>'.
 */
function splitCondition(cond: string): [string, string, string] | undefined {
  const s = cond.trim();
  let at = -1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '<' || s[i] === '>') {
      at = i;
      break;
    }
  }
  if (at <= 0) return undefined;
  const op = s[at + 1] === '=' ? `${s[at]}=` : s[at]!;
  const variable = s.slice(0, at).trimEnd();
  const value = s.slice(at + op.length).trimStart();
  if (!value || /\s/.test(variable) || /\s/.test(value)) return undefined;
  return [variable, op, value];
}

function checkEnds(raw: unknown, where: string, path: (string | number)[]): string[] {
  if (!Array.isArray(raw))
    throw new ProtocolError(path, `${where}: must be a list of conditions such as 'Voltage < 2.5'`);
  let zeroTime = -1;
  const ends = raw.map((cond, i) => {
    const at = `${where}[${i}]`;
    const m = typeof cond === 'string' ? splitCondition(cond) : undefined;
    if (!m)
      throw new ProtocolError(
        [...path, i],
        `${at}: ${describe(cond)} is not '<Variable> <op> <number>' such as 'Voltage < 2.5'`,
      );
    const [variable, op, value] = m;
    if (!(ENDS_VARIABLES as readonly string[]).includes(variable)) {
      throw new ProtocolError(
        [...path, i],
        `${at}: unknown variable ${describe(variable)}; allowed: ${ENDS_VARIABLES.join(', ')}`,
      );
    }
    if (!isDecimal(value)) throw new ProtocolError([...path, i], `${at}: threshold ${describe(value)} is not a number`);
    if (variable === 'Time' && op.startsWith('<')) {
      throw new ProtocolError([...path, i], `${at}: 'Time < ...' is true from the start; use 'Time > ...' or duration`);
    }
    // The worker's parser (ucp_parse.py _parse_end) refuses these thresholds.
    const threshold = Number(value);
    if (variable === 'Voltage' && threshold <= 0)
      throw new ProtocolError([...path, i], `${at}: the voltage threshold must be positive, got ${threshold}`);
    if (variable !== 'Voltage' && threshold < 0) {
      throw new ProtocolError(
        [...path, i],
        `${at}: ${variable} is a magnitude, so the threshold must not be negative, got ${threshold}`,
      );
    }
    if (variable === 'Time' && threshold <= 0 && zeroTime < 0) zeroTime = i;
    return `${variable} ${op} ${threshold}`;
  });
  // Checked after every condition, as the worker does: a zero time limit ends the step at once.
  if (zeroTime >= 0)
    throw new ProtocolError([...path, zeroTime], `${where}[${zeroTime}]: a 'Time > 0' condition ends the step at once`);
  return ends;
}

function checkStep(raw: unknown, index: number, steps: unknown[]): Record<string, Record<string, unknown>> {
  const base = ['steps', index];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length !== 1) {
    throw new ProtocolError(
      base,
      `${stepWhere(index)}: each step is a one-key object {<StepType>: ` +
        `{fields}} with StepType one of ${STEP_TYPES.join(', ')}`,
    );
  }
  const [type, rawFields] = Object.entries(raw)[0]!;
  if (!(STEP_TYPES as readonly string[]).includes(type)) {
    throw new ProtocolError(
      [...base, type],
      `${stepWhere(index)}: unknown step type ${describe(type)}; allowed: ${STEP_TYPES.join(', ')}`,
    );
  }
  const t = type as StepType;
  const where = stepWhere(index, t);
  const path = [...base, t];
  const fields = (rawFields ?? {}) as Record<string, unknown>;
  if (typeof fields !== 'object' || Array.isArray(fields))
    throw new ProtocolError(path, `${where}: must be an object of fields`);
  for (const key of Object.keys(fields)) {
    if (!STEP_FIELDS[t]!.includes(key)) {
      throw new ProtocolError(
        [...path, key],
        `${where}: unknown field ${describe(key)}; allowed: ${STEP_FIELDS[t]!.join(', ')}`,
      );
    }
  }
  const out: Record<string, unknown> = {};
  if (fields.label !== undefined) {
    if (typeof fields.label !== 'string')
      throw new ProtocolError([...path, 'label'], `${where}.label: must be a string`);
    out.label = fields.label;
  }
  if (t === 'Goto') {
    const { step, repeat } = fields;
    if (!Number.isInteger(step) || (step as number) < 0 || (step as number) >= index) {
      throw new ProtocolError(
        [...path, 'step'],
        `${where}.step: must be the index of an earlier step (0 to ${index - 1}), got ${describe(step)}`,
      );
    }
    const target = steps[step as number];
    if (target && typeof target === 'object' && 'Goto' in target) {
      throw new ProtocolError([...path, 'step'], `${where}.step: must point to a step that is not itself a Goto`);
    }
    if (!Number.isInteger(repeat) || (repeat as number) < 1) {
      throw new ProtocolError(
        [...path, 'repeat'],
        `${where}.repeat: must be an integer >= 1 (the number of backward jumps), got ${describe(repeat)}`,
      );
    }
    return { Goto: { step, repeat, ...out } };
  }
  const modes = STEP_MODES[t];
  if (modes) {
    if (!modes.includes(fields.mode as string)) {
      throw new ProtocolError(
        [...path, 'mode'],
        `${where}.mode: must be one of ${modes.join(', ')}, got ${describe(fields.mode)}`,
      );
    }
    out.mode = fields.mode;
  }
  if (t === 'Charge' || t === 'Discharge' || t === 'Hold') {
    if (fields.value === undefined || fields.value === null)
      throw new ProtocolError([...path, 'value'], `${where}.value: is required`);
    out.value = canonicalValue(fields.value, `${where}.value`, [...path, 'value'], true);
  }
  if (t === 'DriveCycle') {
    const data = fields.data;
    if (!Array.isArray(data) || data.length < 2) {
      throw new ProtocolError([...path, 'data'], `${where}.data: must be a list of at least two [time_s, value] pairs`);
    }
    if (data.length > MAX_DRIVE_CYCLE_POINTS) {
      throw new ProtocolError(
        [...path, 'data'],
        `${where}.data: has ${data.length} pairs; at most ${MAX_DRIVE_CYCLE_POINTS}`,
      );
    }
    let last = -Infinity;
    out.data = data.map((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2 || pair.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
        throw new ProtocolError([...path, 'data', i], `${where}.data[${i}]: must be a [time_s, value] pair of numbers`);
      }
      if (i === 0 && pair[0] !== 0)
        throw new ProtocolError([...path, 'data', 0], `${where}.data[0]: the drive cycle must start at time 0`);
      if (pair[0] <= last)
        throw new ProtocolError([...path, 'data', i], `${where}.data[${i}]: times must be strictly increasing`);
      last = pair[0];
      return [pair[0], pair[1]];
    });
  }
  if (fields.duration !== undefined && fields.duration !== null) {
    const d = fields.duration;
    if (typeof d !== 'number' || !Number.isFinite(d) || d <= 0) {
      throw new ProtocolError(
        [...path, 'duration'],
        `${where}.duration: must be a number of seconds greater than 0, got ${describe(d)}`,
      );
    }
    out.duration = d;
  }
  if (fields.ends !== undefined && fields.ends !== null)
    out.ends = checkEnds(fields.ends, `${where}.ends`, [...path, 'ends']);
  if (t !== 'DriveCycle' && out.duration === undefined && !(out.ends as unknown[] | undefined)?.length) {
    throw new ProtocolError(path, `${where}: needs a duration or at least one 'ends' condition to finish`);
  }
  return { [t]: out };
}

export const ABSOLUTE_ZERO_C = -273.15;

/** Why the worker refuses this initial state (job.py _initial_state), or undefined. */
export function initialStateProblem(type: 'soc_percentage' | 'voltage', value: number): string | undefined {
  if (type === 'soc_percentage')
    return value >= 0 && value <= 100 ? undefined : 'a state of charge must be between 0 and 100 %';
  return value > 0 ? undefined : 'an initial voltage must be positive';
}

export const TEMPERATURE_PROBLEM = `must be above absolute zero (${ABSOLUTE_ZERO_C} degC)`;

function checkGlobal(raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ProtocolError(['global'], 'global: must be an object');
  const g = raw as Record<string, unknown>;
  for (const key of Object.keys(g)) {
    if (!GLOBAL_FIELDS.includes(key))
      throw new ProtocolError(
        ['global', key],
        `global: unknown field ${describe(key)}; allowed: ${GLOBAL_FIELDS.join(', ')}`,
      );
  }
  const out: Record<string, unknown> = {};
  const hasType = g.initial_state_type !== undefined && g.initial_state_type !== null;
  const hasValue = g.initial_state_value !== undefined && g.initial_state_value !== null;
  if (hasType !== hasValue) {
    throw new ProtocolError(
      ['global', hasType ? 'initial_state_value' : 'initial_state_type'],
      'global: initial_state_type and initial_state_value must be given together',
    );
  }
  if (hasType) {
    if (g.initial_state_type !== 'soc_percentage' && g.initial_state_type !== 'voltage') {
      throw new ProtocolError(
        ['global', 'initial_state_type'],
        `global.initial_state_type: must be soc_percentage or voltage, got ${describe(g.initial_state_type)}`,
      );
    }
    out.initial_state_type = g.initial_state_type;
    const v = canonicalValue(
      g.initial_state_value,
      'global.initial_state_value',
      ['global', 'initial_state_value'],
      false,
    );
    // A number is checked here; a placeholder per design point (both as job.py _initial_state).
    if (typeof v === 'number') {
      const problem = initialStateProblem(g.initial_state_type, v);
      if (problem)
        throw new ProtocolError(['global', 'initial_state_value'], `global.initial_state_value: ${problem}, got ${v}`);
    }
    out.initial_state_value = v;
  }
  if (g.initial_temperature !== undefined && g.initial_temperature !== null) {
    const t = canonicalValue(
      g.initial_temperature,
      'global.initial_temperature',
      ['global', 'initial_temperature'],
      false,
    );
    if (typeof t === 'number' && t <= ABSOLUTE_ZERO_C) {
      throw new ProtocolError(
        ['global', 'initial_temperature'],
        `global.initial_temperature: ${TEMPERATURE_PROBLEM}, got ${t}`,
      );
    }
    out.initial_temperature = t;
  }
  if (g.resolution !== undefined && g.resolution !== null) {
    const r = g.resolution as Record<string, unknown>;
    if (typeof r !== 'object' || Array.isArray(r))
      throw new ProtocolError(['global', 'resolution'], 'global.resolution: must be an object');
    const res: Record<string, number> = {};
    for (const [k, v] of Object.entries(r)) {
      if (!['time', 'voltage', 'current'].includes(k)) {
        throw new ProtocolError(
          ['global', 'resolution', k],
          `global.resolution: unknown field ${describe(k)}; allowed: time, voltage, current`,
        );
      }
      const n = typeof v === 'string' && isDecimal(v.trim()) ? Number(v) : v;
      if (typeof n !== 'number' || !(n > 0))
        throw new ProtocolError(['global', 'resolution', k], `global.resolution.${k}: must be a number greater than 0`);
      res[k] = n;
    }
    out.resolution = res;
  }
  return out;
}

/** The worker's default cap on backward jumps and its limit on the unrolled protocol (ucp_expand.py). */
export const DEFAULT_MAX_BACKWARD_JUMPS = 1000;
export const MAX_EXPANDED_STEPS = 50_000;

/** The jumps past max_backward_jumps; `step` is the Goto that made one too many. */
export class JumpLimitError extends ProtocolError {
  readonly step: number;
  constructor(step: number, maxBackwardJumps: number) {
    super(
      ['steps', step, 'Goto', 'repeat'],
      `${stepWhere(step, 'Goto')}.repeat: ` +
        `the protocol needs more than max_backward_jumps=${maxBackwardJumps} backward jumps in total (nested loops ` +
        `included)`,
    );
    this.step = step;
  }
}

/**
 * Counts what ucp_expand.py expand() unrolls, step for step, without building the list, and
 * refuses what it refuses: more than `maxBackwardJumps` jumps (JumpLimitError) or more than
 * MAX_EXPANDED_STEPS simulated steps, whichever the walk meets first. A Goto jumps back
 * `repeat` times and re-arms when passed, so nested loops multiply. Each jump lands on a
 * non-Goto step, and each Goto is passed only after one of its jumps, so the walk stays
 * within a few times MAX_EXPANDED_STEPS iterations.
 */
export function countExpansion(
  ucp: Ucp,
  maxBackwardJumps: number = DEFAULT_MAX_BACKWARD_JUMPS,
): { steps: number; jumps: number } {
  const gotos = ucp.steps.map((s) =>
    s.Goto ? { step: s.Goto.step as number, repeat: s.Goto.repeat as number } : undefined,
  );
  const remaining = new Map<number, number>();
  let planned = 0;
  let jumps = 0;
  let position = 0;
  while (position < gotos.length) {
    const goto = gotos[position];
    if (!goto) {
      planned += 1;
      if (planned > MAX_EXPANDED_STEPS)
        throw new ProtocolError(['steps'], `steps: the loops unroll into more than ${MAX_EXPANDED_STEPS} steps`);
      position += 1;
      continue;
    }
    const left = remaining.get(position) ?? goto.repeat;
    if (left === 0) {
      remaining.delete(position);
      position += 1;
      continue;
    }
    remaining.set(position, left - 1);
    jumps += 1;
    if (jumps > maxBackwardJumps) throw new JumpLimitError(position, maxBackwardJumps);
    position = goto.step;
  }
  return { steps: planned, jumps };
}

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
