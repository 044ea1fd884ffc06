import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { heavyLimit } from './test/helpers/limits.js';
import { LongFirst } from './test/helpers/sequencer.js';

/**
 * The test files that replace a module (`vi.mock`, `vi.doMock`): they run in a module graph of their
 * own (the `suite-isolated` project), because the replacement would otherwise reach every file that
 * runs after them in the same worker. Found by reading the files, so a new one is isolated too.
 */
const MOCKING = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && !f.startsWith('package/'))
  .map((f) => `test/${f.split('\\').join('/')}`)
  .filter((f) => /\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(f, 'utf8')))
  .sort();

/**
 * The setup files of every project: the temporary folders a test file made deleted when it ends
 * (test/helpers/tmp-cleanup.ts); and the CPU of each test file, when asked for
 * (STIMKIT_CPU_LOG=<file>; test/helpers/cpu-log.ts).
 */
const SETUP = [
  'test/helpers/tmp-cleanup.ts',
  ...(process.env.STIMKIT_CPU_LOG ? ['test/helpers/cpu-log.ts'] : []),
];

/** What both halves of `npm test` share: the files, dist/ built once, the shared folder. */
const SUITE = {
  include: ['test/**/*.test.ts'],
  // dist/ built once, and the folder the test files share (the demo run once).
  globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/shared-setup.ts'],
  setupFiles: SETUP,
};

export default defineConfig({
  test: {
    // A test without a limit of its own does at most a few seconds of work on a quiet machine; its
    // limit grows with the load like a heavy test's (test/helpers/limits.ts), so that a busy
    // machine does not fail it: 72 s and 144 s up to load 12 on 2 cores.
    testTimeout: heavyLimit(4),
    hookTimeout: heavyLimit(8),
    // The longest files start first even without the durations of an earlier run.
    sequence: { sequencer: LongFirst },
    // The modules vite transformed (TypeScript to JavaScript) are kept in .cache/vitest and read
    // back by a rerun, keyed by each file's content, its id and the configuration; the suite has no
    // plugin that reads other files, the case vitest's documentation names as able to go stale.
    // Deleting .cache/ starts afresh, as for the checks' caches.
    experimental: { fsModuleCache: true, fsModuleCachePath: '.cache/vitest' },
    pool: 'forks',
    // Every core (vitest's default leaves one idle: on a 2-core CI machine, one test file at a
    // time). Much of the suite waits on child processes and files, so two files per two cores
    // finish the suite in about 280 s instead of 390 s here.
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          ...SUITE,
          name: 'suite',
          exclude: [...configDefaults.exclude, 'test/package/**', ...MOCKING],
          // The files of a worker share one module graph: each file no longer loads and evaluates
          // src/ and its dependencies afresh (about 0.7 CPU-s per file, half the suite's CPU), and
          // what a module keeps (a loaded kernel, an ONNX session, a browser) serves the next file.
          // A file must therefore leave no state behind: it restores what it changes
          // (process.env, a spy) and replaces no module (those run in `suite-isolated`).
          isolate: false,
        },
      },
      {
        extends: true,
        test: { ...SUITE, name: 'suite-isolated', include: MOCKING },
      },
      {
        // The packaging tests: `npm pack`, global installs into temporary prefixes (offline from
        // the clone and the tarball's contents; from the registry with the installed demo run),
        // several minutes of packing, installing and the demo: not in `npm test` but its own step,
        // `npm run test:package`, which CI runs after the tests (.ci/run), so that it does not
        // take the cores the suite needs.
        extends: true,
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          setupFiles: SETUP,
        },
      },
    ],
  },
});
