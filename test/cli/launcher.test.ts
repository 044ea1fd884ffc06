/**
 * bin/stimkit.js runs the bundle (dist/app/) only when it is at least as new as the last compile
 * (dist/build.tsbuildinfo), else dist/ itself: a `tsc` run without the bundle step never leaves
 * the binary running older code. Checked on a copy of the launcher beside two stand-in entry
 * points that say which of them ran.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDirSync } from '../helpers/tmp.js';

const pkg = tempDirSync('stimkit-launcher-');

function entry(rel: string, name: string): void {
  mkdirSync(path.dirname(path.join(pkg, rel)), { recursive: true });
  writeFileSync(
    path.join(pkg, rel),
    `export async function main(argv) { process.stdout.write(${JSON.stringify(name)} + ' ' + argv.slice(2).join(' ')); return 3; }\n`,
  );
}

/** Set a file's modification time to `seconds` after an arbitrary origin. */
function at(rel: string, seconds: number): void {
  const file = path.join(pkg, rel);
  writeFileSync(file, '{}');
  const t = new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
  utimesSync(file, t, t);
}

function launch(): { out: string; code: number | null } {
  const r = spawnSync(process.execPath, [path.join(pkg, 'bin', 'stimkit.js'), 'x', '--y'], {
    encoding: 'utf8',
  });
  return { out: r.stdout, code: r.status };
}

beforeEach(() => {
  rmSync(pkg, { recursive: true, force: true });
  mkdirSync(path.join(pkg, 'bin'), { recursive: true });
  copyFileSync(path.join(ROOT, 'bin', 'stimkit.js'), path.join(pkg, 'bin', 'stimkit.js'));
  entry('dist/cli/main.js', 'dist');
  entry('dist/app/main.js', 'app');
});

describe('bin/stimkit.js', () => {
  it('runs the bundle when it is newer than the compile, with the arguments and exit code', () => {
    at('dist/build.tsbuildinfo', 10);
    at('dist/app/modules.json', 20);
    expect(launch()).toEqual({ out: 'app x --y', code: 3 });
  });

  it('runs dist/ when the compile is newer than the bundle (tsc without the bundle step)', () => {
    at('dist/app/modules.json', 10);
    at('dist/build.tsbuildinfo', 20);
    expect(launch()).toEqual({ out: 'dist x --y', code: 3 });
  });

  it('runs the bundle of an installed package, which has no build info', () => {
    at('dist/app/modules.json', 10);
    expect(launch()).toEqual({ out: 'app x --y', code: 3 });
  });

  it('runs dist/ when there is no bundle', () => {
    at('dist/build.tsbuildinfo', 10);
    expect(launch()).toEqual({ out: 'dist x --y', code: 3 });
  });
});
