/**
 * The blob check on real silhouettes: of the demo's six A6 images (IS-Net) only chelsea-cat's —
 * the cat with its backdrop, one solid shape over 77 % of the frame — is a blob; a GrabCut-style
 * failure (the initial rectangle kept almost whole, as on a textured photo such as the moon) is
 * one too; a large but articulated silhouette and a solid subject of moderate size are not. The
 * thresholds come from the recipe. Warnings are derived from the lock's metrics: no image changes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { solidity } from '../../../src/variants/quality/shape.js';
import { entryWarnings } from '../../../src/variants/quality/warnings.js';
import { defaultRecipe, qualityThresholds } from '../../../src/variants/recipe.js';
import { ROOT } from '../../helpers/cli.js';

const T = qualityThresholds(defaultRecipe());

interface LockVariant {
  code: 'A6';
  status: string;
  metrics: Record<string, number | null>;
  params?: Record<string, unknown>;
}

async function demoLock(): Promise<Array<{ id: string; variants: LockVariant[] }>> {
  const file = path.join(ROOT, 'variants', 'demo', 'variants.lock.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { entries: [] }).entries;
}

describe('the blob check', () => {
  it("warns on chelsea-cat's silhouette and on no other demo silhouette", async () => {
    const warned = new Map<string, string[]>();
    for (const e of await demoLock()) {
      const w = entryWarnings(e.variants, T).get('A6');
      if (w)
        warned.set(
          e.id,
          w.map((x) => x.code),
        );
    }
    expect([...warned]).toEqual([['chelsea-cat', ['W_VARIANTS_A6_BLOB']]]);
    const cat = (await demoLock()).find((e) => e.id === 'chelsea-cat')!;
    const [w] = entryWarnings(cat.variants, T).get('A6')!;
    expect(w!.message).toBe(
      "the silhouette is one solid blob (solidity 93.5 %) covering 77.1 % of the frame: the segmenter kept the backdrop with the subject, so it is not the subject's shape",
    );
    expect(w).toMatchObject({ value: 0.7705469327420547, threshold: 0.6 });
    expect(w!.fix).toContain('--silhouette grabcut');
    // the recipe's threshold decides
    expect(entryWarnings(cat.variants, { ...T, blob_frame_min: 0.8 }).has('A6')).toBe(false);
  });

  it('warns on a GrabCut-style rectangle kept almost whole, measured on the image', () => {
    // 200 × 150, margin 5 %: the rectangle minus two dark crater-like notches on its rim
    const [w, h] = [200, 150];
    const data = new Uint8Array(w * h).fill(255);
    for (let y = 8; y < 142; y++)
      for (let x = 10; x < 190; x++) {
        const notch = (x - 10) ** 2 + (y - 40) ** 2 < 144 || (x - 190) ** 2 + (y - 110) ** 2 < 100;
        if (!notch) data[y * w + x] = 0;
      }
    const fg = data.filter((v) => v === 0).length / (w * h);
    const sol = solidity({ width: w, height: h, channels: 1, data })!;
    const moon = {
      code: 'A6' as const,
      status: 'ok',
      metrics: { foreground_fraction: fg, solidity: sol, outline_edge_overlap: 0.1 },
      params: { method: 'grabcut' },
    };
    const a3 = { code: 'A3' as const, status: 'ok', metrics: { edge_density: 0.01 } };
    const [warning] = entryWarnings([moon, a3], T).get('A6')!;
    expect(warning).toMatchObject({ code: 'W_VARIANTS_A6_BLOB', threshold: 0.6 });
    expect(warning!.value).toBeCloseTo(fg, 12);
    expect(warning!.fix).toContain('`--silhouette isnet`');
  });

  it('does not warn on a large articulated silhouette or a solid subject of moderate size', () => {
    for (const m of [
      { foreground_fraction: 0.54, solidity: 0.84, outline_edge_overlap: 0.7 }, // a portrait
      { foreground_fraction: 0.47, solidity: 0.98, outline_edge_overlap: 0.88 }, // a cup
      { foreground_fraction: 0.9, solidity: 0.6, outline_edge_overlap: 0.5 }, // a scene, not convex
    ])
      expect(
        entryWarnings(
          [
            { code: 'A6', status: 'ok', metrics: m },
            { code: 'A3', status: 'ok', metrics: { edge_density: 0.02 } },
          ],
          T,
        ).has('A6'),
        JSON.stringify(m),
      ).toBe(false);
  });
});
