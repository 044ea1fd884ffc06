/**
 * The blob and fragment checks on real silhouettes, with the recipe's default thresholds, which
 * are set on these images: the demo's six photos (corpora/demo) and the 14 abstraction images of
 * the paper's synthetic stand-in (corpora/paper-synthetic), each with both segmenters, and
 * scikit-image's moon (`moon.png` here: `skimage/data/moon.png` of scikit-image/scikit-image at
 * commit cd0a3d22, BSD-3-Clause; a 512 × 512 low-contrast photo of the lunar surface with no
 * subject).
 *
 * IS-Net (the default): the demo's A6 come from the committed demo lock, the paper images' from
 * `paper-isnet.json` (their lock metrics, see its `source`). GrabCut: run here by the variants
 * stage. Warned, by name: IS-Net's chelsea-cat (the backdrop kept with the cat: a blob over 77 %
 * of the frame), abstraction-07 and -10 (tiny); GrabCut's dscovr-launch (its rectangle kept
 * nearly whole: a blob, 59 %), moon (a crater's shadow, 1.1 % of the frame: a fragment) and
 * abstraction-13 (empty). Every other silhouette is unwarned, among them the diamonds and discs
 * of the paper set that the edges of their textured ground trace poorly, and IS-Net's thin
 * launch tower at 5.9 % of the frame.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../../helpers/limits.js';
import { stringify } from 'yaml';
import { decodePng } from '../../../src/variants/ops/png.js';
import { solidity } from '../../../src/variants/quality/shape.js';
import { entryWarnings, type QualityWarning } from '../../../src/variants/quality/warnings.js';
import {
  defaultRecipe,
  qualityThresholds,
  type QualityThresholds,
} from '../../../src/variants/recipe.js';
import { runVariants } from '../../../src/variants/run.js';
import { ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';
import { entry } from '../helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7) });

const T = qualityThresholds(defaultRecipe());
const MOON = new URL('./moon.png', import.meta.url).pathname;
const PAPER_ISNET = new URL('./paper-isnet.json', import.meta.url).pathname;
const DEMO = [
  ['eileen-collins-portrait', 'astronaut.png'],
  ['camera-operator', 'camera.png'],
  ['chelsea-cat', 'chelsea.png'],
  ['coffee-cup', 'coffee.png'],
  ['horse-silhouette', 'horse.png'],
  ['dscovr-launch', 'rocket.jpg'],
] as const;

interface Lock {
  entries: Array<{
    id: string;
    variants: Array<{
      code: string;
      status: string;
      metrics: Record<string, number | null>;
      params?: Record<string, unknown>;
      warnings?: Array<{ code: string }>;
    }>;
  }>;
}

/** The A6 warning codes of each entry that has any, by the lock's metrics and thresholds `t`. */
function warnedA6(lock: Lock, t: QualityThresholds): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of lock.entries) {
    const w = entryWarnings(e.variants as Parameters<typeof entryWarnings>[0], t).get('A6');
    if (w) out[e.id] = w.map((x) => x.code);
  }
  return out;
}

