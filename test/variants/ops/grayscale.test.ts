/**
 * A2 over all 2^24 colours: our BT.601 integer luma compared with OpenCV's fixed-point formula and
 * with float rounding gives exactly the difference counts of the reference (gray_all_colours.json);
 * and sharp's own greyscale is another formula (sharp_crosscheck.json, astronaut).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { luma } from '../../../src/variants/ops/grayscale.js';
import { decodeA0 } from '../../../src/variants/ops/original.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';
import { DEMO_DIR, diff, vectors } from '../helpers.js';

const G = await vectors('gray_all_colours.json');
const X = await vectors('sharp_crosscheck.json');

function compare(ours: Uint8Array, other: (r: number, g: number, b: number) => number) {
  let nDiff = 0;
  let plus = 0;
  let minus = 0;
  let i = 0;
  for (let r = 0; r < 256; r++)
    for (let g = 0; g < 256; g++)
      for (let b = 0; b < 256; b++, i++) {
        const d = ours[i]! - other(r, g, b);
        if (d) nDiff++;
        if (d === 1) plus++;
        if (d === -1) minus++;
      }
  return { n_diff: nDiff, n_plus1: plus, n_minus1: minus };
}

describe('A2 luma', () => {
  it('matches the reference comparisons over every 8-bit colour', () => {
    const rgb = new Uint8Array(3 * 2 ** 24);
    let i = 0;
    for (let r = 0; r < 256; r++)
      for (let g = 0; g < 256; g++) for (let b = 0; b < 256; b++) rgb.set([r, g, b], 3 * i++);
    const ours = luma({ width: 4096, height: 4096, channels: 3, data: rgb }).data;
    const cv = compare(ours, (r, g, b) => (9798 * r + 19235 * g + 3735 * b + (1 << 14)) >> 15);
    const ref = G.bt601_int_vs_cv2;
    expect(cv).toEqual({ n_diff: ref.n_diff, n_plus1: ref.n_plus1, n_minus1: ref.n_minus1 });
    const half = compare(ours, (r, g, b) => Math.floor(0.299 * r + 0.587 * g + 0.114 * b + 0.5));
    expect(half.n_diff).toBe(G.bt601_int_vs_float_floor_plus_half.n_diff);
  });

  it("is not sharp's greyscale (astronaut, as in the cross-check)", async () => {
    const { image } = await decodeA0(
      await readFile(path.join(DEMO_DIR, 'astronaut.png')),
      defaultRecipe().original,
    );
    const ours = luma(image).data;
    const theirs = await sharp(path.join(DEMO_DIR, 'astronaut.png')).greyscale().raw().toBuffer();
    const d = diff(ours, new Uint8Array(theirs));
    // The reference measured max 17 and 62 % of pixels differing with its sharp build; the exact
    // figures depend on the libvips version, the point is that the formulas differ.
    const ref = X.astronaut.sharp_grey_vs_bt601_int;
    expect(d.max).toBeGreaterThanOrEqual(ref.max_abs_diff - 5);
    expect(d.n / ours.length).toBeGreaterThan(ref.frac_diff / 2);
  });
});
