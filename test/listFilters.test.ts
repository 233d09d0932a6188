// The list filters as openapi.yaml states them (the Filter* patterns, order_by enums) against what
// api/listQuery.ts takes: every pattern compiles and is linear by construction, and through the real
// API every value a pattern admits, and every sort column a list names, is answered 200.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { apiForSuite, client, newOrg } from './harness.ts';

type Schema = { type?: string; pattern?: string; enum?: string[]; $ref?: string };
type Parameter = { name: string; in: string; schema?: Schema; $ref?: string };
type Operation = { operationId?: string; parameters?: Parameter[] };
const spec = parse(fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
};
const FILTERS = Object.entries(spec.components.schemas).filter(([n]) => n.startsWith('Filter') || n === 'DateBound');

/** Values each filter must admit (and the API take), and values it must refuse. */
const EXAMPLES: Record<string, { good: string[]; bad: string[] }> = {
  FilterNumber: {
    good: [
      'eq.3',
      'neq.-1',
      'gte.2.5',
      'lt.0.000000000000001',
      'lte.999999999999999.999999999999999e99',
      'gt.1e-99',
      'in.(1)',
      'in.(1,2.5,-3E2)',
      'eq.2147483648',
      'gte.-999999999999999e99',
    ],
    bad: [
      'eq.',
      'eq.1e999',
      'eq.Infinity',
      'eq.0x10',
      'eq.+1',
      'eq. 1',
      'in.()',
      'in.(1,)',
      'in.(1,,2)',
      'ilike.1',
      'is.null',
      '1',
    ],
  },
  FilterBoolean: {
    good: ['eq.true', 'eq.false', 'is.true', 'is.false', 'is.null'],
    bad: ['true', 'eq.null', 'neq.true', 'eq.TRUE', 'in.(true)', 'is.'],
  },
  FilterWorkStatus: {
    good: ['eq.pending', 'neq.canceled', 'in.(running)', 'in.(pending,running,completed,failed,canceled)'],
    bad: ['running', 'eq.cancelled', 'in.()', 'in.(running,)', 'gt.running', 'eq.running '],
  },
  FilterPlanStatus: {
    good: ['requested', 'in_progress', 'eq.scheduled', 'neq.cancelled', 'in.(requested,completed)'],
    bad: ['canceled', 'eq.', 'in.(requested,,completed)', 'ilike.req%'],
  },
  FilterMeasurementType: {
    good: ['time_series', 'eq.file', 'neq.properties', 'in.(time_series,file)'],
    bad: ['eq.timeseries', 'in.()', 'lt.file'],
  },
  FilterProcessingStatus: {
    good: ['eq.ready', 'neq.pending', 'in.(running,failed)'],
    bad: ['ready', 'eq.completed', 'in.(ready'],
  },
  FilterServiceEventType: {
    good: ['eq.calibration', 'in.(preventive_maintenance,firmware,repair,other)'],
    bad: ['calibration', 'eq.maintenance'],
  },
  FilterServiceEventStatus: { good: ['eq.open', 'neq.completed', 'in.(open,completed)'], bad: ['open', 'eq.closed'] },
  FilterIncidentCategory: {
    good: ['eq.hardware_failure', 'in.(maintenance,calibration,decommissioned,other)'],
    bad: ['other', 'eq.repair'],
  },
  FilterText: {
    good: ['eq.a b', 'ilike.%x%', 'like.x*', 'neq.é', 'in.(a, b)', 'in.(a\nb,\tc)'],
    bad: ['x', 'eq.', 'in.()', 'in.( , )'],
  },
  FilterDate: { good: ['gte.2026-01-31', 'lt.2024-02-29T10:00:00Z'], bad: ['gte.2025-02-29', 'eq.yesterday'] },
  DateBound: { good: ['2026-01-31T00:00:00+01:00'], bad: ['2026-13-01'] },
};

const resolve = (p: Parameter): Parameter => (p.$ref ? spec.components.parameters[p.$ref.split('/').pop()!]! : p);
const refName = (s?: Schema) => s?.$ref?.split('/').pop();

/**
 * A regular expression is linear here when no repeated group holds an unbounded repetition and
 * every repeated group starts with a separator that appears nowhere else in the group (so each
 * repetition starts at the one separator: no two ways to split the input).
 */