describe('the blob check on real silhouettes', () => {
  it("measures chelsea-cat's A6 PNG as a solid shape over most of the frame: a blob", async () => {
    const png = await readFile(
      path.join(ROOT, 'variants', 'demo', 'chelsea-cat', 'A6-silhouette.png'),
    );
    const a6 = await decodePng(png);
    const fg = a6.data.filter((v) => v === 0).length / (a6.width * a6.height);
    const sol = solidity(a6)!;
    expect(fg).toBeGreaterThanOrEqual(T.blob_frame_min);
    expect(sol).toBeGreaterThanOrEqual(T.blob_solidity_min);
    const warned = entryWarnings(
      [{ code: 'A6', status: 'ok', metrics: { foreground_fraction: fg, solidity: sol } }],
      T,
    ).get('A6');
    expect(warned?.map((w) => w.code)).toEqual(['W_VARIANTS_A6_BLOB']);
  });

  it('warns on exactly the failed IS-Net silhouettes of the paper images', async () => {
    const paper = JSON.parse(await readFile(PAPER_ISNET, 'utf8')) as Lock;
    expect(paper.entries).toHaveLength(14);
    expect(warnedA6(paper, T)).toEqual({
      'abstraction-07': ['W_VARIANTS_A6_TINY'],
      'abstraction-10': ['W_VARIANTS_A6_TINY'],
    });
  });

  it(
    'warns on exactly the failed GrabCut silhouettes of the moon, the demo and the paper images',
    async () => {
      const dir = await tempDir('stimkit-moon-');
      const entries = [entry('moon', 'moon.png')];
      await copyFile(MOON, path.join(dir, 'moon.png'));
      for (const [id, file] of DEMO) {
        await copyFile(path.join(ROOT, 'corpora', 'demo', file), path.join(dir, file));
        entries.push(entry(id, file));
      }
      for (let i = 1; i <= 14; i++) {
        const file = `abstraction-${String(i).padStart(2, '0')}.png`;
        await copyFile(path.join(ROOT, 'corpora', 'paper-synthetic', file), path.join(dir, file));
        entries.push(entry(file.slice(0, -4), file));
      }
      const manifest = path.join(dir, 'real.entries.yaml');
      await writeFile(
        manifest,
        stringify({
          format: 'stimkit.entries',
          version: 1,
          corpus: 'real',
          languages: ['en', 'zh'],
          entries,
        }),
      );
      const out = path.join(dir, 'variants');
      // A6 and the edge map its outline is measured on (A3) are all the checks read: the other
      // variants and the contact sheet are not made (A6 and A3 are made from A0 alone).
      await runVariants(manifest, {
        out,
        jobs: 1,
        only: ['A3', 'A6'],
        contactSheet: false,
        overrides: { silhouette: 'grabcut' },
      });
      const lock = JSON.parse(await readFile(path.join(out, 'variants.lock.json'), 'utf8')) as Lock;
      const a6 = (id: string) =>
        lock.entries.find((e) => e.id === id)!.variants.find((v) => v.code === 'A6')!;
      expect(a6('moon').metrics.foreground_fraction).toBeCloseTo(0.0109, 4);
      expect(a6('moon').metrics.outline_edge_overlap).toBeCloseTo(0.362, 3);
      expect(a6('dscovr-launch').metrics.foreground_fraction).toBeCloseTo(0.594, 3);
      const recorded = Object.fromEntries(
        lock.entries
          .map((e) => [e.id, e.variants.find((v) => v.code === 'A6')!.warnings?.map((w) => w.code)])
          .filter(([, w]) => w),
      );
      expect(recorded).toEqual({
        moon: ['W_VARIANTS_A6_FRAGMENT'],
        'dscovr-launch': ['W_VARIANTS_A6_BLOB'],
        'abstraction-13': ['W_VARIANTS_A6_EMPTY'],
      });
      const [fragment] = a6('moon').warnings as unknown as QualityWarning[];
      expect(fragment).toMatchObject({ threshold: T.fragment_outline_edges_max });
      expect(fragment!.message).toBe(
        "the silhouette is a fragment: it covers 1.09 % of the frame and its outline lies on the edge map's edges for only 36.2 % of its length, so it traces no subject",
      );
      expect(fragment!.fix).toContain('`--silhouette isnet`');
      // the recipe's thresholds decide
      const moon = lock.entries.find((e) => e.id === 'moon')!;
      expect(warnedA6({ entries: [moon] }, { ...T, fragment_frame_max: 0.01 })).toEqual({});
      expect(warnedA6({ entries: [moon] }, { ...T, fragment_outline_edges_max: 0.3 })).toEqual({});
    },
    heavyLimit(10),
  );
});
