/**
 * The blob check on real silhouettes, measured from the images rather than from recorded
 * metrics: the demo's chelsea-cat A6 (IS-Net kept the backdrop with the cat) and the GrabCut
 * silhouette of scikit-image's moon (`moon.png` here: `skimage/data/moon.png` of
 * scikit-image/scikit-image at commit cd0a3d22, BSD-3-Clause; a 512 × 512 low-contrast photo of
 * the lunar surface with no subject). With the recipe's default thresholds, set on the demo's six
 * photos (the paper's images: only chelsea-cat is a blob), chelsea-cat's A6 is a blob. GrabCut
 * on the demo's rocket launch (dscovr-launch) keeps its initial rectangle nearly whole (59 % of
 * the frame, solidity 95 %, outline on A3's edges for 59 % of its length in a photo of many
 * edges): a blob. GrabCut on the moon keeps a 1.1 % fragment (solidity 76 %, outline on edges for
 * 36 %): not a blob by these thresholds; the entry is flagged by its edge map having almost no
 * edges instead.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../../helpers/limits.js';
import { stringify } from 'yaml';
import { decodePng } from '../../../src/variants/ops/png.js';
import { solidity } from '../../../src/variants/quality/shape.js';
import { entryWarnings } from '../../../src/variants/quality/warnings.js';
import { defaultRecipe, qualityThresholds } from '../../../src/variants/recipe.js';
import { runVariants } from '../../../src/variants/run.js';
import { ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';
import { entry } from '../helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7) });

const T = qualityThresholds(defaultRecipe());
const MOON = new URL('./moon.png', import.meta.url).pathname;

interface Lock {
  entries: Array<{
    id: string;
    variants: Array<{
      code: string;
      status: string;
      metrics: Record<string, number | null>;
      warnings?: Array<{ code: string }>;
    }>;
  }>;
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

  it("warns on GrabCut's rocket-launch blob and flags the moon photo, measured by the variants stage", async () => {
    const dir = await tempDir('stimkit-moon-');
    await copyFile(MOON, path.join(dir, 'moon.png'));
    await copyFile(path.join(ROOT, 'corpora', 'demo', 'rocket.jpg'), path.join(dir, 'rocket.jpg'));
    const manifest = path.join(dir, 'moon.entries.yaml');
    await writeFile(
      manifest,
      stringify({
        format: 'stimkit.entries',
        version: 1,
        corpus: 'moon',
        languages: ['en', 'zh'],
        entries: [entry('moon', 'moon.png'), entry('dscovr-launch', 'rocket.jpg')],
      }),
    );
    const out = path.join(dir, 'variants');
    await runVariants(manifest, { out, jobs: 1, overrides: { silhouette: 'grabcut' } });
    const lock = JSON.parse(await readFile(path.join(out, 'variants.lock.json'), 'utf8')) as Lock;
    const a6 = lock.entries[0]!.variants.find((v) => v.code === 'A6')!;
    expect(a6.metrics.foreground_fraction).toBeCloseTo(0.0109, 4);
    expect(a6.metrics.solidity).toBeCloseTo(0.758, 3);
    expect(a6.metrics.outline_edge_overlap).toBeCloseTo(0.362, 3);
    const codes = lock.entries[0]!.variants.flatMap((v) => v.warnings?.map((w) => w.code) ?? []);
    expect(codes).toContain('W_VARIANTS_A3_FEW_EDGES');
    const rocket = lock.entries[1]!.variants.find((v) => v.code === 'A6')!;
    expect(rocket.metrics.foreground_fraction).toBeCloseTo(0.594, 3);
    expect(rocket.warnings).toMatchObject([
      { code: 'W_VARIANTS_A6_BLOB', threshold: T.blob_outline_edges_max },
    ]);
  });
});
