// Every bad image is rejected with its own code, naming the manifest, the entry's field and the file,
// while the good entries of the same manifest are still checked.
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { corpusWith, DEMO_DIR, entry, pngClaiming, writeManifest } from './fixtures.js';

async function ingestJson(manifest: string, ...flags: string[]) {
  const run = await runCli(['ingest', manifest, '--json', ...flags]);
  return { ...run, out: run.json() };
}

function problemFor(out: { problems: Array<Record<string, unknown>> }, id: string) {
  return out.problems.filter((p) => p.entry === id);
}

describe('ingest rejects bad image files, one clear message per entry', () => {
  it('rejects truncated, corrupt, zero-byte, text-as-jpg, mislabelled and bomb files; keeps checking the rest', async () => {
    const dir = await corpusWith('coffee.png');
    const rocket = await readFile(path.join(DEMO_DIR, 'rocket.jpg'));
    const chelsea = await readFile(path.join(DEMO_DIR, 'chelsea.png'));
    await writeFile(
      path.join(dir, 'truncated.jpg'),
      rocket.subarray(0, Math.floor(rocket.length / 2)),
    );
    await writeFile(
      path.join(dir, 'truncated.png'),
      chelsea.subarray(0, Math.floor(chelsea.length / 2)),
    );
    await writeFile(
      path.join(dir, 'corrupt.jpg'),
      Buffer.concat([rocket.subarray(0, 2000), Buffer.alloc(6000, 0x55), rocket.subarray(8000)]),
    );
    await writeFile(path.join(dir, 'empty.png'), Buffer.alloc(0));
    await writeFile(path.join(dir, 'notes.jpg'), 'These are field notes, not a photograph.\n');
    await writeFile(
      path.join(dir, 'png-inside.jpg'),
      await readFile(path.join(DEMO_DIR, 'horse.png')),
    );
    await writeFile(path.join(dir, 'bomb.png'), pngClaiming(30000, 30000));
    const manifest = await writeManifest(dir, [
      entry('good', 'coffee.png'),
      entry('truncated-jpeg', 'truncated.jpg'),
      entry('truncated-png', 'truncated.png'),
      entry('corrupt-jpeg', 'corrupt.jpg'),
      entry('zero-bytes', 'empty.png'),
      entry('text-file', 'notes.jpg'),
      entry('mislabelled', 'png-inside.jpg'),
      entry('bomb', 'bomb.png'),
    ]);
    const { code, out, stderr } = await ingestJson(manifest);
    expect(code).toBe(1);
    expect(out.ok).toBe(false);
    expect(out.lock).toBeNull();
    expect(out.images).toEqual({ ok: 1, missing: 0, failed: 7 });
    const expectCode = (id: string, c: string, file: string) => {
      const ps = problemFor(out, id);
      expect(
        ps.map((p) => p.code),
        id,
      ).toEqual([c]);
      expect(ps[0]!.file).toBe(manifest);
      expect(ps[0]!.field).toMatch(/^entries\[\d\]\.image\.file$/);
      expect(ps[0]!.line).toBeGreaterThan(0);
      expect(String(ps[0]!.message)).toContain(file);
      expect(String(ps[0]!.fix).length).toBeGreaterThan(10);
    };
    expectCode('truncated-jpeg', 'E_IMAGE_TRUNCATED', 'truncated.jpg');
    expectCode('truncated-png', 'E_IMAGE_TRUNCATED', 'truncated.png');
    expectCode('corrupt-jpeg', 'E_IMAGE_CORRUPT', 'corrupt.jpg');
    expectCode('zero-bytes', 'E_IMAGE_EMPTY', 'empty.png');
    expectCode('text-file', 'E_IMAGE_UNSUPPORTED', 'notes.jpg');
    expectCode('mislabelled', 'E_IMAGE_MISLABELLED', 'png-inside.jpg');
    expectCode('bomb', 'E_IMAGE_TOO_LARGE', 'bomb.png');
    expect(problemFor(out, 'good')).toEqual([]);
    // The human report on stderr names the manifest line and the file too.
    expect(stderr).toMatch(/test\.entries\.yaml:\d+: entries\[7\]\.image\.file: .*bomb\.png/);
    expect(stderr).toContain('corpus lock NOT written');
  });

  it('applies a configurable pixel limit (default 50 MP)', async () => {
    const dir = await corpusWith('coffee.png'); // 600 × 400 = 0.24 MP
    const manifest = await writeManifest(dir, [entry('coffee', 'coffee.png')]);
    expect((await ingestJson(manifest)).code).toBe(0);
    const limited = await ingestJson(manifest, '--pixel-limit', '200000');
    expect(limited.code).toBe(1);
    expect(problemFor(limited.out, 'coffee').map((p) => p.code)).toEqual(['E_IMAGE_TOO_LARGE']);
    // exact counts: 240,000 > 200,000 (both were "0.2 MP")
    expect(problemFor(limited.out, 'coffee')[0]!.message).toContain(
      '600 × 400 = 240,000 pixels, over the pixel limit of 200,000',
    );
    expect((await runCli(['ingest', manifest, '--pixel-limit', '-5'])).code).toBe(2);
  });

  it('names a file whose name differs only in Unicode normalization (macOS writes NFD)', async () => {
    const dir = await corpusWith('coffee.png');
    const nfc = 'café Ñandú 1989.png';
    await copyFile(path.join(dir, 'coffee.png'), path.join(dir, nfc.normalize('NFD')));
    const manifest = await writeManifest(dir, [entry('cafe', nfc)]);
    const r = await ingestJson(manifest);
    expect(r.code).toBe(1);
    const [p] = problemFor(r.out, 'cafe');
    expect(p).toMatchObject({ code: 'E_INGEST_IMAGE_MISSING' });
    expect(String(p!.fix)).toContain('other Unicode code points');
  });

  it('an SVG, named .png or .svg, is unsupported (convert it), not a rename that leads back', async () => {
    const dir = await corpusWith('coffee.png');
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>';
    await writeFile(path.join(dir, 'logo.png'), svg);
    await writeFile(path.join(dir, 'logo.svg'), svg);
    const manifest = await writeManifest(dir, [
      entry('as-png', 'logo.png'),
      entry('as-svg', 'logo.svg'),
    ]);
    const r = await ingestJson(manifest);
    expect(r.code).toBe(1);
    for (const id of ['as-png', 'as-svg']) {
      const [p] = problemFor(r.out, id);
      expect(p).toMatchObject({ code: 'E_IMAGE_UNSUPPORTED' });
      expect(String(p!.fix)).toContain('convert it to PNG');
    }
  });

  it('refuses paths that escape the images root: .., absolute paths, symlinks out', async () => {
    const outside = await corpusWith('coffee.png');
    const dir = await corpusWith('chelsea.png');
    await symlink(path.join(outside, 'coffee.png'), path.join(dir, 'link-out.png'));
    await symlink(path.join(dir, 'chelsea.png'), path.join(dir, 'link-in.png'));
    const manifest = await writeManifest(dir, [
      entry('dotdot', `../${path.basename(outside)}/coffee.png`),
      entry('absolute', path.join(outside, 'coffee.png')),
      entry('symlink-out', 'link-out.png'),
      entry('symlink-in', 'link-in.png', { image: { file: 'link-in.png', same_as: 'plain' } }),
      entry('plain', 'chelsea.png'),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(code).toBe(1);
    for (const id of ['dotdot', 'absolute', 'symlink-out']) {
      expect(
        problemFor(out, id).map((p) => p.code),
        id,
      ).toEqual(['E_INGEST_PATH_ESCAPES']);
    }
    expect(String(problemFor(out, 'symlink-out')[0]!.message)).toContain('symbolic link');
    expect(problemFor(out, 'symlink-in')).toEqual([]);
  });

  it('checks a pinned sha256', async () => {
    const dir = await corpusWith('coffee.png');
    const wrong = 'a'.repeat(64);
    const manifest = await writeManifest(dir, [
      entry('pinned', 'coffee.png', { image: { file: 'coffee.png', sha256: wrong } }),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(code).toBe(1);
    const [p] = problemFor(out, 'pinned');
    expect(p).toMatchObject({
      code: 'E_INGEST_SHA256_MISMATCH',
      field: 'entries[0].image.sha256',
      expected: wrong,
    });
    expect(p!.got).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records format, size, orientation, colour space, ICC, bit depth and alpha', async () => {
    const dir = await corpusWith('rocket.jpg', 'horse.png', 'camera.png');
    // A 16-bit PNG stored on its side with EXIF orientation 6.
    await sharp(path.join(DEMO_DIR, 'coffee.png'))
      .toColourspace('rgb16')
      .png()
      .withMetadata({ orientation: 6 })
      .toFile(path.join(dir, 'rotated16.png'));
    const manifest = await writeManifest(dir, [
      entry('rocket', 'rocket.jpg'),
      entry('horse', 'horse.png'),
      entry('camera', 'camera.png'),
      entry('rotated', 'rotated16.png'),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(code).toBe(0);
    const lock = JSON.parse(await readFile(path.join(dir, 'test.corpus.lock.json'), 'utf8'));
    const img = (id: string) =>
      lock.entries.find((e: { id: string }) => e.id === id).image.resolved;
    expect(img('rocket')).toMatchObject({
      format: 'jpeg',
      width: 640,
      height: 427,
      colour_space: 'srgb',
      bit_depth: 8,
      has_alpha: false,
    });
    expect(img('rocket').icc.description).toBe('Adobe RGB (1998)');
    expect(img('horse')).toMatchObject({ format: 'png', channels: 4, has_alpha: true, icc: null });
    expect(img('camera')).toMatchObject({ colour_space: 'b-w', channels: 1 });
    expect(img('rotated')).toMatchObject({
      exif_orientation: 6,
      width: 600,
      height: 400,
      oriented_width: 400,
      oriented_height: 600,
      bit_depth: 16,
    });
    for (const id of ['rocket', 'horse', 'camera', 'rotated'])
      expect(img(id).phash).toMatch(/^[0-9a-f]{16}$/);
    expect(out.images.ok).toBe(4);
  });
});

describe('ingest with images not yet supplied', () => {
  it('fails on a missing file, or lists it as missing with --allow-missing', async () => {
    const dir = await corpusWith('coffee.png');
    const manifest = await writeManifest(dir, [
      entry('here', 'coffee.png'),
      entry('absent', 'archive/tank-man.jpg'),
    ]);
    const strict = await ingestJson(manifest);
    expect(strict.code).toBe(1);
    expect(problemFor(strict.out, 'absent').map((p) => p.code)).toEqual(['E_INGEST_IMAGE_MISSING']);
    const allowed = await ingestJson(manifest, '--allow-missing');
    expect(allowed.code).toBe(0);
    expect(allowed.out.missing).toEqual(['absent']);
    expect(allowed.out.images).toEqual({ ok: 1, missing: 1, failed: 0 });
    const lock = JSON.parse(await readFile(path.join(dir, 'test.corpus.lock.json'), 'utf8'));
    expect(lock.entries[1].image.resolved).toMatchObject({
      status: 'missing',
      sha256: null,
      file: 'archive/tank-man.jpg',
    });
  });

  it('still rejects a broken file that is present, under --allow-missing', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'broken.png'), Buffer.alloc(0));
    const manifest = await writeManifest(dir, [entry('broken', 'broken.png')]);
    const { code, out } = await ingestJson(manifest, '--allow-missing');
    expect(code).toBe(1);
    expect(problemFor(out, 'broken').map((p) => p.code)).toEqual(['E_IMAGE_EMPTY']);
  });
});

describe('ingest edge cases found in review', () => {
  it('accepts valid images with data after their end marker, and names beginning with ".."', async () => {
    const dir = await corpusWith();
    const rocket = await readFile(path.join(DEMO_DIR, 'rocket.jpg'));
    const horse = await readFile(path.join(DEMO_DIR, 'horse.png'));
    // A phone "motion photo" appends a video after the JPEG's EOI marker.
    await writeFile(
      path.join(dir, 'motion.jpg'),
      Buffer.concat([rocket, Buffer.alloc(50_000, 0x42)]),
    );
    await writeFile(path.join(dir, 'padded.png'), Buffer.concat([horse, Buffer.alloc(8000)]));
    await writeFile(path.join(dir, '..dotted.png'), horse.subarray(0));
    const manifest = await writeManifest(dir, [
      entry('motion', 'motion.jpg'),
      entry('padded', 'padded.png', { image: { file: 'padded.png', same_as: 'dotted' } }),
      entry('dotted', '..dotted.png'),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(out.problems).toEqual([]);
    expect(code).toBe(0);
  });

  it('refuses a folder given as image.file, without crashing', async () => {
    const dir = await corpusWith('coffee.png');
    await mkdir(path.join(dir, 'sub'));
    const manifest = await writeManifest(dir, [
      entry('folder', 'sub'),
      entry('dot', '.'),
      entry('ok', 'coffee.png'),
    ]);
    const { code, out } = await ingestJson(manifest);
    expect(code).toBe(1);
    expect(problemFor(out, 'folder').map((p) => p.code)).toEqual(['E_INGEST_NOT_A_FILE']);
    expect(problemFor(out, 'dot').map((p) => p.code)).toEqual(['E_INGEST_NOT_A_FILE']);
    expect(out.missing).toEqual([]);
    expect(out.images).toEqual({ ok: 1, missing: 0, failed: 2 });
  });

  it('records paths through a symlinked images root as written, so later stages can open them', async () => {
    const real = await corpusWith('chelsea.png');
    const dir = await tempDir();
    await symlink(real, path.join(dir, 'linkroot'));
    const manifest = await writeManifest(dir, [entry('cat', 'chelsea.png')], {
      images: 'linkroot',
    });
    const { code } = await ingestJson(manifest);
    expect(code).toBe(0);
    const lock = JSON.parse(await readFile(path.join(dir, 'test.corpus.lock.json'), 'utf8'));
    expect(lock.entries[0].image.resolved.file).toBe('linkroot/chelsea.png');
    expect(lock.images_root).toBe('linkroot');
  });

  it('does not call rejected images "missing"', async () => {
    const dir = await corpusWith();
    await writeFile(path.join(dir, 'empty.png'), Buffer.alloc(0));
    const manifest = await writeManifest(dir, [
      entry('empty', 'empty.png'),
      entry('absent', 'nothing-here.png'),
    ]);
    const { out, stderr } = await ingestJson(manifest);
    expect(out.images).toEqual({ ok: 0, missing: 0, failed: 2 });
    expect(out.missing).toEqual([]);
    expect(stderr).not.toContain('missing images (to be supplied)');
  });

  it('refuses an --out that is a file, with exit 1 and no stack trace', async () => {
    const dir = await corpusWith('coffee.png');
    await writeFile(path.join(dir, 'taken'), 'a file');
    const manifest = await writeManifest(dir, [entry('coffee', 'coffee.png')]);
    const run = await runCli(['ingest', manifest, '--out', path.join(dir, 'taken')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('a file of that name is in the way');
    expect(run.stderr).not.toContain('internal error');
  });
});
