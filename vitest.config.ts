import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every core (vitest's default leaves one idle: on a 2-core CI machine, one test file at a
    // time). Much of the suite waits on child processes and files, so two files per two cores
    // finish the suite in about 280 s instead of 390 s here.
    maxWorkers: os.availableParallelism(),
  },
});
