// Discovery documents the Python client reads: what the platform offers, and the JSON Schema of
// the cell data hierarchy, built from openapi.yaml's own component schemas (one source).
import { loadOpenApi } from '../openapi.ts';

const DATA_ROOTS = ['CellSpecification', 'CellBatch', 'CellInstance', 'CellMeasurement'] as const;
const TIME_SERIES_COLUMNS = {
  'Time [s]': 'number',
  'Current [A]': 'number',
  'Voltage [V]': 'number',
  'Step count': 'integer',
  'Cycle count': 'integer',
  'Discharge capacity [A.h]': 'number',
  'Charge capacity [A.h]': 'number',
  'Discharge energy [W.h]': 'number',
  'Charge energy [W.h]': 'number',
  'Temperature [degC]': 'number',
} as const;

type Json = Record<string, unknown>;

/** The component schemas `roots` need, with their references rewritten to $defs. */
function collect(components: Record<string, Json>, roots: readonly string[]): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  const visit = (name: string) => {
    if (name in defs || !components[name]) return;
    defs[name] = null;
    defs[name] = JSON.parse(JSON.stringify(components[name]), (_k, v: unknown) => {
      if (typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const ref = v.slice('#/components/schemas/'.length);
        visit(ref);
        return `#/$defs/${ref}`;
      }
      return v;
    });
  };
  roots.forEach(visit);
  return defs;
}

let dataSchema: Json | undefined;

export function cellDataSchema(): Json {
  if (dataSchema) return dataSchema;
  const doc = loadOpenApi().doc as { components: { schemas: Record<string, Json> } };
  dataSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Cell data hierarchy',
    description:
      'cell specification → cell batch (lot) → ' +
      'cell instance → cell measurement → ' +
      'steps, cycles and time series.',
    type: 'object',
    properties: {
      cell_specification: { $ref: '#/$defs/CellSpecification' },
      cell_batch: { $ref: '#/$defs/CellBatch' },
      cell_instance: { $ref: '#/$defs/CellInstance' },
      cell_measurement: { $ref: '#/$defs/CellMeasurement' },
      time_series: {
        type: 'object',
        description:
          'Canonical columns (units in the names), one array per column; Time [s], ' +
          'Current [A] (positive on discharge) and Voltage [V] are required.',
        required: ['Time [s]', 'Current [A]', 'Voltage [V]'],
        properties: Object.fromEntries(
          Object.entries(TIME_SERIES_COLUMNS).map(([c, t]) => [c, { type: 'array', items: { type: [t, 'null'] } }]),
        ),
      },
    },
    $defs: collect(doc.components.schemas, DATA_ROOTS),
  };
  return dataSchema;
}

export const CAPABILITIES = {
  service: 'cellar',
  domain_context: {
    hierarchy:
      'project → cell specification → cell batch → cell instance → ' +
      'cell measurement (time series, steps, cycles); ' +
      'sites → cyclers → channels for the lab',
    concepts: {
      cell_specification: 'a cell design: form factor, chemistry, ratings and components',
      cell_instance: 'one physical cell of a specification',
      cell_measurement:
        'a test of one cell: a time series (with derived steps and cycles), files, or measured properties',
      simulation: 'a PyBaMM run of a parameterized model on a protocol',
      pipeline: 'ordered elements (entries, calculations, fits, validations) run as one durable workflow',
    },
    current_sign: 'positive current is discharge',
  },
  schemas: { data: '/discovery/schemas/data', protocol: '/discovery/schemas/protocol' },
  openapi_spec: '/openapi.json',
  authentication: {
    api_key_header: 'X-API-Key',
    bearer_header: 'Authorization: Bearer <api key>',
    organization_header: 'X-Organization-Id',
  },
};
