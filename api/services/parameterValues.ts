// What the worker refuses of a model parameter's value whatever the model: a negative value of
// a quantity that cannot be negative, or a capacity of 0 (model_spec.py check_parameter_value), by
// the unit in its name.
// The units of such quantities (and of those that must be positive): tables/parameter_units.json.
import { PARAMETER_UNITS as UNITS } from '../../tables/index.ts';

const NON_NEGATIVE_UNITS: ReadonlySet<string> = new Set(UNITS.non_negative);
const POSITIVE_UNITS: ReadonlySet<string> = new Set(UNITS.positive);

/** Why the worker refuses this value of a parameter (a negative length, a capacity of 0, ...), or undefined. */
export function parameterValueProblem(name: string, value: number): string | undefined {
  const unit = /\[([^[\]]*)\]$/.exec(name)?.[1];
  if (unit === undefined) return undefined;
  if (NON_NEGATIVE_UNITS.has(unit) && value < 0) return `is negative, and a quantity in [${unit}] cannot be`;
  if (POSITIVE_UNITS.has(unit) && value <= 0) return `is not greater than 0, and a quantity in [${unit}] must be`;
  return undefined;
}
