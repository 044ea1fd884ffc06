import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { canonicalJson } from '../../src/core/json.js';
import { imagePayloadPath } from '../../src/bundle/format.js';
import { writeBag } from '../../src/bundle/write-bag.js';
import { verifyBundle, type VerifyResult } from '../../src/verify/verify.js';
import { listFiles } from '../../src/core/walk.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { copyBag, fixtureTrials, IMAGES, reseal, writeFixtureBag } from './fixture.js';

let root: string;
let bag: string;
let digest: string;

beforeAll(async () => {
  root = await tempDir('stimkit-verify-');
  bag = path.join(root, 'bag');
  digest = (await writeFixtureBag(bag)).digest;
});

const names = (r: VerifyResult) => r.problems.map((p) => `${p.code} ${p.file} ${p.message}`);
const mentions = (r: VerifyResult, file: string) =>
  r.problems.some((p) => p.file === file || p.message.includes(file));

describe('verifyBundle on an intact bag', () => {
  it('verifies and reports the digest (sha256 of manifest-sha256.txt)', async () => {
    const r = await verifyBundle(bag);
    expect(names(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.digest).toBe(sha256(await readFile(path.join(bag, 'manifest-sha256.txt'))));
    expect(r.digest).toBe(digest);
    expect(r.trials).toBe(3);
    expect(r.images).toBe(2);
    expect(r.payload.files).toBe(5);
  });

  it('accepts the expected digest and rejects another', async () => {
    expect((await verifyBundle(bag, { digest })).ok).toBe(true);
    const other = await verifyBundle(bag, { digest: '0'.repeat(64) });
    expect(other.ok).toBe(false);
    expect(other.problems.map((p) => p.code)).toEqual(['E_VERIFY_DIGEST']);
  });

  it('writes the BagIt declaration and manifests exactly as RFC 8493 asks', async () => {
    expect(await readFile(path.join(bag, 'bagit.txt'), 'utf8')).toBe(
      'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n',
    );
    const manifest = (await readFile(path.join(bag, 'manifest-sha256.txt'), 'utf8'))
      .trimEnd()
      .split('\n');
    const paths = manifest.map((l) => l.split('  ')[1]!);
    expect(paths).toEqual([...paths].sort());
    expect(paths.every((p) => p.startsWith('data/'))).toBe(true);
    const info = await readFile(path.join(bag, 'bag-info.txt'), 'utf8');
    const octets = IMAGES.reduce((s, b) => s + b.length, 0);
    expect(info).toMatch(/^Payload-Oxum: (\d+)\.5$/m);
    expect(Number(/Payload-Oxum: (\d+)/.exec(info)![1])).toBeGreaterThan(octets);
    expect(info).not.toMatch(/Bagging-Date/);
    const tags = (await readFile(path.join(bag, 'tagmanifest-sha256.txt'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => l.split('  ')[1]);
    expect(tags).toEqual(['bag-info.txt', 'bagit.txt', 'manifest-sha256.txt']);
  });
});

/** The byte positions of `file` the single-byte test flips (see the test). */
function flippedBytes(file: string, length: number): number[] {
  const all = [...Array(length).keys()];
  if (!file.startsWith('data/')) return all;
  return all.filter((i) => i < 16 || i >= length - 16 || i % 16 === 0);
}

describe('verifyBundle on tampered bags', () => {
  it('fails on a single-byte change anywhere in any file, naming the file', async () => {
    // Which bytes are flipped (bit 0, one at a time, the whole bag verified after each):
    // - every byte of the tag files (bagit.txt, bag-info.txt and the two manifests): a flip there
    //   can hit a field name, a digest, a path, a separator or a line end, each checked its own way;
    // - in a payload file (data/...), which verify checks only through its sha256 over the whole
    //   file, the first and last 16 bytes and every 16th byte between: a flip anywhere changes the
    //   sha256, so these show that the whole file is read (start, end, every stretch of 16 bytes)
    //   without verifying the bag some 2,000 more times.
    const work = await copyBag(bag, root, 'bytes');
    const files = (await listFiles(work)).map((f) => f.path);
    expect(files.length).toBe(9);
    let checked = 0;
    for (const file of files) {
      const full = path.join(work, file);
      const original = await readFile(full);
      for (const i of flippedBytes(file, original.length)) {
        const changed = Buffer.from(original);
        changed[i] = changed[i]! ^ 0x01;
        await writeFile(full, changed);
        const r = await verifyBundle(work);
        if (r.ok || !mentions(r, file)) {
          throw new Error(
            `changing byte ${i} of ${file} was not reported: ${JSON.stringify(names(r))}`,
          );
        }
        checked++;
      }
      await writeFile(full, original);
    }
    expect(checked).toBeGreaterThan(1000);
    expect((await verifyBundle(work)).ok).toBe(true);
  });

  it('names an added payload file and an added top-level file', async () => {
    const work = await copyBag(bag, root, 'added');
    await writeFile(path.join(work, 'data', 'notes.txt'), 'added later');
    await mkdir(path.join(work, 'data', 'images', 'more'));
    await writeFile(path.join(work, 'data', 'images', 'more', 'x.png'), 'x');
    await writeFile(path.join(work, 'README.txt'), 'hello');
    const r = await verifyBundle(work);
    expect(r.ok).toBe(false);
    expect(r.extra).toEqual(['README.txt', 'data/images/more/x.png', 'data/notes.txt']);
    expect(r.problems.filter((p) => p.code === 'E_VERIFY_OXUM')).toHaveLength(1);
  });

  it('names a removed payload file, and the trial image it leaves missing', async () => {
    const work = await copyBag(bag, root, 'removed');
    const img = `data/${imagePayloadPath(sha256(IMAGES[1]!))}`;
    await rm(path.join(work, img));
    const r = await verifyBundle(work);
    expect(r.ok).toBe(false);
    expect(r.missing).toEqual([img]);
    expect(r.problems.map((p) => p.code).sort()).toEqual([
      'E_VERIFY_MISSING',
      'E_VERIFY_OXUM',
      'E_VERIFY_TRIAL_IMAGE',
    ]);
  });

  it('names both sides of a renamed payload file', async () => {
    const work = await copyBag(bag, root, 'renamed');
    await rename(path.join(work, 'data', 'trials.jsonl'), path.join(work, 'data', 'trials.json'));
    const r = await verifyBundle(work);
    expect(r.missing).toEqual(['data/trials.jsonl']);
    expect(r.extra).toEqual(['data/trials.json']);
    expect(r.problems.find((p) => p.code === 'E_VERIFY_EXTRA')!.message).toContain('renamed');
  });

  it('names a removed tag file', async () => {
    const work = await copyBag(bag, root, 'no-info');
    await rm(path.join(work, 'bag-info.txt'));
    const r = await verifyBundle(work);
    expect(r.missing).toEqual(['bag-info.txt']);
    expect(r.problems.some((p) => p.code === 'E_VERIFY_OXUM')).toBe(true);
  });

  it('requires the tag manifest: a deleted tagmanifest-sha256.txt is reported', async () => {
    const work = await copyBag(bag, root, 'no-tagmanifest');
    await rm(path.join(work, 'tagmanifest-sha256.txt'));
    const r = await verifyBundle(work);
    expect(r.ok).toBe(false);
    expect(r.missing).toEqual(['tagmanifest-sha256.txt']);
    expect(r.problems.map((p) => `${p.code} ${p.file}`)).toEqual([
      'E_VERIFY_NO_TAGMANIFEST tagmanifest-sha256.txt',
    ]);
  });

  it('requires the tag manifest to cover bagit.txt, bag-info.txt and every manifest', async () => {
    for (const dropped of ['bagit.txt', 'bag-info.txt', 'manifest-sha256.txt']) {
      const work = await copyBag(bag, root, `uncovered-${dropped}`);
      const file = path.join(work, 'tagmanifest-sha256.txt');
      const kept = (await readFile(file, 'utf8'))
        .split('\n')
        .filter((l) => !l.endsWith(`  ${dropped}`));
      await writeFile(file, kept.join('\n'));
      const r = await verifyBundle(work);
      expect(r.ok, dropped).toBe(false);
      expect(
        r.problems.map((p) => `${p.code} ${p.file}`),
        dropped,
      ).toEqual([`E_VERIFY_TAGMANIFEST_COVERAGE ${dropped}`]);
    }
    // A second payload manifest must be covered too.
    const work = await copyBag(bag, root, 'uncovered-md5');
    const lines = (await readFile(path.join(work, 'manifest-sha256.txt'), 'utf8'))
      .trimEnd()
      .split('\n');
    const md5 = await Promise.all(
      lines.map(async (l) => {
        const p = l.split('  ')[1]!;
        return `${createHash('md5')
          .update(await readFile(path.join(work, p)))
          .digest('hex')}  ${p}\n`;
      }),
    );
    await writeFile(path.join(work, 'manifest-md5.txt'), md5.join(''));
    const r = await verifyBundle(work);
    expect(r.problems.map((p) => `${p.code} ${p.file}`)).toEqual([
      'E_VERIFY_TAGMANIFEST_COVERAGE manifest-md5.txt',
    ]);
  });

  it('cross-checks the declared counts against the trials: a trial line deleted and the bag re-sealed', async () => {
    const work = await copyBag(bag, root, 'resealed');
    const file = path.join(work, 'data', 'trials.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, lines.slice(1).join('\n'));
    await reseal(work);
    const r = await verifyBundle(work);
    expect(r.ok).toBe(false);
    expect(r.trials).toBe(2);
    expect(r.images).toBe(1);
    const img1 = `data/${imagePayloadPath(sha256(IMAGES[0]!))}`;
    expect(
      r.problems
        .map((p) =>
          `${p.code} ${p.file} ${p.field ?? ''} ${p.expected ?? ''} ${p.got ?? ''}`.trim(),
        )
        .sort(),
    ).toEqual([
      'E_VERIFY_COUNTS bag-info.txt Stimkit-Images 2 1',
      'E_VERIFY_COUNTS bag-info.txt Stimkit-Trials 3 2',
      'E_VERIFY_COUNTS data/bundle.json images 2 1',
      'E_VERIFY_COUNTS data/bundle.json trials 3 2',
      'E_VERIFY_COUNTS data/counts.json blocks[0].trials 2 1',
      'E_VERIFY_COUNTS data/counts.json by_block[0].trials 1 0',
      'E_VERIFY_COUNTS data/counts.json trials 3 2',
      `E_VERIFY_UNUSED_IMAGE ${img1}`,
    ]);
  });

  it('requires the payload files the header lists', async () => {
    const work = await copyBag(bag, root, 'no-counts');
    await rm(path.join(work, 'data', 'counts.json'));
    await reseal(work);
    const r = await verifyBundle(work);
    expect(r.problems.map((p) => `${p.code} ${p.file}`)).toEqual([
      'E_VERIFY_HEADER_FILE data/counts.json',
    ]);
  });

  it('refuses a header that is JSON but not an object, resealed or not', async () => {
    for (const [text, got] of [
      ['null', 'null'],
      ['[]', 'an array'],
      ['"x"', 'string'],
    ] as const) {
      const work = await copyBag(bag, root, `header-${got.replace(' ', '-')}`);
      await writeFile(path.join(work, 'data', 'bundle.json'), text);
      for (const sealed of [false, true]) {
        if (sealed) await reseal(work);
        const r = await verifyBundle(work);
        expect(r.ok).toBe(false);
        expect(
          r.problems.filter((p) => p.code === 'E_VERIFY_HEADER'),
          text,
        ).toEqual([
          expect.objectContaining({
            file: 'data/bundle.json',
            message: 'not a stimkit bundle header',
            got,
          }),
        ]);
      }
    }
  });

  it('rejects a symbolic link in the payload', async () => {
    const work = await copyBag(bag, root, 'link');
    await symlink('/etc/hostname', path.join(work, 'data', 'link.txt'));
    const r = await verifyBundle(work);
    expect(
      r.problems.some((p) => p.code === 'E_VERIFY_NOT_REGULAR' && p.file === 'data/link.txt'),
    ).toBe(true);
  });

  it('rejects a consistent bag whose trial shows an image it does not hold', async () => {
    const trials = fixtureTrials();
    const work = path.join(root, 'lacking');
    // Write the bag with a third, absent image in one trial: manifests agree, the image is missing.
    const ghost = sha256('ghost');
    const t = trials[0]!;
    t.messages[0]!.content[0] = {
      type: 'image',
      sha256: ghost,
      file: imagePayloadPath(ghost),
      media_type: 'image/png',
    };
    t.images = [ghost];
    await writeFixtureBag(work, trials, [IMAGES[1]!]);
    const r = await verifyBundle(work);
    expect(r.problems.map((p) => `${p.code} ${p.file}`)).toEqual([
      `E_VERIFY_TRIAL_IMAGE data/${imagePayloadPath(ghost)}`,
    ]);
  });

  it('rejects a trial whose id does not match its defining fields', async () => {
    const trials = fixtureTrials();
    trials[2]!.seed = 43;
    const work = path.join(root, 'bad-id');
    await writeFixtureBag(work, trials);
    const r = await verifyBundle(work);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({
      code: 'E_VERIFY_TRIALS',
      file: 'data/trials.jsonl',
      line: 3,
    });
  });

  it('rejects a trial line that is not a trial', async () => {
    const work = path.join(root, 'not-trial');
    await writeFixtureBag(work);
    await appendFile(path.join(work, 'data', 'trials.jsonl'), `${canonicalJson({ id: 'nope' })}\n`);
    const r = await verifyBundle(work);
    expect(r.problems.some((p) => p.code === 'E_VERIFY_TRIALS' && p.line === 4)).toBe(true);
    expect(r.changed).toEqual(['data/trials.jsonl']);
  });
});

describe('stimkit verify', () => {
  it('exits 0 and prints the digest for an intact bag', async () => {
    const r = await runCli(['verify', bag, '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ ok: true, digest, trials: 3 });
    expect(r.stderr).toContain(digest);
  });

  it('exits 1 listing each changed file', async () => {
    const work = await copyBag(bag, root, 'cli-changed');
    await appendFile(path.join(work, 'data', 'bundle.json'), ' ');
    const r = await runCli(['verify', work, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().changed).toEqual(['data/bundle.json']);
    expect(r.stderr).toContain('changed: data/bundle.json');
    // Every problem has a fix, and the human output ends with one for the bundle as a whole.
    for (const p of r.json().problems) expect(p.fix, p.code).toBeTruthy();
    expect(
      r.json().problems.find((p: { code: string }) => p.code === 'E_VERIFY_CHANGED').fix,
    ).toContain('restore the original file');
    expect(r.stderr.trimEnd().split('\n').pop()).toMatch(/^Fix: restore the files named above/);
  });

  it('caps long lists in the human output (first 20, then "and N more"); --json keeps them all', async () => {
    const work = path.join(root, 'many');
    const files = Array.from({ length: 45 }, (_, i) => ({
      path: `images/${String(i).padStart(2, '0')}.png`,
      bytes: `image ${i}`,
    }));
    await writeBag(work, [{ path: 'bundle.json', bytes: '{}\n' }, ...files], []);
    await rm(path.join(work, 'data'), { recursive: true });
    const r = await runCli(['verify', work, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().missing).toHaveLength(46);
    expect(r.stderr).toContain('data: the payload folder data/ is missing');
    expect(
      r.json().problems.filter((p: { code: string }) => p.code === 'E_VERIFY_MISSING'),
    ).toHaveLength(46);
    const missingLine = r.stderr.split('\n').find((l) => l.startsWith('missing: '))!;
    expect(missingLine.split(', ')).toHaveLength(21);
    expect(missingLine).toMatch(/, and 26 more$/);
    const listed = r.stderr.split('\n').filter((l) => l.includes('E_VERIFY_MISSING:'));
    expect(listed).toHaveLength(20);
    expect(r.stderr).toContain('and 26 more E_VERIFY_MISSING problem(s) (--json lists every one)');
  });

  it('exits 1 for a folder that does not exist and 2 for a malformed --digest', async () => {
    expect((await runCli(['verify', path.join(root, 'nothing-here')])).code).toBe(1);
    expect((await runCli(['verify', bag, '--digest', 'abc'])).code).toBe(2);
  });
});
