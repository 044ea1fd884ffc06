// The README's install route, literally: `npm pack`, then `npm install -g` of the tarball (into a
// temporary prefix), then the installed `stimkit demo` from another folder, with A6 made by isnet.
// It needs the npm registry (as `npm ci` does) and nothing else: onnxruntime-node's own install
// script, which downloads GPU libraries from outside the registry, must not run.
//
// One shortcut keeps it within minutes: better-sqlite3 compiles from source when its prebuilt
// binary cannot be downloaded (five minutes here), so the test hands better-sqlite3's installer
// (prebuild-install, its "local prebuilds" setting) the binary this checkout already compiled
// for the same version and Node ABI. And npm is told to prefer its cache (npm_config_prefer_offline,
// the cache `npm ci` of this checkout filled): packages already there are not revalidated with the
// registry one request each, missing ones still come from the registry. Measured here under load
// (one run each): the install step took 170 s without it, 132 s with it. Everything else is
// installed as a user's npm does it.
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 900 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(50) });

const run = promisify(execFile);
const started = Date.now();
/** Say how long the route took so far (the test asserts no times; the figure is for people). */
const lap = (what: string): void =>
  console.log(`${what}: ${Math.round((Date.now() - started) / 1000)} s since the start`);
const HUGE = 256 * 1024 * 1024;

/** The environment of a user's shell: this test's, without the npm_* variables of `npm test`. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'),
  );
  return { ...env, ...extra };
}

/** A copy of the checkout to pack (its node_modules linked), so the build does not touch ours. */
async function checkoutCopy(dir: string): Promise<string> {
  const copy = path.join(dir, 'src-copy');
  await mkdir(copy);
  const skip = new Set(['node_modules', '.git', 'dist', 'wasm', 'isnet', 'stimkit-demo']);
  for (const name of await readdir(ROOT)) {
    if (skip.has(name) || name.endsWith('.tgz')) continue;
    await cp(path.join(ROOT, name), path.join(copy, name), { recursive: true });
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  return copy;
}

/** better-sqlite3's compiled binary as the prebuilt tarball its installer looks for. */
async function localPrebuild(dir: string): Promise<string> {
  const prebuilds = path.join(dir, 'prebuilds');
  await mkdir(prebuilds);
  const bs = path.join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(await readFile(path.join(bs, 'package.json'), 'utf8')) as {
    version: string;
  };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', path.join(prebuilds, name), 'build/Release/better_sqlite3.node'], {
    cwd: bs,
  });
  return prebuilds;
}

describe('npm install -g of the packed tarball', () => {
  it('installs from the npm registry alone and the installed demo makes A6 with isnet', async () => {
    const dir = await tempDir('stimkit-global-');
    const copy = await checkoutCopy(dir);
    const packed = await run('npm', ['pack', '--pack-destination', dir], {
      cwd: copy,
      env: userEnv(),
      maxBuffer: HUGE,
    });
    const tarball = path.join(dir, packed.stdout.trim().split('\n').pop()!);
    lap('npm pack');
    expect(path.basename(tarball)).toMatch(/^stimkit-.*\.tgz$/);

    const prefix = path.join(dir, 'prefix');
    const env = userEnv({
      npm_config_better_sqlite3_local_prebuilds: await localPrebuild(dir),
      npm_config_prefer_offline: 'true',
    });
    const installed = await run('npm', ['install', '-g', '--prefix', prefix, tarball], {
      cwd: dir,
      env,
      maxBuffer: HUGE,
    });
    lap('npm install -g');
    // stimkit's postinstall says nothing when the A6 runtime installed.
    expect(installed.stderr).not.toMatch(/stimkit: .*could not be installed/);
    const pkgDir = path.join(prefix, 'lib', 'node_modules', 'stimkit');
    // onnxruntime-node's install script did not run: no GPU libraries were fetched.
    const ortBin = path.join(pkgDir, 'isnet', 'node_modules', 'onnxruntime-node', 'bin');
    expect(JSON.stringify(await readdir(ortBin, { recursive: true }))).not.toMatch(/cuda/);

    const elsewhere = path.join(dir, 'elsewhere');
    await mkdir(elsewhere);
    const demo = await run(path.join(prefix, 'bin', 'stimkit'), ['demo', '--out', 'out'], {
      cwd: elsewhere,
      env: userEnv(),
      maxBuffer: HUGE,
    });
    lap('stimkit demo');
    expect(demo.stderr).toMatch(/^bundle digest: [0-9a-f]{64}$/m);
    expect(demo.stderr).not.toMatch(/isnet cannot run/);
    const lock = JSON.parse(
      await readFile(path.join(elsewhere, 'out', 'variants', 'variants.lock.json'), 'utf8'),
    );
    expect(lock.segmenter.method).toBe('isnet');
    // The silhouettes the installed copy sealed are the committed demo ladder's, byte for byte
    // (the abstraction entries' A6; the bundle names images by their sha256).
    const committed = JSON.parse(
      await readFile(path.join(ROOT, 'variants', 'demo', 'variants.lock.json'), 'utf8'),
    ) as {
      entries: Array<{
        id: string;
        roles: string[];
        variants: Array<{ code: string; sha256: string }>;
      }>;
    };
    const sealed = new Set(await readdir(path.join(elsewhere, 'out', 'bundle', 'data', 'images')));
    const abstraction = committed.entries.filter((e) => e.roles.includes('abstraction'));
    expect(abstraction.length).toBe(4);
    for (const entry of abstraction) {
      const a6 = entry.variants.find((v) => v.code === 'A6')!;
      expect(sealed.has(`${a6.sha256}.png`), entry.id).toBe(true);
    }
  });
});
