// PyBaMM experiment lines ("Discharge at 0.5C until 2.5V", "Rest for 1 hour",
// "Charge at 1 A until 4.2 V", "Hold at 4.2V until C/50",
// "Discharge at 2 W for 10 minutes or until 3 V") → UCP steps, one step per line.
import { ProtocolError, type Ucp } from './ucpValues.ts';
import { quoted } from '../../values.ts';

const NUM = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const DURATION_UNITS: [RegExp, number][] = [
  [/^(s|sec|secs|second|seconds)$/i, 1],
  [/^(m|min|mins|minute|minutes)$/i, 60],
  [/^(h|hr|hrs|hour|hours)$/i, 3600],
  [/^(d|day|days)$/i, 86400],
];
const STEP_LINE = new RegExp(
  String.raw`^(discharge|charge|hold)\s+at\s+(C\s*/\s*${NUM}|${NUM})\s*(C|A|mA|W|mW|V|mV)?\b(.*)$`,
  'i',
);
const REST_LINE = /^rest\b(.*)$/i;
const PERIOD = new RegExp(String.raw`\(\s*(${NUM})\s*([a-z]+)\s+period\s*\)`, 'i');

type Condition = { variable: 'Voltage' | 'Current' | 'C-rate'; value: number };

function fail(line: number, step: string | undefined, message: string): never {
  const where = `line ${line + 1} (steps[${line}]${step ? ` ${step}` : ''})`;
  throw new ProtocolError(['steps', line], `${where}: ${message}`);
}

function duration(text: string, line: number, step: string): number {
  const m = new RegExp(String.raw`^(${NUM})\s*([a-z]+)$`, 'i').exec(text.trim());
  const unit = m && DURATION_UNITS.find(([re]) => re.test(m[2]!));
  if (!m || !unit)
    fail(line, step, `${quoted(text.trim())} is not a duration such as '1 hour', '10 minutes' or '30 s'`);
  const seconds = Number(m[1]) * unit[1];
  if (!(seconds > 0)) fail(line, step, `the duration must be greater than 0`);
  return seconds;
}

function condition(text: string, line: number, step: string): Condition {
  const t = text.trim();
  const crate = new RegExp(String.raw`^C\s*/\s*(${NUM})$`, 'i').exec(t);
  if (crate) return { variable: 'C-rate', value: 1 / Number(crate[1]) };
  const m = new RegExp(String.raw`^(${NUM})\s*(V|mV|A|mA|C)$`).exec(t);
  if (!m) fail(line, step, `${quoted(t)} is not an end condition such as '2.5 V', '50 mA' or 'C/50'`);
  const v = Number(m[1]);
  switch (m[2]) {
    case 'V':
      return { variable: 'Voltage', value: v };
    case 'mV':
      return { variable: 'Voltage', value: v / 1000 };
    case 'A':
      return { variable: 'Current', value: v };
    case 'mA':
      return { variable: 'Current', value: v / 1000 };
    default:
      return { variable: 'C-rate', value: v };
  }
}

/**
 * "for X or until Y" → "for X", "until Y": the words between the words "or", joined by one
 * space, one part at a time (a caller stopping at a bad part reads no further). By hand:
 * `split(/\s+or\s+/i)` backtracked quadratically on a long run of spaces.
 */
function* alternatives(text: string): Generator<string> {
  const word = /\S+/g;
  let words: string[] = [];
  for (let m = word.exec(text); m; m = word.exec(text)) {
    if (m[0].toLowerCase() !== 'or') {
      words.push(m[0]);
      continue;
    }
    yield words.join(' ');
    words = [];
  }
  yield words.join(' ');
}

/** "for X", "until Y", "for X or until Y" → duration and end conditions. */
function tail(rest: string, line: number, step: string): { duration?: number; ends: string[]; period?: number } {
  let text = rest.trim();
  let period: number | undefined;
  const p = PERIOD.exec(text);
  if (p) {
    period = duration(`${p[1]} ${p[2]}`, line, step);
    text = text.replace(PERIOD, '').trim();
  }
  const out: { duration?: number; ends: string[]; period?: number } = { ends: [], ...(period ? { period } : {}) };
  if (!text) return out;
  let mode: 'for' | 'until' | undefined;
  for (const part of alternatives(text)) {
    let body = part.trim();
    const kw = /^(for|until)\s+(.*)$/i.exec(body);
    if (kw) {
      mode = kw[1]!.toLowerCase() as 'for' | 'until';
      body = kw[2]!;
    }
    if (!mode) fail(line, step, `expected 'for <duration>' or 'until <condition>', got ${quoted(part.trim())}`);
    if (mode === 'for') {
      if (out.duration !== undefined) fail(line, step, 'gives more than one duration');
      out.duration = duration(body, line, step);
    } else {
      const c = condition(body, line, step);
      const op =
        step === 'Discharge' && c.variable === 'Voltage'
          ? '<'
          : step === 'Charge' && c.variable === 'Voltage'
            ? '>'
            : '<';
      if (c.variable === 'Voltage' && (step === 'Hold' || step === 'Rest')) {
        fail(
          line,
          step,
          `'until ${body.trim()}': a voltage end condition is ambiguous for a ${step} step; use a current, ` +
            `a C-rate or a duration`,
        );
      }
      out.ends.push(`${c.variable} ${op} ${c.value}`);
    }
  }
  return out;
}

