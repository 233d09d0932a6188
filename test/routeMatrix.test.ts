// Every operation of openapi.yaml, called as each kind of caller, generated from the spec so a
// new route cannot be left out: with no key (401); as another organization's owner, with this
// organization's real ids in the path (403, docs/decisions/foreign-resources.md); as a member with
// no role in the project, changing its resources (refused); as the owner (never refused for lack of
// rights). Every kind of id in a path has a fixture (routeMatrixFixtures.ts). Bodies are the
// smallest the operation's schema accepts, so that requests get past validation to the access checks.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi } from '../api/openapi.ts';
import { apiForSuite, client } from './harness.ts';
import { idKind, matrixFixtures } from './routeMatrixFixtures.ts';

type Schema = Record<string, any>;
const doc = loadOpenApi().doc as Schema;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Answered without a key by design. */
const PUBLIC = new Set(['GET /healthz']);

function resolve(s: Schema | boolean | undefined): Schema {
  let cur = typeof s === 'object' && s ? s : {};
  while (cur.$ref)
    cur = (cur.$ref as string)
      .slice(2)
      .split('/')
      .reduce((o: Schema, k: string) => o[k], doc);
  return cur;
}

/** The smallest value `schema` accepts, as far as this simple reading of it goes. */
function sample(raw: Schema | undefined, depth = 0): unknown {
  const s = resolve(raw);
  if (depth > 8) return null;
  if ('const' in s) return s.const;
  if (s.enum) return s.enum.find((v: unknown) => v !== null) ?? s.enum[0];
  if (s.oneOf || s.anyOf) {
    const options = (s.oneOf ?? s.anyOf) as Schema[];
    const typed = options.map(resolve).find((o) => o.type === 'object' || o.properties) ?? options[0];
    return sample(
      {
        ...s,
        oneOf: undefined,
        anyOf: undefined,
        ...typed,
        properties: { ...s.properties, ...resolve(typed).properties },
      },
      depth + 1,
    );
  }
  if (s.allOf) return sample(Object.assign({}, ...s.allOf.map(resolve), { allOf: undefined }), depth + 1);
  const type = Array.isArray(s.type)
    ? s.type.find((t: string) => t !== 'null')
    : (s.type ?? (s.properties ? 'object' : undefined));
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = sample(s.properties?.[k] ?? s.additionalProperties, depth + 1);
      // Declared properties first: an undeclared one is refused where additionalProperties is false.
      const optional = Object.keys(s.properties ?? {}).filter((k) => !(k in out));
      for (let i = Object.keys(out).length; i < (s.minProperties ?? 0); i++) {
        const k = optional.shift();
        if (k) out[k] = sample(s.properties[k], depth + 1);
        else out[`p${i}`] = sample(s.additionalProperties, depth + 1);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, depth + 1));
    case 'string':
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'date') return new Date().toISOString().slice(0, 10);
      if (s.format === 'email') return `${randomUUID().slice(0, 8)}@example.test`;
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

interface Operation {
  method: string;
  path: string;
  op: Schema;
}
const operations: Operation[] = [];
for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
  for (const method of METHODS)
    if (item[method]) operations.push({ method: method.toUpperCase(), path, op: item[method] });
}
// Deletes last, each record's after those of the records that hang on it: the owner's deletes
// remove the fixtures, and a parent removed first would take its children with it.
const REMOVAL_ORDER = [
  'user_id',
  'analysis_id',
  'dataset_id',
  'raw_data_id',
  'board_id',
  'simulation_id',
  'planned_measurement_id',
  'template_id',
  'model_builder_id',
  'parameterized_model_id',
  'spec_parameterized_model_id',
  'model_id',
  'pipeline_id',
  'simple_pipeline_id',
  'measurement_id',
  'instance_id',
  'batch_id',
  'spec_id',
  'channel_id',
  'cycler_id',
  'site_id',
  'study_id',
  'project_id',
];
/** -1 for all but deletes; then a sub-resource's (.../watch), then by the kind removed. */
function removalRank(o: Operation): number {
  if (o.method !== 'DELETE') return -1;
  const last = /\{([^}]+)\}$/.exec(o.path);
  return last ? 1 + REMOVAL_ORDER.indexOf(idKind(o.path, last[1]!)) : 0;
}
const depth = (o: Operation) => o.path.split('{').length;
// Among deletes of one kind, a link's (/studies/{s}/simulations/{id}) before the record's own.
operations.sort((x, y) => removalRank(x) - removalRank(y) || (removalRank(x) >= 0 ? depth(y) - depth(x) : 0));

