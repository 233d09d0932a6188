// express-openapi-validator builds an operation's request validator on the operation's first
// request, per content type, and each build walks the whole dereferenced spec (ajv collects the
// ids of the root schema, which carries every path and component): 20-350 ms of blocked event loop
// on a live request. The library has no way to build them ahead, so at start, before listening,
// every operation is run once through the validator's own middlewares with a request of its own
// shape; the builds are then cached for the requests that come.
import type { Express, RequestHandler } from 'express';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Matches any `{param}` of a path, and no literal segment (none is a UUID). */
const PARAM_VALUE = '00000000-0000-4000-8000-000000000000';

type Operation = { requestBody?: { required?: boolean; content?: Record<string, unknown> } };

/** Method, path and content type (undefined: none sent) of every request shape the spec declares. */
export function requestShapes(
  doc: Record<string, unknown>,
): { method: string; path: string; contentType: string | undefined }[] {
  const shapes = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const types = Object.keys(op.requestBody?.content ?? {});
      // A body that is absent when not required: the request has no content type.
      if (!op.requestBody?.required) shapes.push({ method, path, contentType: undefined });
      for (const contentType of types) shapes.push({ method, path, contentType });
    }
  }
  return shapes;
}

/** Runs each shape through `chain` (the validator's middlewares); resolves with how many and how long. */
export async function warmValidators(
  app: Express,
  chain: RequestHandler[],
  doc: Record<string, unknown>,
): Promise<{ shapes: number; ms: number }> {
  const started = performance.now();
  const shapes = requestShapes(doc);
  for (const { method, path, contentType } of shapes) {
    const url = path.replace(/\{[^}]+\}/g, PARAM_VALUE);
    // What the metadata and request middlewares read: the route, method, content type and the
    // parsed parts (empty, so validation fails, which is expected: only the build is wanted).
    const req = {
      method: method.toUpperCase(),
      url,
      originalUrl: url,
      path: url,
      baseUrl: '',
      app,
      headers: contentType ? { 'content-type': contentType } : {},
      query: {},
      params: {},
      body: {},
    };
    for (const mw of chain) {
      const failed = await new Promise<unknown>((resolve) => {
        try {
          void mw(req as never, {} as never, resolve);
        } catch (err) {
          resolve(err ?? new Error('thrown'));
        }
      });
      if (failed) break;
    }
    // Other work (a health probe) is not held up by a long warm-up.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { shapes: shapes.length, ms: performance.now() - started };
}