function linear(pattern: string): string | undefined {
  const stack: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      i = pattern.indexOf(']', i + 2);
      continue;
    }
    if (c === '(') stack.push(i);
    if (c !== ')') continue;
    const open = stack.pop()!;
    const quantifier = pattern[i + 1];
    if (quantifier !== '*' && quantifier !== '+') continue;
    // {m,n} is bounded; its comma is no separator.
    const body = pattern.slice(open + 1, i).replace(/\{\d+(,\d+)?\}/g, '{}');
    if (/(^|[^\\])[*+]|\{\d+,\}/.test(body)) return `nested unbounded repetition in (${body})${quantifier}`;
    const sep = body[0] === '\\' ? body.slice(0, 2) : body[0]!;
    const optional = /^[?*{]/.test(body.slice(sep.length));
    if (/[[(.|]/.test(sep) || optional || body.slice(sep.length).includes(sep))
      return `(${body})${quantifier} has no separator`;
  }
  return undefined;
}

describe('filter patterns', () => {
  it('every Filter* pattern has examples, compiles, admits its examples, refuses its counter-examples', () => {
    expect(FILTERS.map(([n]) => n).sort()).toEqual(Object.keys(EXAMPLES).sort());
    for (const [name, schema] of FILTERS) {
      const re = new RegExp(schema.pattern!, 'u');
      for (const v of EXAMPLES[name]!.good) expect(re.test(v), `${name} should admit ${v}`).toBe(true);
      for (const v of EXAMPLES[name]!.bad) expect(re.test(v), `${name} should refuse ${v}`).toBe(false);
    }
  });

  it('every Filter* pattern is linear by construction; the check itself sees a backtracking one', () => {
    for (const [name, schema] of FILTERS) expect(linear(schema.pattern!), name).toBeUndefined();
    expect(linear('^(a+)+$')).toMatch(/nested/);
    expect(linear('^(,?[0-9])*$')).toBeDefined();
    expect(linear('^in\\.\\((a|b)(,[a-z]{1,3})*\\)$')).toBeUndefined();
  });

  it('no list filter taking reserved characters is still a bare string but the materials ones (bare values)', () => {
    const bare: string[] = [];
    for (const item of Object.values(spec.paths))
      for (const op of Object.values(item))
        for (const p of (op.parameters ?? []).map(resolve))
          if ((p as { allowReserved?: boolean }).allowReserved && p.schema?.type === 'string' && !p.schema.pattern)
            bare.push(`${op.operationId}.${p.name}`);
    // q and parameter are free text, not filters.
    expect(bare.filter((b) => !/\.(q|parameter)$/.test(b))).toEqual(
      ['name', 'manufacturer', 'product_id', 'category'].map((n) => `listMaterials.${n}`),
    );
  });
});

describe('list filters through the API', () => {
  const api = apiForSuite();
  const ids: Record<string, string> = {};
  let c: ReturnType<typeof client>;

  beforeAll(async () => {
    const org = await newOrg(api.orm);
    c = client(api.url, org.api_key);
    const made = async (p: string, body: object) => {
      const r = await c.post(p, body);
      expect(r.status, r.text).toBeLessThan(300);
      return r.body.id as string;
    };
    ids.project_id = await made('/projects', { name: 'Filters' });
    ids.site_id = await made('/sites', { name: 'Filter site' });
    ids.cycler_id = await made(`/sites/${ids.site_id}/cyclers`, { name: 'C1', project_id: ids.project_id, port: 502 });
    ids.channel_id = await made(`/cyclers/${ids.cycler_id}/channels`, { name: 'ch1', max_amps: 5 });
    ids.spec_id = await made('/cell_specifications', { name: 'Spec', project_id: ids.project_id });
    ids.instance_id = await made(`/cell_specifications/${ids.spec_id}/cell_instances`, { name: 'cell 1' });
    ids.study_id = await made(`/projects/${ids.project_id}/studies`, { name: 'Study' });
  });

  // A list that needs one of two scopes.
  const EXTRA: Record<string, string> = {};
  beforeAll(() => {
    EXTRA.listAnalyses = `project_id=${ids.project_id}&`;
  });

  /** Every GET list operation with the query parameters it states, path parameters filled. */
  function lists() {
    const out: { op: string; url: string; params: Parameter[] }[] = [];
    for (const [p, item] of Object.entries(spec.paths)) {
      const op = item.get;
      if (!op?.operationId) continue;
      const url = p.replace(/\{(\w+)\}/g, (_m, n: string) => ids[n] ?? `{${n}}`);
      const params = (op.parameters ?? []).map(resolve);
      const required = params.filter((q) => q.in === 'query' && (q as { required?: boolean }).required);
      if (required.some((q) => !ids[q.name])) continue;
      const fixed = required.map((q) => `${q.name}=${ids[q.name]}&`).join('') + (EXTRA[op.operationId] ?? '');
      if (!url.includes('{')) out.push({ op: op.operationId, url: `${url}?${fixed}`, params });
    }
    return out;
  }

  it('takes every value a filter pattern admits, on every list that states the filter', async () => {
    let sent = 0;
    for (const { op, url, params } of lists())
      for (const p of params) {
        const filter = refName(p.schema);
        if (p.in !== 'query' || !filter || !EXAMPLES[filter]) continue;
        for (const v of EXAMPLES[filter].good) {
          const r = await c.get(`${url}${p.name}=${encodeURIComponent(v)}`);
          expect(r.status, `${op} ${p.name}=${v}: ${r.text}`).toBe(200);
          sent++;
        }
        const bad = EXAMPLES[filter].bad[0]!;
        const r = await c.get(`${url}${p.name}=${encodeURIComponent(bad)}`);
        expect(r.status, `${op} ${p.name}=${bad}: ${r.text}`).toBe(422);
      }
    expect(sent).toBeGreaterThan(300);
  });

  it('sorts by every order_by a list states', async () => {
    for (const { op, url, params } of lists()) {
      const orderBy = params.find((p) => p.name === 'order_by' && p.in === 'query');
      for (const v of orderBy?.schema?.enum ?? []) {
        const r = await c.get(`${url}order_by=${v}`);
        expect(r.status, `${op} order_by=${v}: ${r.text}`).toBe(200);
      }
    }
  });

  it('compares numbers the column cannot hold without an error, and matches the ones it holds', async () => {
    const ports = async (f: string) =>
      (await c.get(`/cyclers?port=${f}`)).body.items.map((x: { port: number }) => x.port);
    expect(await ports('eq.502')).toEqual([502]);
    expect(await ports('in.(1,502.0)')).toEqual([502]);
    expect(await ports('gt.501.5')).toEqual([502]);
    expect(await ports('lt.1e99')).toEqual([502]);
    expect(await ports('gt.999999999999999e99')).toEqual([]);
    const amps = await c.get(`/channels?max_amps=gte.5&out_of_commission=eq.false`);
    expect(amps.body.items.map((x: { name: string }) => x.name)).toEqual(['ch1']);
  });
});