const LOOKS_LIKE_EXPERIMENT = /^\s*(discharge|charge|rest|hold|run)\b/i;

/** True when text reads like PyBaMM experiment lines rather than YAML. */
export function looksLikeExperiment(text: string): boolean {
  const first = text.split(/\r?\n/).find((l) => l.trim() && !l.trim().startsWith('#'));
  return first !== undefined && LOOKS_LIKE_EXPERIMENT.test(first);
}

/** One step per non-empty line; `#` starts a comment. */
export function parseExperimentLines(lines: string[]): Ucp {
  const steps: Ucp['steps'] = [];
  let period: number | undefined;
  const usable = lines.map((l) => l.replace(/#.*$/, '').trim().replace(/,$/, '')).filter(Boolean);
  if (!usable.length) throw new ProtocolError(['steps'], 'protocol: no steps (one PyBaMM experiment step per line)');
  usable.forEach((text, line) => {
    const rest = REST_LINE.exec(text);
    if (rest) {
      const t = tail(rest[1]!, line, 'Rest');
      if (t.duration === undefined && !t.ends.length)
        fail(line, 'Rest', "needs 'for <duration>' or 'until <condition>'");
      if (t.period) period = Math.min(period ?? Infinity, t.period);
      steps.push({
        Rest: {
          ...(t.duration !== undefined ? { duration: t.duration } : {}),
          ...(t.ends.length ? { ends: t.ends } : {}),
        },
      });
      return;
    }
    const m = STEP_LINE.exec(text);
    if (!m) {
      const verb = /^\s*(\w+)/.exec(text)?.[1];
      if (verb && /^run$/i.test(verb))
        fail(line, undefined, `drive cycles ('Run ...') cannot be written as a line; use a UCP DriveCycle step`);
      fail(
        line,
        undefined,
        `${quoted(text)} is not a PyBaMM experiment step such as 'Discharge at 1C until 2.5 V', ` +
          `'Rest for 1 hour' or 'Hold at 4.2 V until C/50'`,
      );
    }
    const type = (m[1]![0]!.toUpperCase() + m[1]!.slice(1).toLowerCase()) as 'Charge' | 'Discharge' | 'Hold';
    const rawValue = m[2]!.replace(/\s+/g, '');
    let unit = m[3];
    let value: number;
    if (/^C\//i.test(rawValue)) {
      if (unit) fail(line, type, `'${m[2]}${unit}' mixes the C/n form with a unit`);
      value = 1 / Number(rawValue.slice(2));
      unit = 'C';
    } else {
      value = Number(rawValue);
    }
    if (!unit)
      fail(line, type, `the value ${rawValue} needs a unit: C, A, mA, W, mW${type === 'Hold' ? ', V or mV' : ''}`);
    if (!(value > 0))
      fail(line, type, `the value must be greater than 0 (the step type sets the direction), got ${rawValue}`);
    let mode: string;
    if (unit === 'C') mode = 'C-rate';
    else if (unit === 'A' || unit === 'mA') mode = 'current';
    else if (unit === 'W' || unit === 'mW') mode = 'power';
    else mode = 'voltage';
    if (unit === 'mA' || unit === 'mW' || unit === 'mV') value /= 1000;
    if (type === 'Hold' && mode !== 'voltage') fail(line, type, `a Hold step holds a voltage (V or mV), got ${unit}`);
    if (type !== 'Hold' && mode === 'voltage')
      fail(line, type, `'${type} at ... V' is a constant-voltage step; write 'Hold at ${value} V until ...'`);
    const t = tail(m[4]!, line, type);
    if (t.duration === undefined && !t.ends.length) fail(line, type, "needs 'for <duration>' or 'until <condition>'");
    if (t.period) period = Math.min(period ?? Infinity, t.period);
    steps.push({
      [type]: {
        mode,
        value,
        ...(t.duration !== undefined ? { duration: t.duration } : {}),
        ...(t.ends.length ? { ends: t.ends } : {}),
      },
    });
  });
  return { ...(period ? { global: { resolution: { time: period } } } : {}), steps };
}
