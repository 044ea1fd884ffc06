// Characterization of ingest(): with many bad inputs at once, the full list of problems in its
// order (manifest checks, the images root, each entry's image in manifest order, then duplicates),
// each with its line, field, message and fix; --strict; and a good input's result and lock file.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { ingest } from '../../src/ingest/ingest.js';
import { corpusWith, DEMO_DIR, entry, writeManifest } from './fixtures.js';

const COFFEE = 'cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7';
const CHELSEA = '596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb';

/** A corpus with an exact copy and a smaller JPEG of coffee.png, and an empty file. */
async function corpus(): Promise<string> {
  const dir = await corpusWith('coffee.png', 'chelsea.png');
  await copyFile(path.join(DEMO_DIR, 'coffee.png'), path.join(dir, 'coffee-copy.png'));
  await sharp(path.join(DEMO_DIR, 'coffee.png'))
    .resize(450)
    .jpeg({ quality: 80 })
    .toFile(path.join(dir, 'coffee-small.jpg'));
  await writeFile(path.join(dir, 'empty.png'), '');
  return dir;
}

const noLicense = { provenance: { archive: 'x' } };

describe('ingest: every problem at once, in order', () => {
  it('lists manifest problems, then each image in entry order, then duplicates', async () => {
    const dir = await corpus();
    const manifest = await writeManifest(dir, [
      entry('a', 'coffee.png', noLicense),
      entry('b', 'coffee-copy.png'),
      entry('c', 'coffee-small.jpg'),
      entry('d', 'chelsea.png', {
        image: { file: 'chelsea.png', sha256: 'a'.repeat(64), same_as: 'ghost' },
      }),
      entry('e', 'empty.png'),
      entry('f', 'chelsea.jpeg'),
      entry('g', '../outside.png'),
    ]);
    const shown = (f: string) => path.relative(process.cwd(), path.join(dir, f));
    const at = (line: number, field: string, e: string) => ({
      file: manifest,
      line,
      field,
      entry: e,
    });
    const expected = [
      {
        code: 'W_INGEST_NO_LICENSE',
        severity: 'warning',
        ...at(19, 'entries[0].provenance', 'a'),
        message: 'provenance.license is missing',
        fix: 'add provenance.license (required under --strict)',
      },
      {
        code: 'W_INGEST_NO_CREDIT',
        severity: 'warning',
        ...at(19, 'entries[0].provenance', 'a'),
        message: 'provenance.credit is missing',
        fix: 'add provenance.credit (required under --strict)',
      },
      {
        code: 'E_INGEST_SAME_AS',
        severity: 'error',
        ...at(71, 'entries[3].image.same_as', 'd'),
        message: 'image.same_as names "ghost", which is not an entry',
        fix: 'name the id of the other entry that shares this image',
      },
      {
        code: 'E_INGEST_SHA256_MISMATCH',
        severity: 'error',
        ...at(69, 'entries[3].image.sha256', 'd'),
        message: 'the file does not have the pinned sha256',
        expected: 'a'.repeat(64),
        got: CHELSEA,
        fix: 'supply the exact file the manifest pins (check the archive version), or update the pin if the change is intended',
      },
      {
        code: 'E_IMAGE_EMPTY',
        severity: 'error',
        ...at(89, 'entries[4].image.file', 'e'),
        message: `${shown('empty.png')}: the file is empty (0 bytes)`,
        fix: 'supply the image file again',
      },
      {
        code: 'E_INGEST_IMAGE_MISSING',
        severity: 'error',
        ...at(107, 'entries[5].image.file', 'f'),
        message: `image not found: no file at ${path.join(dir, 'chelsea.jpeg')}`,
        fix: 'did you mean "chelsea.png"? Set image.file: chelsea.png, or supply the file at that path, fix image.file, or pass --allow-missing to list it as missing',
      },
      {
        code: 'E_INGEST_PATH_ESCAPES',
        severity: 'error',
        ...at(125, 'entries[6].image.file', 'g'),
        message: `refused: "../outside.png" points outside the images root ${dir}`,
        fix: 'put the image inside the images root (or point --images at a folder that contains it) and give a relative path',
      },
      {
        code: 'E_INGEST_DUPLICATE_IMAGE',
        severity: 'error',
        ...at(24, 'entries[1]', 'b'),
        message: 'the same image bytes are used by "a" and "b"',
        fix: 'use a different image, or declare it with image.same_as: a (or pass --allow-duplicates)',
      },
      ...['a', 'b'].map((other) => ({
        code: 'W_INGEST_NEAR_DUPLICATE',
        severity: 'warning',
        ...at(42, 'entries[2]', 'c'),
        message: `looks like "${other}" (perceptual hash distance 0 ≤ 10)`,
        fix: `check the two images; if intended, declare image.same_as: ${other}`,
      })),
    ];

    const r = await ingest(manifest, { jobs: 2 });
    expect(r.problems).toEqual(expected);
    expect([r.errors, r.warnings, r.lockFile, r.lockSha256, r.lockWritten]).toEqual([
      6,
      4,
      null,
      null,
      false,
    ]);
    expect(
      r.lock.entries.map((e) => [e.id, e.image.resolved.file, e.image.resolved.status]),
    ).toEqual([
      ['a', 'coffee.png', 'ok'],
      ['b', 'coffee-copy.png', 'ok'],
      ['c', 'coffee-small.jpg', 'ok'],
      ['d', 'chelsea.png', 'ok'],
      ['e', 'empty.png', 'failed'],
      ['f', 'chelsea.jpeg', 'failed'],
      ['g', '../outside.png', 'failed'],
    ]);
    expect(r.lock.entries.map((e) => e.image.resolved.sha256)).toEqual([
      COFFEE,
      COFFEE,
      expect.stringMatching(/^[0-9a-f]{64}$/),
      CHELSEA,
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      null,
      null,
    ]);
    expect(r.lock.near_duplicates).toEqual([
      { a: 'a', b: 'c', distance: 0 },
      { a: 'b', b: 'c', distance: 0 },
    ]);
    expect(r.lock.warnings).toEqual(
      expected
        .filter((p) => p.severity === 'warning')
        .map((p) => ({ code: p.code, entry: p.entry, field: p.field, message: p.message })),
    );

    const strict = await ingest(manifest, { jobs: 1, strict: true });
    expect(strict.problems).toEqual(expected.map((p) => ({ ...p, severity: 'error' })));
    expect([strict.errors, strict.warnings, strict.lock.warnings]).toEqual([10, 0, []]);
    expect(strict.lock.parameters.strict).toBe(true);
  });

  it('puts a missing images folder after the manifest problems, and reads no image', async () => {
    const dir = await corpusWith('coffee.png', 'chelsea.png');
    const manifest = await writeManifest(
      dir,
      [entry('a', 'coffee.png', noLicense), entry('a', 'chelsea.png')],
      { images: 'nope' },
    );
    const r = await ingest(manifest);
    expect(r.problems.map((p) => [p.code, p.severity, p.line, p.field])).toEqual([
      ['E_INGEST_DUPLICATE_ID', 'error', 25, 'entries[1].id'],
      ['W_INGEST_NO_LICENSE', 'warning', 20, 'entries[0].provenance'],
      ['W_INGEST_NO_CREDIT', 'warning', 20, 'entries[0].provenance'],
      ['E_INGEST_IMAGES_ROOT', 'error', 7, 'images'],
    ]);
    const shownDir = path.relative(process.cwd(), dir);
    expect(r.problems[3]).toEqual({
      code: 'E_INGEST_IMAGES_ROOT',
      severity: 'error',
      file: manifest,
      line: 7,
      field: 'images',
      message: `the images folder ${shownDir}/nope does not exist, so no image can be read`,
      fix: `set images: to the folder that holds the images, relative to the manifest's folder (${shownDir}), or pass --images DIR`,
    });
    expect(r.lock.entries.map((e) => [e.image.resolved.file, e.image.resolved.status])).toEqual([
      ['nope/coffee.png', 'failed'],
      ['nope/chelsea.png', 'failed'],
    ]);
    expect(r.lock.images_root).toBe('nope');
  });
});

