import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: native model and SQLite work in parallel files would only contend.
    maxWorkers: 2,
  },
});
