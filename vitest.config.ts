import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every core (vitest's default leaves one idle: on a 2-core CI machine, one test file at a
    // time). Much of the suite waits on child processes and files, so two files per two cores
    // finish the suite in about 280 s instead of 390 s here.
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/package/**'],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        // The packed tarball installed globally and its demo run (several minutes of build,
        // install and demo): not in `npm test` but its own step, `npm run test:package`, which CI
        // runs after the tests (.ci/run), so that it does not take the cores the suite needs.
        extends: true,
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
