// The statuses of jobs, simulations, pipelines and elements are written once (workflows/
// statuses.ts); the spec's enums and the database's check constraints must say the same.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { parse } from 'yaml';
import { ROOT } from '../stack/config.ts';
import { OPTIMIZATION_STATUSES, WORK_STATUSES } from '../workflows/statuses.ts';

/** Every enum of a field or parameter named `status` in the spec, with where it is. */
function statusEnums(node: unknown, at: string, found: { at: string; values: unknown[] }[]) {
  if (Array.isArray(node)) node.forEach((n, i) => statusEnums(n, `${at}[${i}]`, found));
  else if (node && typeof node === 'object') {
    const o = node as Record<string, any>;
    if (Array.isArray(o.properties?.status?.enum)) found.push({ at: `${at}.status`, values: o.properties.status.enum });
    if (o.name === 'status' && Array.isArray(o.schema?.enum))
      found.push({ at: `${at}(parameter)`, values: o.schema.enum });
    for (const [k, v] of Object.entries(o)) statusEnums(v, `${at}.${k}`, found);
  }
  return found;
}

describe('work statuses', () => {
  it("are openapi.yaml's status enums of jobs, simulations, pipelines and elements", () => {
    const spec = parse(fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8'));
    // Planned measurements (cancelled, with two l's) and measurement processing have lists of their own.
    // Optimizations answer the same statuses under the client's names.
    const optimization = '.components.schemas.Optimization.status';
    const all = statusEnums(spec, '', []);
    const work = all
      .filter((e) => e.values.includes('canceled') || e.values.includes('pending'))
      .filter((e) => !e.values.includes('ready') && e.at !== optimization);
    expect(work.length).toBeGreaterThanOrEqual(5);
    for (const e of work) expect({ at: e.at, values: e.values }).toEqual({ at: e.at, values: [...WORK_STATUSES] });
    expect(all.find((e) => e.at === optimization)?.values).toEqual(WORK_STATUSES.map((s) => OPTIMIZATION_STATUSES[s]));
  });

  it("are the database's check constraints on jobs, pipelines and pipeline elements", async () => {
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      for (const table of ['jobs', 'pipelines', 'pipeline_elements']) {
        const { rows } = await client.query<{ def: string }>(
          `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = $1::regclass and contype = 'c'
            and pg_get_constraintdef(oid) like '%(status %'`,
          [table],
        );
        expect(rows, table).toHaveLength(1);
        const values = [...rows[0]!.def.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
        expect({ table, values }).toEqual({ table, values: [...WORK_STATUSES] });
      }
    } finally {
      await client.end();
    }
  });
});
