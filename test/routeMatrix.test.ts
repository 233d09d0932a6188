// Every operation of openapi.yaml, called as each kind of caller, generated from the spec so a
// new route cannot be left out: with no key (401); as another organization's owner, with this
// organization's real ids in the path (403, as the interface asks, or 404); as a member with no role in the project,
// changing its
// resources (refused); as the owner (never refused for lack of rights). Bodies are the smallest
// the operation's schema accepts, so that requests get past validation to the access checks.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi } from '../api/openapi.ts';
import { apiForSuite, client, eventually, newMember, newOrg } from './harness.ts';
import { labFixture, measurement, ok } from './inventoryHelpers.ts';

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
// Deletes last: the owner's deletes remove the fixtures the other operations are called on.
operations.sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));

const api = apiForSuite();
let ids: Record<string, string>;
let simpleIds: Record<string, string>;
let keys: { owner: string; member: string; foreign: string };

beforeAll(async () => {
  const a = await newOrg(api.orm);
  const owner = client(api.url, a.api_key);
  const lab = await labFixture(owner, { channels: 1 });
  const m = await measurement(owner, lab.instance.id);
  const study = await ok(owner.post(`/projects/${lab.project.id}/studies`, { name: 'Matrix study' }), 201);
  const template = await ok(
    owner.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol: 'Rest for 1 hour', name: 'Matrix rest' },
      project_id: lab.project.id,
      experiment_parameters: {},
    }),
  );
  const planned = await ok(
    owner.post(`/projects/${lab.project.id}/planned_measurements`, {
      name: 'Matrix plan',
      protocol_id: template.template_id,
      cell_specification_id: lab.spec.id,
      estimated_duration_seconds: 3600,
    }),
    201,
  );
  const pipeline = await ok(
    owner.post('/pipelines', {
      project_id: lab.project.id,
      elements: { start: { element_type: 'entry', values: { x: 1 } } },
    }),
    201,
  );
  const simple = await ok(
    owner.post('/simple_pipelines', {
      project_id: lab.project.id,
      elements: { start: { element_type: 'entry', values: { x: 1 } } },
    }),
    202,
  );
  const optimization = await ok(
    owner.post('/optimizations', {
      project_id: lab.project.id,
      config: {
        element_type: 'data_fit',
        model: { type: 'SPM' },
        parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.01 } },
        data: { 'Time [s]': [0, 10, 20], 'Current [A]': [1, 1, 1], 'Voltage [V]': [4, 3.99, 3.98] },
      },
    }),
    201,
  );
  const cellBatch = await ok(
    owner.post(`/cell_specifications/${lab.spec.id}/cell_batches`, { name: 'Matrix lot' }),
    201,
  );
  const board = await ok(
    owner.post(`/projects/${lab.project.id}/studies/${study.id}/simulation_boards`, { name: 'Matrix board' }),
    201,
  );
  const rawBody = { project_id: lab.project.id, filename: 'matrix.csv', content_type: 'text/csv' };
  const rawInit = await ok(owner.post('/raw_data/initiate-upload', rawBody));
  expect((await fetch(rawInit.uploads[0].signed_url, { method: 'PUT', body: 'a,b\n1,2\n' })).ok).toBe(true);
  await ok(owner.post(`/raw_data/${rawInit.raw_data_id}/confirm-upload`, { ...rawBody, size_bytes: 8 }), 201);
  const element = await eventually(
    async () => (await owner.get(`/pipelines/${pipeline.id}/elements`)).body.find((e: any) => e.job_id),
    { what: 'the pipeline element job' },
  );
  // A model builder, in a project of its own so that the lab specification's builder_readiness
  // has no builder to check (that would ask the Python worker, which this suite does not run).
  const modelId = randomUUID();
  await api.orm.em
    .fork()
    .execute(
      `insert into models (id, organization_id, user_id, name, config, simulator_version) values (?, ?, ?, ?, ?, ?)`,
      [modelId, a.organization_id, a.user_id, 'Matrix model', JSON.stringify({ type: 'SPM' }), 'matrix'],
    );
  const builderProject = await ok(
    owner.post('/projects', { name: `Matrix builders ${randomUUID().slice(0, 8)}` }),
    201,
  );
  const builder = await ok(
    owner.post('/model_builders', {
      project_id: builderProject.id,
      model_id: modelId,
      name: 'Matrix builder',
      config: { elements: { spec: { element_type: 'entry', mapping: { 'Electrode area [m2]': 'properties.area' } } } },
    }),
    201,
  );
  const member = await newMember(api.orm, a.organization_id);
  // The user the user routes act on: not the member whose rights are checked (the owner's calls
  // change that user's role, and may remove them).
  const target = await newMember(api.orm, a.organization_id);
  const b = await newOrg(api.orm);
  keys = { owner: a.api_key, member: member.api_key, foreign: b.api_key };
  ids = {
    project_id: lab.project.id,
    site_id: lab.site.id,
    cycler_id: lab.cycler.id,
    channel_id: lab.channels[0].id,
    spec_id: lab.spec.id,
    cell_spec_id: lab.spec.id,
    instance_id: lab.instance.id,
    cell_instance_id: lab.instance.id,
    measurement_id: m.id,
    org_id: a.organization_id,
    user_id: target.user_id,
    study_id: study.id,
    template_id: template.template_id,
    planned_measurement_id: planned.id,
    pipeline_id: pipeline.id,
    optimization_id: optimization.id,
    batch_id: cellBatch.id,
    board_id: board.id,
    raw_data_id: rawInit.raw_data_id,
    job_id: element.job_id,
    model_builder_id: builder.id,
  };
  // /simple_pipelines/{pipeline_id} takes a simple pipeline's id.
  simpleIds = { ...ids, pipeline_id: simple.id };
  await ok(owner.get(`/projects/${lab.project.id}`));
});

