// A suite's API alone (no workers), for suites whose cases live in modules of their own: the
// cases are handed the answer when they are registered, before the API has started.
import { afterAll, beforeAll } from 'vitest';
import { startApi, type TestApi } from './harness.ts';

/**
 * The API, started before the suite's tests and closed after them. The answer stands for it and
 * may be used once the suite's tests or hooks run.
 */
export function apiOnlyForSuite(): TestApi {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });
  return new Proxy({} as TestApi, {
    get(_, key) {
      if (!api) throw new Error('the suite API is used before its tests started');
      return api[key as keyof TestApi];
    },
  });
}
