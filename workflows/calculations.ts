// The calculations a pipeline `calculation` element can run. Pure and deterministic (no
// imports), so the pipeline element workflow runs them directly and the API validates with
// the same definitions. Parameter names follow PyBaMM ("<Name> [<unit>]").
//
// Every calculation reads its inputs from the element's own fields first, then from
// `parameters` of the element, then from the parameter values produced by earlier elements.
// It answers new parameter values, which later elements receive.

export type ParameterValues = Record<string, number>;

/** A mistake the user can fix in the element or in earlier elements (CONFIGURATION_ERROR). */
export class CalculationError extends Error {
  override name = 'CalculationError';
}

export interface CalculationIssue {
  loc: (string | number)[];
  msg: string;
}

interface Calculation {
  description: string;
  /** Static checks of the element's fields (before anything runs). */
  check(cfg: Record<string, unknown>): CalculationIssue[];
  run(cfg: Record<string, unknown>, values: ParameterValues): ParameterValues;
}

/** Faraday constant [C.mol-1]. */
const FARADAY = 96485.33212;
const ELECTRODES = ['positive', 'negative'] as const;
type Electrode = (typeof ELECTRODES)[number];
const cap = (e: Electrode) => (e === 'positive' ? 'Positive' : 'Negative');

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function checkElectrode(cfg: Record<string, unknown>): CalculationIssue[] {
  return ELECTRODES.includes(cfg.electrode as Electrode)
    ? []
    : [{ loc: ['electrode'], msg: 'must be "positive" or "negative"' }];
}

/** Optional numeric fields must be positive numbers when present; required ones must be there. */
function checkPositive(cfg: Record<string, unknown>, fields: string[], required: string[] = []): CalculationIssue[] {
  const issues: CalculationIssue[] = [];
  for (const f of fields) {
    const v = cfg[f];
    if (v === undefined) {
      if (required.includes(f)) issues.push({ loc: [f], msg: 'is required' });
    } else if (!isNum(v) || v <= 0) issues.push({ loc: [f], msg: 'must be a positive number' });
  }
  const params = cfg.parameters;
  if (params !== undefined) {
    if (params === null || typeof params !== 'object' || Array.isArray(params))
      issues.push({ loc: ['parameters'], msg: 'must be an object of parameter values' });
    else {
      for (const [k, v] of Object.entries(params))
        if (!isNum(v)) issues.push({ loc: ['parameters', k], msg: 'must be a number' });
    }
  }
  return issues;
}

/** The input from the element's field, else the named parameter; a missing one is a CalculationError. */
function input(
  cfg: Record<string, unknown>,
  values: ParameterValues,
  field: string | null,
  parameter: string | null,
): number {
  if (field !== null && isNum(cfg[field])) return cfg[field];
  const params = { ...values, ...((cfg.parameters as ParameterValues | undefined) ?? {}) };
  if (parameter !== null && isNum(params[parameter])) return params[parameter];
  const names = [field && `the field "${field}"`, parameter && `the parameter "${parameter}"`]
    .filter(Boolean)
    .join(' or ');
  throw new CalculationError(`missing input: give ${names} (in the element or from an earlier element)`);
}

function optionalInput(
  cfg: Record<string, unknown>,
  values: ParameterValues,
  parameter: string,
  fallback: number,
): number {
  const params = { ...values, ...((cfg.parameters as ParameterValues | undefined) ?? {}) };
  return isNum(params[parameter]) ? params[parameter] : fallback;
}

/** Electrode area [m2]: the field electrode_area, else "Electrode height [m]" × "Electrode width [m]". */
function electrodeArea(cfg: Record<string, unknown>, values: ParameterValues): number {
  if (isNum(cfg.electrode_area)) return cfg.electrode_area;
  return input(cfg, values, null, 'Electrode height [m]') * input(cfg, values, null, 'Electrode width [m]');
}

/** The formula electrode_capacity's description gives. */
const ELECTRODE_CAPACITY_FORMULA = 'F·c_max·ε·L·A·Δx/3600';

