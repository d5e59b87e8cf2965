import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file has its own database and queue prefix, so files run in parallel safely.
    fileParallelism: true,
    maxWorkers: 4,
  },
});
