// The HTTP conventions of docs/spec/wire-conventions.md: validation errors at the field, error
// forms for unknown routes, wrong methods and large bodies, bodiless requests, what PostgreSQL
// cannot store, gzip bodies, correlation ids, health and the OpenAPI document.
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { client, newOrg, type TestApi } from '../harness.ts';

export function httpConventionCases(api: TestApi) {
  it('validation errors are 422 with loc/msg/type naming the field; nothing is written', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const cases: [unknown, (string | number)[]][] = [
      [{ name: '' }, ['body', 'name']],
      [{ name: 'x'.repeat(201) }, ['body', 'name']],
      [{ name: 42 }, ['body', 'name']],
      [{}, ['body', 'name']],
      [{ name: 'ok', description: ['not', 'text'] }, ['body', 'description']],
    ];
    for (const [body, loc] of cases) {
      const res = await c.post('/projects', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body.detail[0]).toMatchObject({ loc });
      expect(typeof res.body.detail[0].msg).toBe('string');
      expect(typeof res.body.detail[0].type).toBe('string');
    }
    expect((await c.get('/projects')).body.total).toBe(0);
    const badId = await c.get('/projects/123');
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(['path', 'project_id']);
    const badLimit = await c.get('/projects?limit=0');
    expect(badLimit.status).toBe(422);
    expect(badLimit.body.detail[0].loc).toEqual(['query', 'limit']);
    // A key holding dots or slashes (PyBaMM parameter names) stays one element of loc.
    const name = 'Negative electrode diffusivity [m2.s-1] / a/b';
    const badValue = await c.post('/parameterized_models', {
      name: 'x',
      model_id: crypto.randomUUID(),
      parameters: { [name]: 'fast' },
    });
    expect(badValue.status).toBe(422);
    expect(badValue.body.detail[0]).toMatchObject({ loc: ['body', 'parameters', name], input: 'fast' });
  });

  const mapsUnknownRoutesToTitle =
    'maps unknown routes to 404, wrong methods to 405, malformed JSON to 422 and large ' +
    'bodies to 413, all in the error form';
  it(mapsUnknownRoutesToTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const unknown = await c.get('/no/such/route');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error_code: 'NOT_FOUND', detail: {} });
    const wrongMethod = await c.put('/projects', {});
    expect(wrongMethod.status).toBe(405);
    const healthPost = await client(api.url).post('/healthz', {});
    expect(healthPost.status).toBe(405);
    expect(healthPost.body.error_code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.body.error_code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
    expect(wrongMethod.body.detail.allowed).toEqual(['GET', 'POST']);
    expect(healthPost.headers.get('allow')).toBe('GET');
    const malformed = await c.call('POST', '/projects', '{"name": ');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toEqual([
      expect.objectContaining({ loc: ['body'], type: 'json_invalid', msg: 'JSON decode error' }),
    ]);
    const trailingComma = await c.call('POST', '/projects', '{"name": "x",}');
    expect(trailingComma.status).toBe(422);
    expect(trailingComma.body.detail[0]).toMatchObject({
      loc: ['body', 13],
      type: 'json_invalid',
      ctx: { error: expect.stringMatching(/position 13/) },
    });
    expect((await c.get('/projects')).body.total).toBe(0);
    const huge = await c.post('/projects', { name: 'big', description: 'x'.repeat(api.config.bodyLimitBytes + 10) });
    expect(huge.status).toBe(413);
    expect(huge.body.error_code).toBe('PAYLOAD_TOO_LARGE');
    for (const res of [unknown, wrongMethod, malformed, huge])
      expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('reads a request sent with no body at all as an empty JSON object, as with Content-Length: 0', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const site = (await c.post('/sites', { name: 'Bodiless', notes: 'kept' })).body;
    // What `curl -X PATCH` without `-d` sends: neither Content-Length nor chunks (fetch adds a
    // Content-Length: 0, so the request is written by hand).
    const bare = (method: string, p: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const { hostname, port } = new URL(api.url);
        const socket = net.connect(Number(port), hostname, () =>
          socket.write(
            `${method} ${p} HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${org.api_key}\r\nContent-Type: ` +
              `application/json\r\nConnection: close\r\n\r\n`,
          ),
        );
        let raw = '';
        socket.on('data', (d) => (raw += d.toString()));
        socket.on('end', () =>
          resolve({ status: Number(raw.split(' ')[1]), body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) }),
        );
        socket.on('error', reject);
      });
    const patched = await bare('PATCH', `/sites/${site.id}`);
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Bodiless', notes: 'kept' });
    const zero = await c.call('PATCH', `/sites/${site.id}`, '', { 'Content-Length': '0' });
    expect(zero.status).toBe(200);
    const project = (await c.post('/projects', { name: 'Bodiless' })).body;
    expect((await bare('PATCH', `/projects/${project.id}`)).body.name).toBe('Bodiless');
    const post = await bare('POST', '/sites');
    expect(post.status).toBe(422);
    expect(post.body.detail[0].loc).toEqual(['body', 'name']);
  });

  const refusesWhatPostgresqlCannotTitle =
    'refuses what PostgreSQL cannot store with 422 at the field: NUL characters, lone ' +
    'surrogates, days not on the calendar';
  it(refusesWhatPostgresqlCannotTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'Calendar' })).body;
    const site = (await c.post('/sites', { name: 'Calendar site' })).body;
    const cases: [string, string, unknown, (string | number)[]][] = [
      ['POST', '/projects', { name: 'nul\u0000name' }, ['body', 'name']],
      ['POST', '/sites', { name: 'ok', notes: 'a\u0000b' }, ['body', 'notes']],
      ['PATCH', `/projects/${project.id}`, { description: 'x\u0000' }, ['body', 'description']],
      ['POST', '/sites', { name: 'lone \ud800 surrogate' }, ['body', 'name']],
      ['GET', '/sites?name=eq.a%00b', undefined, ['query', 'name']],
      [
        'POST',
        `/sites/${site.id}/cyclers`,
        { name: 'Feb', project_id: project.id, last_calibrated_at: '2026-02-30T00:00:00Z' },
        ['body', 'last_calibrated_at'],
      ],
      ['GET', '/cyclers?last_calibrated_at_lt=2026-02-30T00:00:00Z', undefined, ['query', 'last_calibrated_at_lt']],
      ['GET', '/projects?created_at=gte.2026-04-31T00:00:00Z', undefined, ['query', 'created_at']],
    ];
    for (const [method, path, body, loc] of cases) {
      const res = await c.call(method, path, body === undefined ? undefined : JSON.stringify(body));
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
    }
    expect((await c.get('/projects')).body.items.map((p: { name: string }) => p.name)).toEqual(['Calendar']);
    expect((await c.get(`/projects/${project.id}`)).body.description).toBeNull();
    expect((await c.get('/cyclers')).body.total).toBe(0);
    // A leap day is a day.
    expect(
      (
        await c.post(`/sites/${site.id}/cyclers`, {
          name: 'Leap',
          project_id: project.id,
          last_calibrated_at: '2024-02-29T00:00:00Z',
        })
      ).status,
    ).toBe(201);
    expect((await c.get('/cyclers?last_calibrated_at_lt=2024-02-29T12:00:00Z')).body.total).toBe(1);
  });

  it('answers valid JSON that is not an object with 422 at body, and an oversized URL with a JSON 431', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    for (const raw of ['null', '5', '"text"']) {
      const res = await c.call('POST', '/sites', raw);
      expect(res.status, `${raw}: ${res.text}`).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body']);
    }
    // Hundreds of ids in one filter fit (about 17 KB, above Node's default 16 KiB) ...
    const ids = Array.from({ length: 450 }, () => crypto.randomUUID());
    const long = await c.get(`/cyclers?name=in.(${ids.join(',')})`);
    expect(long.status, long.text).toBe(200);
    expect(long.body.total).toBe(0);
    // ... and beyond the limit the answer is still the conventions' error body.
    const tooLong = await c.get(`/sites?name=ilike.%25${'x'.repeat(70_000)}%25`);
    expect(tooLong.status).toBe(431);
    expect(tooLong.headers.get('content-type')).toBe('application/json');
    expect(tooLong.body).toMatchObject({ error_code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', detail: {} });
  });

  it('accepts gzip-compressed bodies', async () => {
    const org = await newOrg(api.orm);
    // Clients gzip bodies of 512 KiB and more; this one is inflated from a few hundred bytes.
    const body = gzipSync(Buffer.from(JSON.stringify({ name: 'zipped', description: 'd'.repeat(9000) })));
    const res = await client(api.url, org.api_key, { 'Content-Encoding': 'gzip' }).call(
      'POST',
      '/projects',
      new Uint8Array(body),
    );
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('zipped');
    expect(res.body.description).toHaveLength(9000);
  });

  const acceptsBodilessGetAndTitle =
    'accepts bodiless GET and DELETE with Content-Type: application/json, and answers ' + 'exactly application/json';
  it(acceptsBodilessGetAndTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const p = (await c.post('/projects', { name: 'bodiless' })).body;
    const get = await c.get(`/projects/${p.id}`);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/json');
    const del = await c.delete(`/projects/${p.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: p.id, deleted: true });
  });

  it('echoes x-correlation-id, or makes one', async () => {
    const res = await client(api.url, undefined, { 'x-correlation-id': 'trace-abc-123' }).get('/healthz');
    expect(res.headers.get('x-correlation-id')).toBe('trace-abc-123');
    const made = await client(api.url).get('/healthz');
    expect(made.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health without a key, and serves the OpenAPI document and the docs page offline', async () => {
    const health = await client(api.url).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', database: 'ok', temporal: 'ok' });
    const json = await client(api.url).get('/openapi.json');
    expect(json.body.openapi).toBe('3.1.0');
    expect(json.body.info.version).toBe('0.1.0');
    expect(Object.keys(json.body.paths).every((p: string) => !/^\/v\d/.test(p))).toBe(true);
    const yaml = await fetch(`${api.url}/openapi.yaml`);
    expect(await yaml.text()).toMatch(/^openapi: 3\.1\.0/);
    const docs = await fetch(`${api.url}/docs`);
    const html = await docs.text();
    expect(html).toContain('/openapi.json');
    const asset = html.match(/src="([^"]+\.js)"/)![1]!;
    expect(asset.startsWith('/')).toBe(true); // served by us, not a CDN
    expect((await fetch(api.url + asset)).status).toBe(200);
  });
}
