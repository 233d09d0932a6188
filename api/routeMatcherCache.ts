// express-openapi-validator 5.6 compiles the path pattern of every route it scans, on every
// request (cdimascio/express-openapi-validator#1217 caches them; not in a release yet). It calls
// path-to-regexp's pathToRegexp through the module object, so memoizing that export removes
// the cost: under 64 connections, authenticated GET /auth/health served about 20% more requests
// per second (2–38% over five alternating pairs) and GET /projects 36–105% more. pathToRegexp is
// pure and its regexps have neither the global nor the sticky flag, so one compiled matcher can
// serve every request. Remove this when a release of the validator caches its matchers.
import { createRequire } from 'node:module';

interface PathRegexp {
  regexp: RegExp;
  keys: unknown[];
}
type PathToRegexp = ((path: unknown, options?: Record<string, unknown>) => PathRegexp) & { cached?: true };

// The very module instance the validator requires.
const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
export const validatorPathToRegexp = validatorRequire('path-to-regexp') as { pathToRegexp: PathToRegexp };

export function cacheRouteMatchers(): void {
  const compile = validatorPathToRegexp.pathToRegexp;
  if (compile.cached) return;
  // Keyed by pattern and options; bounded by the routes of the spec and the app.
  const matchers = new Map<string, PathRegexp>();
  const cached: PathToRegexp = (path, options = {}) => {
    if (typeof path !== 'string') return compile(path, options);
    const key =
      `${path}\u0000${options.sensitive}\u0000${options.strict}\u0000` +
      `${options.end}\u0000${options.trailing}\u0000${options.delimiter}`;
    let matcher = matchers.get(key);
    if (!matcher) matchers.set(key, (matcher = compile(path, options)));
    return matcher;
  };
  cached.cached = true;
  validatorPathToRegexp.pathToRegexp = cached;
}