export const CALCULATIONS: Record<string, Calculation> = {
  /**
   * Active material volume fraction of an electrode from its coating mass loading:
   *   ε_am [-] = (m_load [kg.m-2] · w_am [-]) / (ρ_am [kg.m-3] · L [m])
   * with m_load = mass_loading [mg.cm-2] · 0.01 (1 mg.cm-2 = 0.01 kg.m-2), w_am the active
   * material's mass fraction of the coating (default 1), ρ_am the active material's density
   * and L the coating thickness (field thickness [m] or "<Electrode> electrode thickness [m]").
   * Produces "<Electrode> electrode active material volume fraction".
   */
  electrode_volume_fraction: {
    description:
      'Active material volume fraction from the coating mass loading [mg/cm2], mass fraction, ' +
      'density [kg/m3] and thickness [m].',
    check: (cfg) => [
      ...checkElectrode(cfg),
      ...checkPositive(
        cfg,
        ['mass_loading', 'active_material_density', 'active_material_mass_fraction', 'thickness'],
        ['mass_loading', 'active_material_density'],
      ),
      ...(isNum(cfg.active_material_mass_fraction) && cfg.active_material_mass_fraction > 1
        ? [{ loc: ['active_material_mass_fraction'], msg: 'must be at most 1' }]
        : []),
    ],
    run(cfg, values) {
      const e = cfg.electrode as Electrode;
      const loadingKgPerM2 = input(cfg, values, 'mass_loading', null) * 0.01;
      const massFraction = isNum(cfg.active_material_mass_fraction) ? cfg.active_material_mass_fraction : 1;
      const density = input(cfg, values, 'active_material_density', null);
      const thickness = input(cfg, values, 'thickness', `${cap(e)} electrode thickness [m]`);
      const fraction = (loadingKgPerM2 * massFraction) / (density * thickness);
      if (!(fraction > 0 && fraction < 1)) {
        throw new CalculationError(
          `the volume fraction comes out as ${fraction.toPrecision(4)}, outside (0, 1): check the loading, ` +
            `density and thickness units`,
        );
      }
      return { [`${cap(e)} electrode active material volume fraction`]: fraction };
    },
  },

  /**
   * Theoretical capacity of an electrode:
   *   Q [A.h] = F [C.mol-1] · c_max [mol.m-3] · ε_am [-] · L [m] · A [m2] · Δx [-] / 3600 [s.h-1]
   * c_max: field max_concentration or "Maximum concentration in <electrode> electrode [mol.m-3]";
   * ε_am: field active_material_volume_fraction or "<Electrode> electrode active material volume fraction";
   * L: field thickness or "<Electrode> electrode thickness [m]"; A: field electrode_area [m2] or
   * "Electrode height [m]" × "Electrode width [m]"; Δx: the usable stoichiometry window (default 1).
   * Produces "<Electrode> electrode capacity [A.h]".
   */
  electrode_capacity: {
    description:
      'Electrode capacity [A.h] = ' + ELECTRODE_CAPACITY_FORMULA + ' from PyBaMM parameters or the element fields.',
    check: (cfg) => [
      ...checkElectrode(cfg),
      ...checkPositive(cfg, [
        'max_concentration',
        'active_material_volume_fraction',
        'thickness',
        'electrode_area',
        'stoichiometry_window',
      ]),
      ...(isNum(cfg.stoichiometry_window) && cfg.stoichiometry_window > 1
        ? [{ loc: ['stoichiometry_window'], msg: 'must be at most 1' }]
        : []),
    ],
    run(cfg, values) {
      const e = cfg.electrode as Electrode;
      const cMax = input(cfg, values, 'max_concentration', `Maximum concentration in ${e} electrode [mol.m-3]`);
      const eps = input(
        cfg,
        values,
        'active_material_volume_fraction',
        `${cap(e)} electrode active material volume fraction`,
      );
      const thickness = input(cfg, values, 'thickness', `${cap(e)} electrode thickness [m]`);
      const area = electrodeArea(cfg, values);
      const window = isNum(cfg.stoichiometry_window) ? cfg.stoichiometry_window : 1;
      return { [`${cap(e)} electrode capacity [A.h]`]: (FARADAY * cMax * eps * thickness * area * window) / 3600 };
    },
  },

  /**
   * Mass of the cell stack plus fixed extras:
   *   m [kg] = n [-] · A [m2] · Σ_i ρ_i [kg.m-3] · L_i [m] + m_extra [kg]
   * over the layers i = negative current collector, negative electrode, separator, positive
   * electrode, positive current collector ("<Layer> thickness [m]", "<Layer> density [kg.m-3]");
   * n = "Number of electrodes connected in parallel to make a cell" (default 1); A as for
   * electrode_capacity; m_extra = field additional_mass (casing, tabs, excess electrolyte; default 0).
   * Produces "Cell mass [kg]".
   */
  cell_mass: {
    description:
      'Cell mass [kg] = n·A·Σ ρ_i·L_i over current collectors, electrodes and separator, ' +
      'plus additional_mass [kg].',
    check: (cfg) =>
      checkPositive(cfg, ['electrode_area']).concat(
        cfg.additional_mass !== undefined && !(isNum(cfg.additional_mass) && cfg.additional_mass >= 0)
          ? [{ loc: ['additional_mass'], msg: 'must be a number of kg, at least 0' }]
          : [],
      ),
    run(cfg, values) {
      const layers = [
        'Negative current collector',
        'Negative electrode',
        'Separator',
        'Positive electrode',
        'Positive current collector',
      ];
      const perArea = layers.reduce(
        (sum, layer) =>
          sum +
          input(cfg, values, null, `${layer} density [kg.m-3]`) * input(cfg, values, null, `${layer} thickness [m]`),
        0,
      );
      const n = optionalInput(cfg, values, 'Number of electrodes connected in parallel to make a cell', 1);
      const extra = isNum(cfg.additional_mass) ? cfg.additional_mass : 0;
      return { 'Cell mass [kg]': n * electrodeArea(cfg, values) * perArea + extra };
    },
  },

  /**
   * Initial state of charge from a rested (open-circuit) voltage, by inverting a tabulated OCV
   * curve with linear interpolation:
   *   SOC [%] = 100 · (s_k + (V − V_k) · (s_{k+1} − s_k) / (V_{k+1} − V_k)),  V_k ≤ V ≤ V_{k+1}
   * voltage [V]: the measured rest voltage; ocv: {soc: [0..1], voltage: [V]}, both strictly
   * increasing. Produces "Initial SOC [%]".
   */
  initial_soc_from_voltage: {
    description:
      'Initial SOC [%] from a rest voltage [V] and an OCV table {soc: [0..1], voltage: [V]} (linear interpolation).',
    check(cfg) {
      const issues: CalculationIssue[] = [];
      if (!isNum(cfg.voltage) || cfg.voltage <= 0)
        issues.push({ loc: ['voltage'], msg: 'is required: the rest voltage in V' });
      const ocv = cfg.ocv as { soc?: unknown; voltage?: unknown } | undefined;
      const soc = ocv?.soc;
      const volt = ocv?.voltage;
      if (!Array.isArray(soc) || !Array.isArray(volt) || soc.length < 2 || soc.length !== volt.length) {
        issues.push({
          loc: ['ocv'],
          msg: 'is required: {soc: [...], voltage: [...]} of the same length, at least 2 points',
        });
        return issues;
      }
      const increasing = (xs: unknown[]) => xs.every((x, i) => isNum(x) && (i === 0 || x > (xs[i - 1] as number)));
      if (!increasing(soc) || (soc as number[])[0]! < 0 || (soc as number[])[soc.length - 1]! > 1) {
        issues.push({ loc: ['ocv', 'soc'], msg: 'must be strictly increasing numbers within [0, 1]' });
      }
      if (!increasing(volt)) issues.push({ loc: ['ocv', 'voltage'], msg: 'must be strictly increasing numbers (V)' });
      return issues;
    },
    run(cfg) {
      const v = cfg.voltage as number;
      const { soc, voltage } = cfg.ocv as { soc: number[]; voltage: number[] };
      if (v < voltage[0]! || v > voltage[voltage.length - 1]!) {
        throw new CalculationError(
          `the voltage ${v} V is outside the OCV table (${voltage[0]} to ${voltage[voltage.length - 1]} V)`,
        );
      }
      let k = 0;
      while (k < voltage.length - 2 && v > voltage[k + 1]!) k++;
      const s = soc[k]! + ((v - voltage[k]!) * (soc[k + 1]! - soc[k]!)) / (voltage[k + 1]! - voltage[k]!);
      return { 'Initial SOC [%]': 100 * s };
    },
  },

  /**
   * Electrode height and width of a square electrode of the given area (ionworks-schema's
   * AreaToSquareWidthHeight): h [m] = w [m] = √A [m2], A = "Electrode area [m2]".
   * Produces "Electrode height [m]" and "Electrode width [m]".
   */
  area_to_square_width_height: {
    description: 'Electrode height [m] = width [m] = sqrt("Electrode area [m2]").',
    check: (cfg) => checkPositive(cfg, []),
    run(cfg, values) {
      const area = input(cfg, values, null, 'Electrode area [m2]');
      if (!(area > 0)) throw new CalculationError(`"Electrode area [m2]" must be positive, not ${area}`);
      return { 'Electrode height [m]': Math.sqrt(area), 'Electrode width [m]': Math.sqrt(area) };
    },
  },
};

export const CALCULATION_TYPES = Object.keys(CALCULATIONS);

/** Static problems of a calculation element, with locations relative to the element. */
function lookup(type: unknown): Calculation | undefined {
  return typeof type === 'string' && Object.hasOwn(CALCULATIONS, type) ? CALCULATIONS[type] : undefined;
}

export function checkCalculation(cfg: Record<string, unknown>): CalculationIssue[] {
  const calc = lookup(cfg.type);
  if (!calc) return [{ loc: ['type'], msg: `unknown calculation; known: ${CALCULATION_TYPES.join(', ')}` }];
  return calc.check(cfg);
}

export function runCalculation(cfg: Record<string, unknown>, values: ParameterValues): ParameterValues {
  const calc = lookup(cfg.type);
  if (!calc) throw new CalculationError(`unknown calculation ${String(cfg.type)}`);
  return calc.run(cfg, values);
}
