import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: native model and SQLite work in parallel files would only contend.
    maxWorkers: 2,
    // Log files of engines and servers started by tests stay out of the user's data folder.
    env: { LOCI_LOG_DIR: process.env.LOCI_LOG_DIR ?? path.join(os.tmpdir(), 'loci-test-logs') },
  },
});
