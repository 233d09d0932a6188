// The memoized path-to-regexp that express-openapi-validator matches routes with: one compiled
// matcher per pattern and options, matching exactly as a fresh one.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cacheRouteMatchers, validatorPathToRegexp } from '../api/routeMatcherCache.ts';

describe('route matcher cache', () => {
  it('is installed on the path-to-regexp instance the validator uses', () => {
    const validatorDir = createRequire(import.meta.url).resolve('express-openapi-validator');
    const metadata = createRequire(validatorDir);
    expect(metadata('path-to-regexp')).toBe(validatorPathToRegexp);
    cacheRouteMatchers();
    cacheRouteMatchers(); // idempotent
    expect(validatorPathToRegexp.pathToRegexp.cached).toBe(true);
  });

  it('hands out one matcher per pattern and options, matching as a fresh one does', () => {
    cacheRouteMatchers();
    const { pathToRegexp } = validatorPathToRegexp;
    const options = { sensitive: false, strict: false };
    const studies = pathToRegexp('/projects/:project_id/studies', options);
    expect(pathToRegexp('/projects/:project_id/studies', { ...options })).toBe(studies);
    expect(pathToRegexp('/projects/:project_id/studies', { ...options, sensitive: true })).not.toBe(studies);
    expect(pathToRegexp('/projects/:project_id', options)).not.toBe(studies);
    expect((studies.keys as { name: string }[]).map((k) => k.name)).toEqual(['project_id']);
    // The shared regexp keeps no state between matches.
    for (let i = 0; i < 3; i++) {
      expect(studies.regexp.exec('/projects/abc/studies')?.[1]).toBe('abc');
      expect(studies.regexp.exec('/projects/abc/other')).toBeNull();
    }
  });
});
