// What the worker refuses of a model parameter's value whatever the model: a negative value of
// a quantity that cannot be negative (models.py check_parameter_value), by the unit in its name.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../stack/config.ts';

/** The units of such quantities, listed once for the worker and the API. */
const NON_NEGATIVE_UNITS: ReadonlySet<string> = new Set(
  (JSON.parse(fs.readFileSync(path.join(ROOT, 'pyworker', 'cellar_worker', 'simulation', 'parameter_units.json'), 'utf8')) as { non_negative: string[] }).non_negative,
);

/** Why the worker refuses this value of a parameter (a negative length, temperature, ...), or undefined. */
export function parameterValueProblem(name: string, value: number): string | undefined {
  const unit = /\[([^[\]]*)\]$/.exec(name)?.[1];
  return unit !== undefined && NON_NEGATIVE_UNITS.has(unit) && value < 0 ? `is negative, and a quantity in [${unit}] cannot be` : undefined;
}
