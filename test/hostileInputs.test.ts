// Hostile and careless requests against the real API: each answers its clear 4xx (or, for
// /protocols/validate, valid: false) at once, and the service answers normally afterwards.
// Their event-loop block and memory are measured by bench/hostile-inputs.ts.
import { describe, expect, it } from 'vitest';
import { apiForSuite, client, newMember, newOrg } from './harness.ts';
import { hostileInputs, type HostileInput, type HostileTarget } from './hostileInputs.ts';
import { DoeError, expandDoe } from '../api/services/doe.ts';
import { isDecimal } from '../api/decimal.ts';
import { jsonDepth } from '../api/bodyLimits.ts';

const api = apiForSuite();
const inputs = await hostileInputs();

/** Far above any linear parser's time on 1 MB, far below a quadratic one's (minutes). */
const SANITY_MS = 5_000;

let target: HostileTarget | undefined;
async function theTarget(): Promise<HostileTarget> {
  if (target) return target;
  const org = await newOrg(api.orm);
  const project = await client(api.url, org.api_key).post('/projects', { name: 'Hostile' });
  expect(project.status, project.text).toBe(201);
  const member = await newMember(api.orm, org.organization_id);
  target = { url: api.url, key: org.api_key, memberKey: member.api_key, projectId: project.body.id };
  return target;
}

describe('hostile inputs', () => {
  it.each(inputs.map((i) => [i.name, i] as [string, HostileInput]))('%s', async (_name, input) => {
    const t = await theTarget();
    const send = await input.prepare(t);
    const started = performance.now();
    const res = await send();
    const text = await res.text();
    const ms = performance.now() - started;
    expect(res.status, text.slice(0, 500)).toBe(input.status);
    const body = JSON.parse(text);
    input.check?.(body);
    expect(ms).toBeLessThan(SANITY_MS);
  });

  it('leaves the service answering normally', async () => {
    const t = await theTarget();
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    const c = client(api.url, t.key);
    const project = await c.post('/projects', { name: 'After the storm' });
    expect(project.status, project.text).toBe(201);
    expect((await c.get(`/projects/${project.body.id}`)).body.name).toBe('After the storm');
    // A multipart body within the limits is still read whole.
    const form = new FormData();
    form.append('project_id', t.projectId);
    form.append('name', 'x');
    const res = await fetch(`${api.url}/fit-from-file`, {
      method: 'POST',
      headers: { 'X-API-Key': t.key, Accept: 'application/json' },
      body: form,
    });
    expect(res.status).toBe(422);
    // Nothing was created by the refused requests.
    const projects = (await c.get('/projects')).body;
    expect(projects.items.map((p: { name: string }) => p.name).sort()).toEqual(['After the storm', 'Hostile']);
  });
});

describe('bounded parsers', () => {
  it('sizes a DOE grid from its rows before making any point', () => {
    const started = performance.now();
    const grid = (count: number) => () =>
      expandDoe({
        sampling: 'grid',
        rows: [
          { type: 'range', name: 'x', min: 0, max: 1, count },
          { type: 'discrete', name: 'y', values: [1, 2] },
        ],
      });
    for (const count of [50_000_000, 4_000_000_000, Number.MAX_SAFE_INTEGER]) {
      expect(grid(count)).toThrow(DoeError);
      expect(grid(count)).toThrow(/the grid has \d+ points; at most 10000/);
    }
    expect(performance.now() - started).toBeLessThan(SANITY_MS);
    expect(grid(3)()).toEqual([
      { x: 0, y: 1 },
      { x: 0, y: 2 },
      { x: 0.5, y: 1 },
      { x: 0.5, y: 2 },
      { x: 1, y: 1 },
      { x: 1, y: 2 },
    ]);
    expect(grid(1)()).toEqual([
      { x: 0, y: 1 },
      { x: 0, y: 2 },
    ]);
  });

  it('reads decimals by hand, as the regular expression did, in linear time', () => {
    for (const s of ['1', '-1', '+1.5', '.5', '5.', '1e3', '1E-3', '2.5e+10', '007'])
      expect(isDecimal(s), s).toBe(true);
    for (const s of ['', '.', '-', 'e3', '1e', '1e+', '1.2.3', '1 ', ' 1', '0x10', 'NaN', 'Infinity', '1,5', '--1'])
      expect(isDecimal(s), s).toBe(false);
    const started = performance.now();
    expect(isDecimal(`${'1'.repeat(1_000_000)}x`)).toBe(false);
    expect(isDecimal(`${'1'.repeat(500_000)}.${'1'.repeat(500_000)}e`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(SANITY_MS);
  });

  it('measures JSON nesting outside strings', () => {
    expect(jsonDepth('{"a": [1, {"b": "[[[[["}]}')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    expect(jsonDepth('[]')).toBe(1);
    expect(jsonDepth('5')).toBe(0);
    expect(jsonDepth('['.repeat(1000), 64)).toBe(65);
  });
});
