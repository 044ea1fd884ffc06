/**
 * knip, twice in `npm run lint`: `knip` over everything (tests, bench, scripts), and
 * `knip --production` over what ships, with the tests left out, so that code only the tests use is
 * found. stimkit is a command-line tool, not a library: its only public surface is the `stimkit`
 * binary (bin/stimkit.js, which runs dist/cli/main.js, bundled in dist/app/). Everything else must
 * be reachable from these entries, and an export must be imported by another file (one used only
 * in its own file is not exported) — except in the production run, where a function that its own
 * module uses and the tests import to check it on its own is not dead code.
 */
import type { KnipConfig } from 'knip';

const production = process.argv.includes('--production') || process.argv.includes('-p');

const config: KnipConfig = {
  entry: [
    // bin/stimkit.js and vitest's global setup are found by knip's npm and vitest plugins.
    'src/cli/main.ts!',
    // The maintainers' generators of shipped files (docs/schemas/, the stimulus manifests, the
    // synthetic corpus) and the install and pack steps (postinstall, prepack): production.
    'scripts/*.{ts,mjs}!',
    // bench/index.ts runs bench/<name>.ts by name (`npm run bench -- <name>`).
    'bench/*.ts',
    'test/**/*.test.ts',
    // Read by path by ts-json-schema-generator in test/contract/openai.test.ts, not imported.
    'test/contract/openai-types.ts',
    // vitest's setup file when STIMKIT_CPU_LOG is set (vitest.config.ts), and what it loads into
    // every Node.js process a test starts (by path, through NODE_OPTIONS).
    'test/helpers/cpu-log.ts',
    'test/helpers/cpu-child.mjs',
    // Run as a child process script by test/variants/segment/isnet-processes.test.ts.
    'test/variants/segment/segment-once.mjs',
  ],
  project: ['src/**/*.ts!', 'scripts/**/*.{ts,mjs}!', 'test/**/*.ts', 'bench/**/*.ts'],
  // AssemblyScript sources, compiled by scripts/build-kernels.mjs (asc), not imported.
  ignore: ['src/variants/kernels/as/**'],
  ignoreExportsUsedInFile: production,
  // Exports that only the tests use, kept on purpose (the production run reports each of them):
  ignoreIssues: production
    ? {
        // The simulator's closed forms and presets (docs/simulated-respondents.md): the expected
        // values the parameter-recovery tests compare simulated answers with.
        'src/sim/index.ts': ['exports', 'types'],
        'src/sim/instrument.ts': ['exports'],
        'src/sim/pressure-expected.ts': ['exports'],
        'src/sim/presets.ts': ['exports'],
        // Documented statistics whose re-exports in src/stats/index.ts say why (@internal).
        'src/stats/spearman.ts': ['exports'],
        'src/stats/jonckheere.ts': ['exports'],
        // The median ex-refusal length docs/audit.md describes; no command computes it yet.
        'src/audit/length.ts': ['exports'],
        // A3's detector steps and the TypeScript references of the kernel's byte passes
        // (countEqualJs, complementJs), which the tests check on their own.
        'src/variants/ops/canny.ts': ['exports'],
      }
    : {},
  // Loaded with createRequire on first use (start-up time), so no static import names them: the
  // distributions by src/stats/dist.ts; opencv-wasm by A6's grabcut
  // (src/variants/segment/grabcut.ts), which the production run cannot see (the tests' reference,
  // test/helpers/opencv.ts, names it in the full run).
  ignoreDependencies: ['@stdlib/stats-base-dists-.*', ...(production ? ['opencv-wasm'] : [])],
  // System tools, not npm packages: bench/bundle.ts checks the bag's digests against sha256sum
  // and openssl; test/run/disk-full.test.ts mounts a small tmpfs, test/run/lock-owner.test.ts
  // runs a writer in another PID namespace.
  ignoreBinaries: ['sha256sum', 'openssl', 'mount', 'umount', 'unshare'],
};

export default config;