/** The operation's path with `ids` where it names one of them (a fresh UUID elsewhere), and whether any was used. */
function url(o: Operation, known: Record<string, string>): { url: string; real: boolean } {
  let real = false;
  const params = new Map(
    ((o.op.parameters ?? []) as Schema[])
      .map(resolve)
      .filter((p) => p.in === 'path')
      .map((p) => [p.name as string, p.schema as Schema]),
  );
  const path = o.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (known[name]) {
      real = true;
      return known[name]!;
    }
    const value = sample(params.get(name));
    return encodeURIComponent(typeof value === 'string' ? value : randomUUID());
  });
  // Required query parameters too, so that the request reaches the access checks.
  const query = ((o.op.parameters ?? []) as Schema[])
    .map(resolve)
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(sample(p.schema)))}`);
  return { url: query.length ? `${path}?${query.join('&')}` : path, real };
}

function body(o: Operation): unknown {
  const content = resolve(o.op.requestBody)?.content ?? {};
  return content['application/json'] ? sample(content['application/json'].schema) : undefined;
}

async function call(o: Operation, key: string | undefined, path: string, payload: unknown) {
  const res = await client(api.url, key).call(o.method, path, payload);
  return { status: res.status, code: (res.body as { error_code?: string } | undefined)?.error_code };
}

describe('route × caller matrix', () => {
  it('covers every operation of openapi.yaml', () => {
    expect(operations.length).toBeGreaterThan(150);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as [string, Operation]))('%s', async (name, o) => {
    const payload = body(o);
    // No key: 401, before anything is looked up or parsed.
    if (!PUBLIC.has(name))
      expect((await call(o, undefined, url(o, {}).url, payload)).status, 'without a key').toBe(401);

    // `batch_id` is a cell batch's; under /simulations/batches it would name a simulation batch.
    const known = o.path.startsWith('/simple_pipelines/')
      ? simpleIds
      : o.path.startsWith('/simulations/batches/')
        ? { ...ids, batch_id: '' }
        : ids;
    const mine = url(o, known);
    if (mine.real) {
      // Another organization: refused. The interface answers 403 for another organization's
      // resource (interface.md, Errors 3), so that it exists is told, and nothing more.
      const foreign = await call(o, keys.foreign, mine.url, payload);
      expect([403, 404], 'another organization').toContain(foreign.status);
      // A member with no role in the project changes none of its resources.
      if (o.method !== 'GET')
        expect(
          (await call(o, keys.member, mine.url, payload)).status,
          'a member without a project role',
        ).not.toBeLessThan(400);
    }
    // The owner may do anything: never refused for lack of rights (a GET of its own resources answers).
    const own = await call(o, keys.owner, mine.url, payload);
    expect([401, 403], 'the owner').not.toContain(own.status);
  });
});
