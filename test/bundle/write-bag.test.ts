/**
 * When `--out` may be replaced: only a folder that is provably a bag stimkit wrote (the exact
 * BagIt declaration, a stimkit bundle header, and nothing but the bag's own files), or an empty
 * folder. Anything else is refused with E_BUNDLE_OUT_NOT_A_BAG and left untouched.
 */
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { checkOutFolder, writeBag } from '../../src/bundle/write-bag.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureBag } from '../verify/fixture.js';

const payload = [{ path: 'bundle.json', bytes: '{"format":"stimkit.bundle","version":1}\n' }];

async function refused(out: string): Promise<StimkitError> {
  const err = await writeBag(out, payload, []).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StimkitError);
  return err as StimkitError;
}

describe('writeBag --out rules', () => {
  it('refuses a folder with a bagit.txt that is not a bag stimkit wrote, keeping every file', async () => {
    const root = await tempDir('stimkit-out-');
    const out = path.join(root, 'userdir');
    await mkdir(path.join(out, 'data'), { recursive: true });
    await writeFile(path.join(out, 'bagit.txt'), 'x');
    await writeFile(path.join(out, 'data', 'notes.txt'), 'keep me');
    const err = await refused(out);
    expect(err.code).toBe('E_BUNDLE_OUT_NOT_A_BAG');
    expect(err.exitCode).toBe(1);
    expect(err.problems[0]!.file).toBe(out);
    expect(err.message).toContain('bagit.txt');
    expect(err.problems[0]!.fix).toMatch(/empty or new folder/);
    expect(await readFile(path.join(out, 'data', 'notes.txt'), 'utf8')).toBe('keep me');
    expect(await readFile(path.join(out, 'bagit.txt'), 'utf8')).toBe('x');
  });

  it("refuses a folder of somebody's files, naming the first one (not the missing bagit.txt)", async () => {
    const root = await tempDir('stimkit-out-');
    const out = path.join(root, 'results');
    await mkdir(path.join(out, 'figures'), { recursive: true });
    await writeFile(path.join(out, 'figures', 'fig1.png'), 'x');
    await writeFile(path.join(out, 'notes.txt'), 'keep me');
    const err = await refused(out);
    expect(err.code).toBe('E_BUNDLE_OUT_NOT_A_BAG');
    expect(err.message).toContain('(figures/fig1.png: not a file of a stimkit bag)');
    expect(await readFile(path.join(out, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('refuses a stimkit bag holding a file no manifest lists, naming that file', async () => {
    const root = await tempDir('stimkit-out-');
    const out = path.join(root, 'bag');
    await writeFixtureBag(out);
    await writeFile(path.join(out, 'data', 'my-analysis.csv'), 'a,b\n');
    const err = await refused(out);
    expect(err.code).toBe('E_BUNDLE_OUT_NOT_A_BAG');
    expect(err.message).toContain('data/my-analysis.csv');
    expect(await readFile(path.join(out, 'data', 'my-analysis.csv'), 'utf8')).toBe('a,b\n');

    await rm(path.join(out, 'data', 'my-analysis.csv'));
    await writeFile(path.join(out, 'README.md'), 'mine');
    expect((await refused(out)).message).toContain('README.md');
    await rm(path.join(out, 'README.md'));
    await mkdir(path.join(out, 'data', 'drafts'));
    expect((await refused(out)).message).toContain('data/drafts');
    await rm(path.join(out, 'data', 'drafts'), { recursive: true });
    await symlink('/etc/hostname', path.join(out, 'link'));
    expect((await refused(out)).message).toContain('link');
  });

  it('refuses a bag whose header is not a stimkit bundle, or without a header', async () => {
    const root = await tempDir('stimkit-out-');
    const out = path.join(root, 'other-bag');
    await writeBag(out, [{ path: 'bundle.json', bytes: '{"format":"something.else"}\n' }], []);
    expect((await refused(out)).message).toContain('data/bundle.json');
    const bare = path.join(root, 'bare-bag');
    await mkdir(path.join(bare, 'data'), { recursive: true });
    await writeFile(
      path.join(bare, 'bagit.txt'),
      'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n',
    );
    expect((await refused(bare)).message).toContain('data/bundle.json');
  });

  it('replaces a bag stimkit wrote, and writes into an empty folder', async () => {
    const root = await tempDir('stimkit-out-');
    const out = path.join(root, 'bag');
    await writeFixtureBag(out);
    const again = await writeFixtureBag(out);
    expect(again.files).toBe(5);
    const empty = path.join(root, 'empty');
    await mkdir(empty);
    await writeBag(empty, payload, []);
    expect((await readdir(empty)).sort()).toEqual([
      'bag-info.txt',
      'bagit.txt',
      'data',
      'manifest-sha256.txt',
      'tagmanifest-sha256.txt',
    ]);
  });

  it('checkOutFolder accepts what writeBag would replace and refuses the rest', async () => {
    const root = await tempDir('stimkit-out-');
    await expect(checkOutFolder(path.join(root, 'new'))).resolves.toBe('absent');
    const bag = path.join(root, 'bag');
    await writeFixtureBag(bag);
    await expect(checkOutFolder(bag)).resolves.toBe('replace');
    await writeFile(path.join(root, 'file'), 'x');
    await expect(checkOutFolder(path.join(root, 'file'))).rejects.toMatchObject({
      code: 'E_BUNDLE_OUT',
    });
  });

  it('sweeps stale temporary folders a killed run left next to --out, and only those', async () => {
    const root = await tempDir('stimkit-out-');
    const out = path.join(root, 'bag');
    // A pid that is not running: far above any pid_max.
    const stale = [`.bag.tmp-999999999-0a1b2c3d`, `.bag.tmp-999999999-0a1b2c3d-old`];
    const keep = [
      `.bag.tmp-notes`,
      `.bag.tmp-999999999-0a1b2c3d.bak`,
      `.other.tmp-999999999-0a1b2c3d`,
      `bag.tmp-999999999-0a1b2c3d`,
    ];
    // `out` exists, so the `-old` folder is not put back (core/out-folder.test.ts: when it is)
    await writeBag(out, payload, []);
    for (const name of [...stale, ...keep]) {
      await mkdir(path.join(root, name, 'data'), { recursive: true });
      await writeFile(path.join(root, name, 'data', 'x'), 'x');
    }
    await writeBag(out, payload, []);
    expect((await readdir(root)).sort()).toEqual([...keep, 'bag'].sort());
  });
});