describe('ingest: a good input', () => {
  it('returns the lock it writes, with its hash, and writes it only when it changed', async () => {
    const dir = await corpus();
    const manifest = await writeManifest(dir, [
      entry('a', 'coffee.png', noLicense),
      entry('c', 'coffee-small.jpg'),
    ]);
    const out = path.join(dir, 'locks');
    const r = await ingest(manifest, { out, nearDuplicateThreshold: 3, pixelLimit: 1e6 });
    const lockFile = path.join(out, 'corpus.lock.json');
    const text = await readFile(lockFile, 'utf8');
    expect(r).toEqual({
      lockFile,
      lockSha256: sha256(text),
      lockWritten: true,
      lock: JSON.parse(text),
      problems: [
        expect.objectContaining({ code: 'W_INGEST_NO_LICENSE', entry: 'a' }),
        expect.objectContaining({ code: 'W_INGEST_NO_CREDIT', entry: 'a' }),
        expect.objectContaining({ code: 'W_INGEST_NEAR_DUPLICATE', entry: 'c' }),
      ],
      errors: 0,
      warnings: 3,
    });
    expect(r.lock).toMatchObject({
      format: 'stimkit.corpus',
      version: 1,
      corpus: 'test',
      languages: ['en', 'zh'],
      manifest: { file: '../test.entries.yaml', sha256: sha256(await readFile(manifest)) },
      images_root: '..',
      parameters: {
        pixel_limit: 1e6,
        near_duplicate_threshold: 3,
        strict: false,
        allow_missing: false,
        allow_duplicates: false,
      },
      near_duplicates: [{ a: 'a', b: 'c', distance: 0 }],
    });
    expect(
      r.lock.entries.map((e) => [e.id, e.image.resolved.file, e.image.resolved.status]),
    ).toEqual([
      ['a', '../coffee.png', 'ok'],
      ['c', '../coffee-small.jpg', 'ok'],
    ]);
    expect(r.lock.warnings.map((w) => w.code)).toEqual([
      'W_INGEST_NO_LICENSE',
      'W_INGEST_NO_CREDIT',
      'W_INGEST_NEAR_DUPLICATE',
    ]);
    const again = await ingest(manifest, { out, nearDuplicateThreshold: 3, pixelLimit: 1e6 });
    expect([again.lockWritten, again.lockSha256]).toEqual([false, r.lockSha256]);
  });
});
