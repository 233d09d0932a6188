// The pipeline calculations: formulas and units, inputs from fields or earlier parameter values,
// and the static checks the API runs before anything starts.
import { describe, expect, it } from 'vitest';
import { CALCULATION_TYPES, CalculationError, checkCalculation, runCalculation } from '../workflows/calculations.ts';

const F = 96485.33212;

describe('pipeline calculations', () => {
  it('electrode_volume_fraction: ε = m_load·w / (ρ·L), loading in mg/cm²', () => {
    const cfg = {
      type: 'electrode_volume_fraction',
      electrode: 'negative',
      mass_loading: 10,
      active_material_mass_fraction: 0.96,
      active_material_density: 2260,
    };
    const out = runCalculation(cfg, { 'Negative electrode thickness [m]': 85.2e-6 });
    // 10 mg/cm² = 0.1 kg/m²; 0.1·0.96 / (2260·85.2e-6) = 0.4986
    expect(out['Negative electrode active material volume fraction']).toBeCloseTo((0.1 * 0.96) / (2260 * 85.2e-6), 12);
    expect(() =>
      runCalculation({ ...cfg, mass_loading: 100 }, { 'Negative electrode thickness [m]': 85.2e-6 }),
    ).toThrow(/outside \(0, 1\)/);
    expect(() => runCalculation(cfg, {})).toThrow(CalculationError);
  });

  it('electrode_capacity: Q = F·c_max·ε·L·A·Δx / 3600 in A.h, from PyBaMM parameters', () => {
    const values = {
      'Maximum concentration in positive electrode [mol.m-3]': 63104,
      'Positive electrode active material volume fraction': 0.665,
      'Positive electrode thickness [m]': 75.6e-6,
      'Electrode height [m]': 0.065,
      'Electrode width [m]': 1.58,
    };
    const out = runCalculation({ type: 'electrode_capacity', electrode: 'positive' }, values);
    const q = (F * 63104 * 0.665 * 75.6e-6 * 0.065 * 1.58) / 3600;
    expect(out['Positive electrode capacity [A.h]']).toBeCloseTo(q, 10);
    expect(q).toBeGreaterThan(5);
    expect(q).toBeLessThan(10); // an LG M50 (Chen2020) positive electrode holds ~7.5 A.h
    // Element fields win over earlier values; the window scales the result.
    const narrow = runCalculation(
      { type: 'electrode_capacity', electrode: 'positive', electrode_area: 0.1, stoichiometry_window: 0.5 },
      values,
    );
    expect(narrow['Positive electrode capacity [A.h]']).toBeCloseTo(
      (F * 63104 * 0.665 * 75.6e-6 * 0.1 * 0.5) / 3600,
      10,
    );
  });

  it('cell_mass: n·A·Σρ·L over the stack plus additional mass, in kg', () => {
    const layers = {
      'Negative current collector': [12e-6, 8960],
      'Negative electrode': [85.2e-6, 1657],
      Separator: [12e-6, 397],
      'Positive electrode': [75.6e-6, 3262],
      'Positive current collector': [16e-6, 2700],
    } as const;
    const values: Record<string, number> = { 'Electrode height [m]': 0.065, 'Electrode width [m]': 1.58 };
    let perArea = 0;
    for (const [name, [l, rho]] of Object.entries(layers)) {
      values[`${name} thickness [m]`] = l;
      values[`${name} density [kg.m-3]`] = rho;
      perArea += l * rho;
    }
    const out = runCalculation({ type: 'cell_mass', additional_mass: 0.012 }, values);
    expect(out['Cell mass [kg]']).toBeCloseTo(0.065 * 1.58 * perArea + 0.012, 12);
    const two = runCalculation(
      { type: 'cell_mass', parameters: { 'Number of electrodes connected in parallel to make a cell': 2 } },
      values,
    );
    expect(two['Cell mass [kg]']).toBeCloseTo(2 * 0.065 * 1.58 * perArea, 12);
  });

  it('initial_soc_from_voltage: inverts the OCV table by linear interpolation, SOC in %', () => {
    const ocv = { soc: [0, 0.2, 0.8, 1], voltage: [3.0, 3.5, 4.0, 4.2] };
    expect(runCalculation({ type: 'initial_soc_from_voltage', voltage: 3.75, ocv }, {})['Initial SOC [%]']).toBeCloseTo(
      50,
      10,
    );
    expect(runCalculation({ type: 'initial_soc_from_voltage', voltage: 4.2, ocv }, {})['Initial SOC [%]']).toBeCloseTo(
      100,
      10,
    );
    expect(() => runCalculation({ type: 'initial_soc_from_voltage', voltage: 4.3, ocv }, {})).toThrow(
      /outside the OCV table/,
    );
  });

  it('area_to_square_width_height: the sides of a square of "Electrode area [m2]"', () => {
    expect(runCalculation({ type: 'area_to_square_width_height' }, { 'Electrode area [m2]': 0.0225 })).toEqual({
      'Electrode height [m]': 0.15,
      'Electrode width [m]': 0.15,
    });
    expect(() => runCalculation({ type: 'area_to_square_width_height' }, {})).toThrow(/Electrode area \[m2\]/);
    expect(() => runCalculation({ type: 'area_to_square_width_height' }, { 'Electrode area [m2]': -1 })).toThrow(
      /must be positive/,
    );
  });

  it('checks fields before anything runs, and names the known calculations for an unknown one', () => {
    expect(CALCULATION_TYPES).toEqual([
      'electrode_volume_fraction',
      'electrode_capacity',
      'cell_mass',
      'initial_soc_from_voltage',
      'area_to_square_width_height',
    ]);
    expect(checkCalculation({ type: 'toString' })[0]!.msg).toContain('electrode_capacity');
    expect(
      checkCalculation({ type: 'electrode_volume_fraction', electrode: 'middle', mass_loading: -1 }).map(
        (i) => i.loc[0],
      ),
    ).toEqual(['electrode', 'mass_loading', 'active_material_density']);
    expect(
      checkCalculation({ type: 'initial_soc_from_voltage', voltage: 3.7, ocv: { soc: [0, 1], voltage: [4, 3] } })[0]!
        .loc,
    ).toEqual(['ocv', 'voltage']);
    expect(checkCalculation({ type: 'cell_mass', parameters: { x: 'heavy' } })[0]!.loc).toEqual(['parameters', 'x']);
  });
});
