// The tables the API shares with the Python worker, each one JSON file in this folder (the
// worker reads the same files through pyworker/cellar_worker/tables.py). Loaded once, at import.
import fs from 'node:fs';
import path from 'node:path';

export const TABLES_DIR = import.meta.dirname;
export const tablePath = (file: string) => path.join(TABLES_DIR, file);
const read = <T>(file: string): T => JSON.parse(fs.readFileSync(tablePath(file), 'utf8')) as T;

type JsonObject = Record<string, unknown>;

/** The canonical protocol form's JSON Schema: the one place its step table is written. */
export const UCP_SCHEMA: JsonObject = read('ucp.schema.json');

const defs = UCP_SCHEMA.$defs as Record<string, JsonObject>;
const keys = (schema: unknown) => Object.keys((schema as { properties: JsonObject }).properties);

/** The step table, from the schema: each step type (in order), its fields and its modes. */
export const UCP_STEPS: { type: string; fields: string[]; modes?: string[] }[] = (defs.step!.oneOf as JsonObject[]).map(
  (option) => {
    const type = (option.required as string[])[0]!;
    const body = (option.properties as JsonObject)[type] as { properties: Record<string, { enum?: string[] }> };
    const modes = body.properties.mode?.enum;
    return { type, fields: Object.keys(body.properties), ...(modes ? { modes } : {}) };
  },
);
/** Variables an ends condition may test. */
export const UCP_ENDS_VARIABLES: string[] = (defs.ends_variable!.oneOf as { const: string }[]).map((o) => o.const);
/** Fields of a protocol's `global` settings, and of the protocol itself. */
export const UCP_GLOBAL_FIELDS: string[] = keys(defs.global);
export const UCP_TOP_FIELDS: string[] = keys(UCP_SCHEMA);

export interface PybammModel {
  type: string;
  name: string;
  default_parameter_set: string;
  family: string;
  pybamm_class: string;
}
/** Built-in PyBaMM model types. */
export const MODELS: PybammModel[] = read<{ models: PybammModel[] }>('models.json').models;
/** Solvers a model may name (the first is the default). */
export const SOLVERS: string[] = read<{ solvers: string[] }>('solvers.json').solvers;

const optimizers = read<{ default: string; methods: { name: string; scipy: string }[] }>('optimizers.json');
/** Fit optimizer methods, and the one used when a fit names none. */
export const OPTIMIZER_METHODS: string[] = optimizers.methods.map((m) => m.name);
/** Methods that fit residuals (scipy's least_squares): not for a design's single objective value. */
export const RESIDUAL_OPTIMIZER_METHODS: string[] = optimizers.methods
  .filter((m) => m.scipy === 'least_squares')
  .map((m) => m.name);
export const DEFAULT_OPTIMIZER_METHOD = optimizers.default;

const costs = read<{ default: string; costs: { name: string; least_squares: boolean }[] }>('costs.json');
/** Fit costs, the default, and those the least_squares method can minimize. */
export const COSTS: string[] = costs.costs.map((c) => c.name);
export const DEFAULT_COST = costs.default;
export const LEAST_SQUARES_COSTS: string[] = costs.costs.filter((c) => c.least_squares).map((c) => c.name);

/** The quick model's chemistries (its file is also part of ENGINE_BUILD's hash). */
export const CHEMISTRIES_PATH = tablePath('chemistries.json');
export const CHEMISTRIES: { description: string; chemistries: { name: string; description: string }[] } =
  read('chemistries.json');

/** Units of parameters that cannot be negative, or must be greater than 0. */
export const PARAMETER_UNITS: { non_negative: string[]; positive: string[] } = read('parameter_units.json');
