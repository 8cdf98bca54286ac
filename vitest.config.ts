import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'sdk/typescript/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores on CI; suites start daemons, Chromium and containers, so more workers only thrash.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
