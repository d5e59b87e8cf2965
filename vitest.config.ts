import { defineConfig } from 'vitest/config';

const shared = {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    maxWorkers: 4,
    projects: [
      {
        // Each file has its own database and queue prefix, so files run in parallel safely.
        test: { ...shared, name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/faults/**'] },
      },
      {
        // The fault test kills, stops and restarts processes under a burst of load: it runs after the
        // suite, alone, so that what it measures is the service's recovery and not the machine's load.
        test: {
          ...shared,
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
