import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    // Upper bounds, not targets: this machine is shared, and under heavy CPU steal a test that
    // takes 10 s can take a minute or more.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