// The Python worker answers the model checks some operations ask for (a model's build, its
// variable names), which would otherwise wait out the worker call's 45 s timeout.
const api = apiForSuite({ python: true });
let ids: Record<string, string>;
let keys: { owner: string; member: string; foreign: string };

beforeAll(async () => {
  ({ ids, keys } = await matrixFixtures(api));
});

/** Path parameters that name a record (`*_id`), by operation: each must have a fixture of its kind. */
function idParams(o: Operation): string[] {
  return [...o.path.matchAll(/\{([^}]+_id)\}/g)].map((m) => idKind(o.path, m[1]!));
}

/** The operation's path with the fixtures' ids (with none: sample values), and its required query parameters. */
function url(o: Operation, withIds: boolean): string {
  const params = new Map(
    ((o.op.parameters ?? []) as Schema[])
      .map(resolve)
      .filter((p) => p.in === 'path')
      .map((p) => [p.name as string, p.schema as Schema]),
  );
  const path = o.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const id = withIds ? ids[idKind(o.path, name)] : undefined;
    if (id) return id;
    const value = sample(params.get(name));
    return encodeURIComponent(typeof value === 'string' ? value : randomUUID());
  });
  // Required query parameters too, so that the request reaches the access checks.
  const query = ((o.op.parameters ?? []) as Schema[])
    .map(resolve)
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(sample(p.schema)))}`);
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** The smallest body the operation takes: JSON, or a multipart form with a one-byte file. */
function body(o: Operation): unknown {
  const content = resolve(o.op.requestBody)?.content ?? {};
  if (content['application/json']) return sample(content['application/json'].schema);
  if (!content['multipart/form-data']) return undefined;
  const schema = resolve(content['multipart/form-data'].schema);
  const form = new FormData();
  for (const [k, v] of Object.entries(sample(schema) as Record<string, unknown>)) {
    if (resolve(schema.properties?.[k]).format === 'binary') form.append(k, new Blob(['x']), 'x.bin');
    else form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return form;
}

async function call(o: Operation, key: string | undefined, path: string, payload: unknown) {
  const res =
    payload instanceof FormData
      ? await fetch(api.url + path, {
          method: o.method,
          headers: { Accept: 'application/json', ...(key ? { 'X-API-Key': key } : {}) },
          body: payload,
        }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => undefined) }))
      : await client(api.url, key).call(o.method, path, payload);
  const error = res.body as { error_code?: string; message?: string } | undefined;
  return { status: res.status, code: error?.error_code, message: error?.message };
}

describe('route × caller matrix', () => {
  it('covers every operation of openapi.yaml', () => {
    expect(operations.length).toBeGreaterThan(150);
  });

  it('has a fixture for every kind of id in a path, so that no operation skips the foreign-organization check', () => {
    const missing = operations.flatMap((o) =>
      idParams(o)
        .filter((kind) => !ids[kind])
        .map((kind) => `${o.method} ${o.path}: ${kind}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as [string, Operation]))('%s', async (name, o) => {
    const payload = body(o);
    // No key: 401, before anything is looked up or parsed.
    if (!PUBLIC.has(name)) expect((await call(o, undefined, url(o, false), payload)).status, 'without a key').toBe(401);

    const mine = url(o, true);
    if (idParams(o).length) {
      // Another organization's owner, naming this organization's records: 403 FORBIDDEN on every
      // operation (docs/decisions/foreign-resources.md); none looks a path's record up within the
      // caller's organization, where 404 would be right.
      const foreign = await call(o, keys.foreign, mine, payload);
      expect(foreign, 'another organization').toEqual({
        status: 403,
        code: 'FORBIDDEN',
        // It names the kind of record (or that the key acts for another organization), nothing of it.
        message: expect.stringMatching(/^(the [a-z ]+ belongs to|this key acts for) another organization$/),
      });
      // A member with no role in the project changes none of its resources.
      if (o.method !== 'GET')
        expect((await call(o, keys.member, mine, payload)).status, 'a member without a project role').not.toBeLessThan(
          400,
        );
    }
    // The owner may do anything: never refused for lack of rights (a GET of its own resources answers).
    const own = await call(o, keys.owner, mine, payload);
    expect([401, 403], 'the owner').not.toContain(own.status);
  });
});
