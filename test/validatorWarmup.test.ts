// The request validators are built before the API listens: a real request of every shape the
// spec declares (method, path, content type) finds its validator built, so none is compiled
// while a request waits (the build blocked the event loop up to 350 ms; bench/hostile-inputs.ts
// measures the block).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi } from '../api/openapi.ts';
import { requestShapes } from '../api/validatorWarmup.ts';
import { newOrg, startApi, type TestApi } from './harness.ts';

// The validator keys its builds `${METHOD}-${expressRoute}-${contentType}` when it adds them to
// its ajv instances (ajv/dist/2020, required here as the library requires it); a request that
// finds its build cached makes no ajv call at all.
const libraryRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const Ajv2020 = (libraryRequire('ajv/dist/2020') as { default: { prototype: object } }).default;
const REQUEST_KEY = /^(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE)-\//;
const core = Object.getPrototypeOf(Ajv2020.prototype) as { addSchema(...args: unknown[]): unknown };
const { addSchema } = core;
const built: string[] = [];

let api: TestApi;
beforeAll(async () => {
  api = await startApi({ validateResponses: false, warmValidators: true });
  core.addSchema = function (this: unknown, ...args: unknown[]) {
    if (typeof args[1] === 'string' && REQUEST_KEY.test(args[1])) built.push(args[1]);
    return addSchema.apply(this, args);
  };
});
afterAll(async () => {
  core.addSchema = addSchema;
  await api?.close();
});

describe('request validators built at start', () => {
  it('serves a request of every declared shape without building a validator', async () => {
    const org = await newOrg(api.orm);
    const shapes = requestShapes(loadOpenApi().doc);
    expect(shapes.length).toBeGreaterThan(130);
    for (const { method, path, contentType } of shapes) {
      // A fresh id for every parameter: each request is refused (404, 422...) or harmless.
      const url = api.url + path.replace(/\{[^}]+\}/g, () => randomUUID());
      const body =
        contentType === undefined
          ? undefined
          : contentType.startsWith('multipart/')
            ? new FormData()
            : contentType.includes('json')
              ? '{}'
              : '';
      const headers: Record<string, string> = { 'X-API-Key': org.api_key, Accept: 'application/json' };
      if (contentType && !contentType.startsWith('multipart/')) headers['Content-Type'] = contentType;
      const res = await fetch(url, { method: method.toUpperCase(), headers, body });
      await res.arrayBuffer();
      expect(res.status, `${method} ${path} ${contentType ?? ''}`).toBeLessThan(500);
    }
    expect(built).toEqual([]);
    // A content type the spec does not spell so (nor the warm-up) is built on its first request:
    // builds are seen here.
    const res = await fetch(`${api.url}/projects`, {
      method: 'POST',
      headers: { 'X-API-Key': org.api_key, 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ name: 'Charset' }),
    });
    expect(res.status, await res.text()).toBe(201);
    // (two schemas: its parameters' and its body's)
    expect(built).toEqual([
      'POST-/projects-application/json; charset=utf-8',
      'POST-/projects-application/json; charset=utf-8',
    ]);
  });
});
