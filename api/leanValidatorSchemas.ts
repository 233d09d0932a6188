// express-openapi-validator hands ajv each operation's request (and response) schema with the
// whole spec's `paths` and `components` attached, so that `$ref`s can resolve. Cellar gives it
// the spec dereferenced, so nothing in those schemas refers to them, yet ajv walks every node of
// what it is given to collect ids: 6.7 of the 7.3 s the API spent building its 221 request
// validators before listening. ajv receives the same schema without the two members; one
// that still holds a `$ref` keeps them.
import { createRequire } from 'node:module';

type AddSchema = (this: unknown, schema: unknown, key?: string, ...rest: unknown[]) => unknown;

// The ajv the library loads (ajv/dist/2020 for OpenAPI 3.1), resolved from the library itself.
const libraryRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const Ajv2020 = (libraryRequire('ajv/dist/2020') as { default: { prototype: object } }).default;
const core = Object.getPrototypeOf(Ajv2020.prototype) as { addSchema: AddSchema };
/** The library's cache keys: `${METHOD}-${route}-…` for requests and their responses. */
const LIBRARY_KEY = /^(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE)-\//;

function lean(schema: unknown, key: unknown): unknown {
  if (typeof key !== 'string' || !LIBRARY_KEY.test(key) || !schema || typeof schema !== 'object') return schema;
  if (!('paths' in schema) || !('components' in schema)) return schema;
  const { paths: _paths, components: _components, ...rest } = schema as Record<string, unknown>;
  return JSON.stringify(rest).includes('"$ref"') ? schema : rest;
}

let installed = false;

/** Installs the lean schemas on the library's ajv class, once per process. */
export function leanValidatorSchemas(): void {
  if (installed) return;
  installed = true;
  Object.defineProperty(Ajv2020.prototype, 'addSchema', {
    configurable: true,
    writable: true,
    // The core's method is looked up at each call, so that a wrapper installed on it later
    // (test/validatorWarmup.test.ts counts builds that way) still sees every build.
    value: function addSchema(this: unknown, schema: unknown, key?: string, ...rest: unknown[]) {
      return core.addSchema.call(this, lean(schema, key), key, ...rest);
    },
  });
}
