/**
 * Quality warnings: a corpus with a flat grey image (an empty silhouette, no edges, one tone) and
 * a photo shows the warnings in the lock, the summaries and the contact sheet; thresholds come
 * from the recipe; `--strict` turns them into errors; the checks themselves on made-up metrics.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../../helpers/limits.js';
import { readVariantsLock } from '../../../src/variants/lock.js';
import { outlineEdgeOverlap, solidity } from '../../../src/variants/quality/shape.js';
import { entryWarnings } from '../../../src/variants/quality/warnings.js';
import { defaultRecipe, qualityThresholds, resolveRecipe } from '../../../src/variants/recipe.js';
import { runVariants, type VariantsResult } from '../../../src/variants/run.js';
import { WARN_COLOUR } from '../../../src/variants/sheet/contact-sheet.js';
import { variantsHuman, variantsJson } from '../../../src/variants/summary.js';
import { entry, fakeSegmenter, tinyCorpus } from '../helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const T = qualityThresholds(defaultRecipe());
const rec = (code: string, metrics: Record<string, number | null>) => ({
  code: code as 'A6',
  status: 'ok',
  metrics,
});

describe('entryWarnings', () => {
  it('flags an empty, a tiny, a full and a fragmented silhouette with their figures', () => {
    expect(
      entryWarnings([rec('A6', { foreground_fraction: 0, raw_foreground_fraction: 0 })], T).get(
        'A6',
      ),
    ).toMatchObject([{ code: 'W_VARIANTS_A6_EMPTY', value: 0, threshold: 0.01 }]);
    expect(
      entryWarnings(
        [rec('A6', { foreground_fraction: 0.0007, raw_foreground_fraction: 0.0007 })],
        T,
      ).get('A6'),
    ).toMatchObject([{ code: 'W_VARIANTS_A6_TINY', value: 0.0007 }]);
    expect(
      entryWarnings(
        [rec('A6', { foreground_fraction: 0.97, raw_foreground_fraction: 0.97 })],
        T,
      ).get('A6'),
    ).toMatchObject([{ code: 'W_VARIANTS_A6_FULL' }]);
    const coins = entryWarnings(
      [rec('A6', { foreground_fraction: 0.027, raw_foreground_fraction: 0.34 })],
      T,
    ).get('A6')!;
    expect(coins).toMatchObject([{ code: 'W_VARIANTS_A6_COMPONENT', threshold: 0.5 }]);
    expect(coins[0]!.value).toBeCloseTo(0.027 / 0.34, 12);
    expect(coins[0]!.fix).toMatch(/keep_largest_component/);
    expect(
      entryWarnings([rec('A6', { foreground_fraction: 0.3, raw_foreground_fraction: 0.35 })], T)
        .size,
    ).toBe(0);
  });

  it('flags A3 with almost no edges or edges everywhere, A4 of one tone, and A1 cropping the subject away', () => {
    expect(entryWarnings([rec('A3', { edge_density: 0.001 })], T).get('A3')![0]!.code).toBe(
      'W_VARIANTS_A3_FEW_EDGES',
    );
    expect(entryWarnings([rec('A3', { edge_density: 0.4 })], T).get('A3')![0]!.code).toBe(
      'W_VARIANTS_A3_EDGES_EVERYWHERE',
    );
    expect(entryWarnings([rec('A3', { edge_density: 0.05 })], T).size).toBe(0);
    expect(entryWarnings([rec('A4', { foreground_fraction: 0.995 })], T).get('A4')![0]!.code).toBe(
      'W_VARIANTS_A4_ONE_TONE',
    );
    expect(entryWarnings([rec('A4', { foreground_fraction: 0.005 })], T).get('A4')![0]!.code).toBe(
      'W_VARIANTS_A4_ONE_TONE',
    );
    const a6 = rec('A6', {
      foreground_fraction: 0.2,
      raw_foreground_fraction: 0.2,
      foreground_fraction_in_crop: 0.1,
    });
    expect(entryWarnings([rec('A1', {}), a6], T).get('A1')).toMatchObject([
      { code: 'W_VARIANTS_A1_CROPS_SUBJECT', value: 0.1 },
    ]);
    expect(entryWarnings([a6], T).size).toBe(0); // no A1, nothing cropped
    // thresholds from the recipe
    expect(
      entryWarnings([rec('A3', { edge_density: 0.05 })], { ...T, edges_min: 0.1 }).get('A3')![0]!
        .threshold,
    ).toBe(0.1);
  });
});

describe('warnings that are right', () => {
  const a6 = (metrics: Record<string, number | null>, method = 'isnet') => ({
    ...rec('A6', metrics),
    params: { method },
  });
  it('never suggests the segmenter that made the silhouette', () => {
    const tiny = { foreground_fraction: 0.0007, raw_foreground_fraction: 0.0007 };
    const [g] = entryWarnings([a6(tiny, 'grabcut')], T).get('A6')!;
    expect(g!.code).toBe('W_VARIANTS_A6_TINY');
    expect(g!.fix).toContain('or try the neural segmenter, `--silhouette isnet`');
    expect(g!.fix).not.toContain('--silhouette grabcut');
    const [i] = entryWarnings([a6(tiny, 'isnet')], T).get('A6')!;
    expect(i!.fix).toContain('or try `--silhouette grabcut`');
    const [f] = entryWarnings([a6({ foreground_fraction: 0.97 }, 'grabcut')], T).get('A6')!;
    expect(f!.code).toBe('W_VARIANTS_A6_FULL');
    expect(f!.fix).not.toContain('--silhouette grabcut');
  });
  it('does not judge A1 by an A6 that is itself warned', () => {
    // the coins: largest component kept 8 % of the foreground, and the crop "keeps 0.00 %" of it
    const coins = a6({
      foreground_fraction: 0.027,
      raw_foreground_fraction: 0.34,
      foreground_fraction_in_crop: 0,
    });
    const w = entryWarnings([rec('A1', {}), coins], T);
    expect(w.get('A6')!.map((x) => x.code)).toEqual(['W_VARIANTS_A6_COMPONENT']);
    expect(w.has('A1')).toBe(false);
  });
  it('flags a convex blob that follows few edges of a photo full of them, with recipe thresholds', () => {
    const blob = a6(
      { foreground_fraction: 0.59, solidity: 0.95, outline_edge_overlap: 0.59 },
      'grabcut',
    );
    const edges = rec('A3', { edge_density: 0.047 });
    const [w] = entryWarnings([blob, edges], T).get('A6')!;
    expect(w).toMatchObject({ code: 'W_VARIANTS_A6_BLOB', value: 0.59, threshold: 0.7 });
    expect(w!.message).toBe(
      "the silhouette is one solid blob (solidity 95.0 %) whose outline lies on the edge map's edges for only 59.0 % of its length, in a photo with many edges (4.70 % of A3's pixels): it is not the subject's shape",
    );
    expect(w!.fix).toContain('`--silhouette isnet`');
    // a solid subject whose outline is on the edges (a cup), a blob in a photo with few edges, a non-convex shape
    for (const [m, e] of [
      [{ solidity: 0.98, outline_edge_overlap: 0.9 }, 0.047],
      [{ solidity: 0.95, outline_edge_overlap: 0.02 }, 0.016],
      [{ solidity: 0.5, outline_edge_overlap: 0.1 }, 0.05],
    ] as const)
      expect(
        entryWarnings(
          [a6({ foreground_fraction: 0.3, ...m }), rec('A3', { edge_density: e })],
          T,
        ).has('A6'),
      ).toBe(false);
    expect(entryWarnings([blob, edges], { ...T, blob_outline_edges_max: 0.5 }).has('A6')).toBe(
      false,
    );
  });
  it('measures solidity and outline-on-edges on the images', () => {
    const img = (w: number, h: number, on: (x: number, y: number) => boolean) => ({
      width: w,
      height: h,
      channels: 1 as const,
      data: Uint8Array.from({ length: w * h }, (_, i) => (on(i % w, Math.floor(i / w)) ? 0 : 255)),
    });
    expect(solidity(img(10, 10, (x, y) => x >= 2 && x < 8 && y >= 3 && y < 7))).toBeCloseTo(1, 12);
    // an L: 3 of the 4 quarters of a square, hull = square minus a triangle
    const l = img(10, 10, (x, y) => x < 4 || y >= 6);
    expect(solidity(l)).toBeCloseTo(64 / (100 - 0.5 * 6 * 6), 12);
    const square = img(20, 20, (x, y) => x >= 5 && x < 15 && y >= 5 && y < 15);
    const outline = img(20, 20, (x, y) => (x === 5 || x === 14) && y >= 5 && y < 15);
    // the 36 outline pixels: both sides (20) and 4 of each of the other two sides lie within 2 px
    expect(outlineEdgeOverlap(square, outline)).toBeCloseTo(28 / 36, 12);
    expect(
      outlineEdgeOverlap(
        square,
        img(20, 20, () => false),
      ),
    ).toBe(0);
  });
});

describe('a corpus with an empty-silhouette image', () => {
  let dir: string;
  let manifest: string;
  let r: VariantsResult;
  const out = () => path.join(dir, 'out');

  beforeAll(async () => {
    ({ dir, manifest } = await tinyCorpus([['horse', 'horse.png']], 96));
    // A flat grey "lunar" image: the fake segmenter (foreground where luma < 100) finds nothing.
    await sharp({
      create: { width: 96, height: 64, channels: 3, background: { r: 180, g: 180, b: 180 } },
    })
      .png()
      .toFile(path.join(dir, 'flat.png'));
    const m = {
      format: 'stimkit.entries',
      version: 1,
      corpus: 'test',
      languages: ['en', 'zh'],
      entries: [entry('horse', 'horse.png'), entry('flat-grey', 'flat.png')],
    };
    await writeFile(manifest, stringify(m));
    r = await runVariants(manifest, { out: out(), segmenter: fakeSegmenter(100), jobs: 1 });
  });

  it('records the warnings in the lock, on the variant, with figure, threshold and fix', async () => {
    expect(r.failed).toBe(0);
    const lock = await readVariantsLock(r.lockFile);
    const flat = lock.entries.find((e) => e.id === 'flat-grey')!;
    const codes = Object.fromEntries(
      flat.variants.map((v) => [v.code, (v.warnings ?? []).map((w) => w.code)]),
    );
    expect(codes).toMatchObject({
      A0: [],
      A2: [],
      A3: ['W_VARIANTS_A3_FEW_EDGES'],
      A4: ['W_VARIANTS_A4_ONE_TONE'],
      A6: ['W_VARIANTS_A6_EMPTY'],
    });
    const a6 = flat.variants.find((v) => v.code === 'A6')!;
    expect(a6.warnings![0]).toMatchObject({ value: 0, threshold: 0.01 });
    expect(a6.warnings![0]!.fix).toMatch(/abstraction probe/);
    expect(a6.metrics.foreground_fraction_in_crop).toBeNull();
    expect(lock.entries.find((e) => e.id === 'horse')!.variants.every((v) => !v.warnings)).toBe(
      true,
    );
    expect(lock.quality).toMatchObject({
      warnings: 3,
      entries_warned: 1,
      thresholds: { silhouette_min: 0.01 },
    });
  });

  it('prints them in the human and JSON summaries; --strict makes them errors', () => {
    const human = variantsHuman(r);
    expect(human).toMatch(/quality: 3 warning\(s\) on 1 entry/);
    expect(human).toMatch(
      /warning W_VARIANTS_A6_EMPTY: flat-grey A6: the silhouette is empty.*\(0, threshold 0\.01\); fix: /,
    );
    const json = variantsJson(r);
    expect(json.ok).toBe(true);
    expect(json.quality_warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ entry: 'flat-grey', variant: 'A6', code: 'W_VARIANTS_A6_EMPTY' }),
      ]),
    );
    expect(variantsJson(r, { strict: true }).ok).toBe(false);
    expect(variantsHuman(r, { strict: true })).toMatch(/error W_VARIANTS_A6_EMPTY/);
  });

  it('marks the warned cells on the contact sheet with a coloured frame', async () => {
    const { data, info } = await sharp(path.join(out(), 'contact-sheet.png'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [cr, cg, cb] = [1, 3, 5].map((i) => parseInt(WARN_COLOUR.slice(i, i + 2), 16));
    // Cells are 192 px with 8 px gaps; rows: title band, header band, gap, then per entry a label band and the cell.
    const cellAt = (row: number, col: number) => ({ x: 8 + col * 200, y: 56 + row * 224 + 24 });
    const isWarn = (x: number, y: number) => {
      const i = (y * info.width + x) * info.channels;
      return data[i] === cr && data[i + 1] === cg && data[i + 2] === cb;
    };
    const flatRow = r.lock.entries.findIndex((e) => e.id === 'flat-grey');
    const horseRow = 1 - flatRow;
    const mid = 96;
    for (const col of [3, 4, 6])
      expect(
        isWarn(cellAt(flatRow, col).x + 1, cellAt(flatRow, col).y + mid),
        `flat col ${col}`,
      ).toBe(true);
    for (const col of [0, 1, 2, 5])
      expect(
        isWarn(cellAt(flatRow, col).x + 1, cellAt(flatRow, col).y + mid),
        `flat col ${col}`,
      ).toBe(false);
    for (const col of [0, 3, 4, 6])
      expect(
        isWarn(cellAt(horseRow, col).x + 1, cellAt(horseRow, col).y + mid),
        `horse col ${col}`,
      ).toBe(false);
  });

  it('takes the thresholds from the recipe and records them resolved', async () => {
    const recipeFile = path.join(dir, 'strict.recipe.yaml');
    await writeFile(recipeFile, stringify({ quality: { edges_min: 0.9 } }));
    const recipe = await resolveRecipe(recipeFile);
    expect(recipe.quality).toMatchObject({ edges_min: 0.9, silhouette_min: 0.01 });
    expect(defaultRecipe()).not.toHaveProperty('quality'); // a default recipe records no quality section
    const again = await runVariants(manifest, {
      out: out(),
      recipe,
      only: ['A3'],
      jobs: 1,
      contactSheet: false,
    });
    expect(again.computed).toBe(0); // thresholds change no output
    expect(
      again.lock.entries.every(
        (e) => e.variants[0]!.warnings?.[0]?.code === 'W_VARIANTS_A3_FEW_EDGES',
      ),
    ).toBe(true);
    expect(again.lock.quality!.thresholds.edges_min).toBe(0.9);
    expect(JSON.parse(await readFile(again.lockFile, 'utf8')).quality.warnings).toBe(2);
  });

  it('--review writes a page of just the warned entries, beside their A0, and removes it when nothing warns', async () => {
    const r2 = await runVariants(manifest, {
      out: out(),
      segmenter: fakeSegmenter(100),
      jobs: 1,
      review: true,
    });
    expect(r2.reviewPages).toEqual(['review.png']);
    const meta = await sharp(path.join(out(), 'review.png')).metadata();
    // one entry (flat-grey), columns A0 A3 A4 A6: 8 + 4 × (192 + 8) wide; title, headers, gap, one row
    expect([meta.width, meta.height]).toEqual([8 + 4 * 200, 56 + 224 + 8]);
    expect(variantsHuman(r2)).toMatch(
      /review page \(entries with warnings beside their A0\): .*review\.png/,
    );
    const quiet = await resolveRecipe(undefined, {});
    const none = {
      ...quiet,
      quality: {
        ...qualityThresholds(quiet),
        silhouette_min: 0,
        edges_min: 0,
        binary_minority_min: 0,
      },
    };
    const r3 = await runVariants(manifest, {
      out: out(),
      recipe: none,
      segmenter: fakeSegmenter(100),
      jobs: 1,
      review: true,
    });
    expect([r3.reviewPages, r3.lock.quality!.warnings]).toEqual([[], 0]);
    await expect(sharp(path.join(out(), 'review.png')).metadata()).rejects.toThrow();
  });
});
