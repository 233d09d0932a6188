// The tables in tables/ are the one place their values are written: where openapi.yaml
// repeats one as an enum (model types, costs, optimizer methods, solvers), the enum must be
// that table, in its order. Pure: reads the two files.
import { describe, expect, it } from 'vitest';
import { loadOpenApi } from '../api/openapi.ts';
import {
  COSTS,
  DEFAULT_COST,
  DEFAULT_OPTIMIZER_METHOD,
  MODELS,
  OPTIMIZER_METHODS,
  RESIDUAL_OPTIMIZER_METHODS,
  SOLVERS,
  UCP_STEPS,
} from '../tables/index.ts';
import { STEP_TYPES } from '../api/services/protocols/ucpSteps.ts';

const TABLES: Record<string, string[]> = {
  'tables/models.json': MODELS.map((m) => m.type),
  'tables/costs.json': COSTS,
  'tables/optimizers.json': OPTIMIZER_METHODS,
  'tables/solvers.json': SOLVERS,
};

/** Every schema in the spec with an enum of strings, by its JSON pointer, with its default. */
function enums(node: unknown, at = '#', found: { at: string; values: string[]; default?: unknown }[] = []) {
  if (Array.isArray(node)) node.forEach((item, i) => enums(item, `${at}/${i}`, found));
  else if (node && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) {
      found.push({ at, values: schema.enum as string[], default: schema.default });
    }
    for (const [key, value] of Object.entries(schema)) enums(value, `${at}/${key.replaceAll('/', '~1')}`, found);
  }
  return found;
}

describe('tables/ and openapi.yaml', () => {
  const specEnums = enums(loadOpenApi().doc);

  it("every enum of the spec that repeats a table's values is that table", () => {
    const copies: Record<string, string[]> = {};
    for (const { at, values } of specEnums) {
      for (const [table, names] of Object.entries(TABLES)) {
        if (!values.some((v) => names.includes(v))) continue;
        // A design optimization has one objective value, no residuals: its methods are the
        // table's without those that fit residuals (least_squares), in the table's order.
        const expected = at.includes('/DesignOptimizationConfig/')
          ? names.filter((n) => !RESIDUAL_OPTIMIZER_METHODS.includes(n))
          : names;
        expect(values, `${at} repeats ${table}`).toEqual(expected);
        (copies[table] ??= []).push(at);
      }
    }
    // The spec states model types once, costs twice and optimizer methods once today:
    // a walk that found none of them would check nothing.
    expect(copies['tables/models.json']?.length).toBeGreaterThanOrEqual(1);
    expect(copies['tables/costs.json']?.length).toBeGreaterThanOrEqual(2);
    expect(copies['tables/optimizers.json']?.length).toBeGreaterThanOrEqual(1);
  });

  it("the spec's defaults of costs and optimizer methods are the tables' defaults", () => {
    for (const { at, values, default: fallback } of specEnums) {
      if (values.includes(DEFAULT_COST) && fallback !== undefined) expect(fallback, at).toBe(DEFAULT_COST);
      if (values.includes(DEFAULT_OPTIMIZER_METHOD) && fallback !== undefined)
        expect(fallback, at).toBe(DEFAULT_OPTIMIZER_METHOD);
    }
  });

  it('the protocol checks take their step table from the schema', () => {
    expect(STEP_TYPES).toEqual(['Charge', 'Discharge', 'Rest', 'Hold', 'DriveCycle', 'Goto']);
    expect(UCP_STEPS.find((s) => s.type === 'Goto')).toEqual({ type: 'Goto', fields: ['step', 'repeat', 'label'] });
    expect(UCP_STEPS.find((s) => s.type === 'Hold')?.modes).toEqual(['voltage']);
  });
});
