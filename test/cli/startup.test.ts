/**
 * What a `stimkit` process loads before it works. Each spawned command pays for every module it
 * imports (sharp alone is about 0.3 CPU-s), and the suite spawns `stimkit run` dozens of times: a
 * command loads its stage when it runs (not for `--help` or a usage error), and a stage loads what
 * only some work needs (sharp to convert images, the simulator, the cue checker, the progress bar)
 * when that work comes. Each test runs the built binary under a module hook that lists every file
 * loaded (ES modules through the hook, CommonJS from the require cache at exit); a file of the
 * binary's bundle (dist/app/) stands for the modules it holds (its modules.json).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { packDigests, shippedPacks } from '../../src/languages/load.js';
import { ROOT } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from '../run/fixture.js';

/** The hook: ES modules as they load (in the hooks thread), CommonJS ones at exit. */
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.STARTUP_LOG, url + '\\n');
  return next(url, context);
}`;
const PRELOAD = (hooks: string) => `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(hooks)});
process.on('exit', () => {
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  appendFileSync(process.env.STARTUP_LOG, cjs.map((f) => 'file://' + f).join('\\n') + '\\n');
});`;

let dir: string;
let preload: string;
let runs = 0;

beforeAll(async () => {
  dir = await tempDir('stimkit-startup-');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(hooks, HOOKS);
  preload = path.join(dir, 'preload.mjs');
  writeFileSync(preload, PRELOAD(pathToFileURL(hooks).href));
});

/** Run the binary with `args`; its exit code, stderr and the files it loaded (package-relative). */
function loaded(args: string[]): { code: number | null; stderr: string; files: string[] } {
  const log = path.join(dir, `loaded-${++runs}.txt`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', preload, `${ROOT}bin/stimkit.js`, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, STARTUP_LOG: log },
  });
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file://'))
    .map((u) => u.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'node_modules/'))
    .map((f) => (f.startsWith(ROOT) ? f.slice(ROOT.length) : f))
    .flatMap((f) => (f.startsWith(APP) ? bundled(f.slice(APP.length)) : [f]));
  return { code: r.status, stderr: r.stderr, files };
}

/** Where the binary's bundle lies (scripts/bundle.mjs), package-relative. */
const APP = 'dist/app/';
let modules: Record<string, string[]> | undefined;

/** The modules (dist/…, node_modules/…) of a file of the bundle, as its modules.json lists them. */
function bundled(file: string): string[] {
  modules ??= JSON.parse(readFileSync(`${ROOT}${APP}modules.json`, 'utf8')) as Record<
    string,
    string[]
  >;
  const listed = modules[file];
  if (!listed)
    throw new Error(`${APP}${file} is not in ${APP}modules.json: rebuild (npm run build)`);
  return listed;
}

/** The files of `files` under any of `prefixes`. */
const under = (files: string[], prefixes: string[]) =>
  files.filter((f) => prefixes.some((p) => f.startsWith(p)));

describe('start-up', () => {
  it(
    '`run --help` and `score --help` load no stage: no sharp, no simulator, no scorers, no ledger',
    () => {
      const run = loaded(['run', '--help']);
      expect(run.code).toBe(0);
      // The hook sees the modules (the command's own file is among them).
      expect(run.files).toContain('dist/commands/run.js');
      expect(
        under(run.files, [
          'dist/run/',
          'dist/sim/',
          'dist/client/',
          'node_modules/sharp/',
          'node_modules/better-sqlite3/',
          'node_modules/cli-progress/',
          'node_modules/csv-parse/',
        ]),
      ).toEqual([]);
      const score = loaded(['score', '--help']);
      expect(score.code).toBe(0);
      expect(score.files).toContain('dist/commands/score.js');
      expect(under(score.files, ['dist/score/', 'dist/audit/', 'node_modules/sharp/'])).toEqual([]);
    },
    heavyLimit(4),
  );

  it(
    'a run of a real model loads neither sharp (no image block), the simulator nor the cue checker',
    async () => {
      const bag = path.join(dir, 'bag');
      await writeRunBag(bag, 2);
      // --dry-run plans the whole run (bundle read and verified, requests built with their images)
      // and sends nothing, so no server is needed.
      const dry = loaded([
        'run',
        bag,
        '--model',
        'm',
        '--endpoint',
        'http://127.0.0.1:9/v1',
        '--dry-run',
        '--ledger',
        path.join(dir, 'ledger.sqlite'),
      ]);
      expect(dry.stderr).toContain('dry run');
      expect(dry.code).toBe(0);
      expect(dry.files).toContain('dist/run/run.js');
      expect(
        under(dry.files, [
          'dist/sim/bundle.js',
          'dist/sim/simulate.js',
          'dist/client/image-convert.js',
          'node_modules/sharp/',
          'node_modules/scslre/',
        ]),
      ).toEqual([]);
    },
    heavyLimit(4),
  );

  it('the pack digests a scorer records when it loads are those of the checked packs', () => {
    // packDigests() hashes the shipped files without checking them (that waits for a pack's use).
    const checked = Object.fromEntries(shippedPacks().map((p) => [p.ref, p.sha256]));
    expect(Object.keys(checked).length).toBeGreaterThan(1);
    expect(packDigests()).toEqual(checked);
  });
});
