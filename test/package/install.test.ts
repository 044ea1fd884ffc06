/**
 * stimkit outside its clone, offline: the package `npm pack` makes holds everything the command
 * needs (the compiled dist/, the launcher, the shipped manifests), and a global install into a
 * temporary prefix gives a `stimkit` that runs from any folder. Two routes, both offline:
 *
 * - the clone itself: `npm install -g --prefix P <clone>` (what `npm link` does);
 * - the packed tarball's contents: unpacked, with the clone's node_modules standing in for the
 *   dependencies a networked `npm install -g stimkit-<version>.tgz` would fetch, then installed
 *   with `npm install -g --prefix P <folder>`.
 *
 * dist/ is built by the test setup; `--ignore-scripts` keeps npm from building again.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFile, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL } from '../../src/core/tool.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const NPM_FLAGS = ['--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
    timeout: 120_000,
  });
  if (r.error) throw r.error;
  return r;
}

/** Run the installed `stimkit` of prefix `prefix` by name, from `cwd`, as a user's shell would. */
const stimkit = (prefix: string, cwd: string, args: string[]) =>
  run('stimkit', args, cwd, {
    PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
  });

/** A folder with an instrument-only study (no images): a real command runs fast there. */
async function studyFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
  await writeFile(
    path.join(dir, 'pilot.study.yaml'),
    [
      'format: stimkit.study',
      'version: 1',
      'id: pilot',
      'title: Pilot',
      'global_seed: 1',
      'instrument:',
      '  topics: geopolitics.topics.yaml',
      '  wrappers: wrappers.yaml',
      '  topic_ids: [taiwan]',
      '  sampling: {temperature: 0}',
      '  arms: [{id: main, languages: [en, zh], iterations: 2}]',
    ].join('\n'),
  );
}

let tmp: string;
let tarball: string;

beforeAll(async () => {
  tmp = await tempDir('stimkit-install-');
  const packed = run(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', tmp],
    ROOT,
  );
  expect(packed.status, packed.stderr).toBe(0);
  tarball = path.join(tmp, packed.stdout.trim().split('\n').pop()!);
});

describe('stimkit outside its clone', () => {
  it('npm pack ships the compiled command and the shipped data, not the sources or tests', () => {
    const list = run('tar', ['-tzf', tarball], tmp).stdout.split('\n');
    for (const f of [
      'package/package.json',
      'package/bin/stimkit.js',
      'package/dist/cli/main.js',
      // the bundle the binary runs (scripts/bundle.mjs)
      'package/dist/app/main.js',
      'package/dist/app/worker.js',
      'package/dist/app/modules.json',
      'package/manifests/demo.study.yaml',
      'package/corpora/demo/rocket.jpg',
      'package/variants/demo/variants.lock.json',
      'package/README.md',
      // stimkit citable and licensed in the package too (test/export/citation.test.ts)
      'package/LICENSE',
      'package/CITATION.cff',
      'package/CHANGELOG.md',
    ]) {
      expect(list, f).toContain(f);
    }
    expect(
      list.filter((f) => f.startsWith('package/src/') || f.startsWith('package/test/')),
    ).toEqual([]);
  });

  it('installs the unpacked tarball into a prefix; stimkit --version and a real command run from another folder', async () => {
    const pkg = path.join(tmp, 'unpacked');
    await mkdir(pkg);
    expect(run('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1'], tmp).status).toBe(0);
    await symlink(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
    const prefix = path.join(tmp, 'prefix-tarball');
    const inst = run('npm', ['install', '-g', '--prefix', prefix, ...NPM_FLAGS, pkg], tmp);
    expect(inst.status, inst.stderr).toBe(0);
    expect(await readdir(path.join(prefix, 'bin'))).toContain('stimkit');

    const work = path.join(tmp, 'elsewhere');
    await studyFolder(work);
    const version = stimkit(prefix, work, ['--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(TOOL.version);
    const bundled = stimkit(prefix, work, [
      'bundle',
      'pilot.study.yaml',
      '--out',
      'bundle',
      '--json',
    ]);
    expect(bundled.status, bundled.stderr).toBe(0);
    expect(JSON.parse(bundled.stdout)).toMatchObject({ ok: true, trials: 8 });
    expect(stimkit(prefix, work, ['verify', 'bundle']).status).toBe(0);
    // The shipped manifests are found inside the installed package, not in the working folder.
    const check = stimkit(prefix, work, [
      'check',
      path.join(pkg, 'manifests', 'demo.study.yaml'),
      '--json',
    ]);
    expect(check.status, check.stderr).toBe(0);
  });

  it('installs from the clone (npm install -g <clone>, as npm link does)', async () => {
    const prefix = path.join(tmp, 'prefix-clone');
    const inst = run('npm', ['install', '-g', '--prefix', prefix, ...NPM_FLAGS, ROOT], tmp);
    expect(inst.status, inst.stderr).toBe(0);
    const work = path.join(tmp, 'elsewhere-2');
    await studyFolder(work);
    expect(stimkit(prefix, work, ['--version']).stdout.trim()).toBe(TOOL.version);
    const pairs = stimkit(prefix, work, [
      'pairs',
      'geopolitics.topics.yaml',
      '--langs',
      'en',
      '--json',
    ]);
    expect(pairs.status, pairs.stderr).toBe(0);
  });
});
