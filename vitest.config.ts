import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { heavyLimit } from './test/helpers/limits.js';
import { LongFirst } from './test/helpers/sequencer.js';

export default defineConfig({
  test: {
    // A test without a limit of its own does at most a few seconds of work on a quiet machine; its
    // limit grows with the load like a heavy test's (test/helpers/limits.ts), so that a busy
    // machine does not fail it: 72 s and 144 s up to load 12 on 2 cores.
    testTimeout: heavyLimit(4),
    hookTimeout: heavyLimit(8),
    // The longest files start first even without the durations of an earlier run.
    sequence: { sequencer: LongFirst },
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
          // dist/ built once, and the folder the test files share (the demo run once).
          globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/shared-setup.ts'],
          // The CPU of each test file, when asked for (STIMKIT_CPU_LOG=<file>; test/helpers/cpu-log.ts).
          setupFiles: process.env.STIMKIT_CPU_LOG ? ['test/helpers/cpu-log.ts'] : [],
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
