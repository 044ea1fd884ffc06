/**
 * Golden checks of the committed demo ladder (variants/demo, made by `stimkit variants
 * corpora/demo/corpus.lock.json --out variants/demo`): the lock vouches for every file, and a
 * fresh run reproduces A0–A5 perceptually (same size, perceptual hash within 2 bits, mean |Δ| ≤
 * 0.5 — not bytes, since a JPEG decoder or zlib build may differ). A6 needs the IS-Net model and
 * takes seconds per image: set STIMKIT_TEST_MODEL=1 to compare the silhouettes too (IoU ≥ 0.98).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { hamming, phashOf } from '../../src/core/phash.js';
import { readVariantsLock, type VariantsLock } from '../../src/variants/lock.js';
import { runVariants, type VariantsResult } from '../../src/variants/run.js';
import { tempDir } from '../helpers/tmp.js';
import { DEMO_LOCK, diff, rawOf, sha } from './helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 306 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(17) });

const GOLDEN = new URL('../../variants/demo/', import.meta.url).pathname;
const WITH_MODEL = process.env.STIMKIT_TEST_MODEL === '1';
let golden: VariantsLock;
let fresh: VariantsResult;
let out: string;

beforeAll(async () => {
  golden = await readVariantsLock(path.join(GOLDEN, 'variants.lock.json'));
  out = await tempDir('stimkit-golden-');
  fresh = await runVariants(DEMO_LOCK, {
    out,
    only: WITH_MODEL ? undefined : ['A0', 'A1', 'A2', 'A3', 'A4', 'A5'],
  });
});

describe('committed demo ladder', () => {
  it('has all seven variants of every demo entry, each file with the sha256 its lock records', async () => {
    expect(golden.entries).toHaveLength(6);
    expect(golden.summary).toMatchObject({ entries: 6, ok: 6, failed: 0, outputs: 42 });
    expect(golden.segmenter).toMatchObject({ method: 'isnet' });
    for (const e of golden.entries) {
      expect(e.variants.map((v) => v.code)).toEqual(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6']);
      for (const v of e.variants)
        expect(sha(await readFile(path.join(GOLDEN, v.file!))), v.file!).toBe(v.sha256);
    }
    const sheet = golden.contact_sheets[0]!;
    expect(sha(await readFile(path.join(GOLDEN, sheet.file)))).toBe(sheet.sha256);
    expect(golden.inputs.corpus_lock.file).toBe('../../corpora/demo/corpus.lock.json');
  });

  it('is reproduced by a fresh run (perceptually)', async () => {
    expect(fresh.failed).toBe(0);
    for (const e of fresh.lock.entries) {
      const g = golden.entries.find((x) => x.id === e.id)!;
      for (const v of e.variants) {
        const gv = g.variants.find((x) => x.code === v.code)!;
        const label = `${e.id} ${v.code}`;
        expect([v.width, v.height, v.channels], label).toEqual([gv.width, gv.height, gv.channels]);
        const [a, b] = [path.join(out, v.file!), path.join(GOLDEN, gv.file!)];
        if (v.code === 'A6') {
          const [ma, mb] = [(await rawOf(a)).data, (await rawOf(b)).data];
          let inter = 0;
          let union = 0;
          for (let i = 0; i < ma.length; i++) {
            inter += ma[i] === 0 && mb[i] === 0 ? 1 : 0;
            union += ma[i] === 0 || mb[i] === 0 ? 1 : 0;
          }
          expect(union ? inter / union : 1, label).toBeGreaterThanOrEqual(0.98);
          continue;
        }
        expect(
          hamming(await phashOf(sharp(a)), await phashOf(sharp(b))),
          label,
        ).toBeLessThanOrEqual(2);
        expect(diff((await rawOf(a)).data, (await rawOf(b)).data).mean, label).toBeLessThanOrEqual(
          0.5,
        );
      }
    }
  });
});
