// One UCP step checked against the step table (tables/ucp.schema.json): its type, fields,
// mode, value, drive-cycle data, duration and 'ends' conditions, answered in canonical form.
import { UCP_ENDS_VARIABLES, UCP_STEPS } from '../../../tables/index.ts';
import { isDecimal } from '../../decimal.ts';
import { MAX_DRIVE_CYCLE_POINTS } from '../workLimits.ts';
import { canonicalValue, describe, ProtocolError, stepWhere } from './ucpValues.ts';

// The step table (types, their fields and modes) and the other field lists, from the schema.
export const STEP_TYPES: readonly string[] = UCP_STEPS.map((s) => s.type);
export type StepType = string;
const STEP_FIELDS: Record<StepType, readonly string[]> = Object.fromEntries(UCP_STEPS.map((s) => [s.type, s.fields]));
const STEP_MODES: Partial<Record<StepType, readonly string[]>> = Object.fromEntries(
  UCP_STEPS.filter((s) => s.modes).map((s) => [s.type, s.modes!]),
);
export const ENDS_VARIABLES: readonly string[] = UCP_ENDS_VARIABLES;

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

export function checkStep(raw: unknown, index: number, steps: unknown[]): Record<string, Record<string, unknown>> {
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
