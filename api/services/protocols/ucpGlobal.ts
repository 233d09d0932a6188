// The protocol's 'global' block: initial state, initial temperature and output resolution,
// refused where the worker would refuse them (job.py _initial_state).
import { UCP_GLOBAL_FIELDS } from '../../../tables/index.ts';
import { isDecimal } from '../../decimal.ts';
import { canonicalValue, describe, ProtocolError } from './ucpValues.ts';

const GLOBAL_FIELDS = UCP_GLOBAL_FIELDS;

export const ABSOLUTE_ZERO_C = -273.15;

/** Why the worker refuses this initial state (job.py _initial_state), or undefined. */
export function initialStateProblem(type: 'soc_percentage' | 'voltage', value: number): string | undefined {
  if (type === 'soc_percentage')
    return value >= 0 && value <= 100 ? undefined : 'a state of charge must be between 0 and 100 %';
  return value > 0 ? undefined : 'an initial voltage must be positive';
}

export const TEMPERATURE_PROBLEM = `must be above absolute zero (${ABSOLUTE_ZERO_C} degC)`;

export function checkGlobal(raw: unknown): Record<string, unknown> {
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
