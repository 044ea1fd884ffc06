/**
 * A3's detector and the bilinear resize, stimkit's one implementation of each (the WebAssembly
 * kernels), give the bytes opencv-wasm gives, for every parameter the recipe accepts: the blur for
 * every kernel size (3 … 31) over sigmas across (0, 20], Canny for every aperture (3, 5, 7) with
 * the L1 and the L2 gradient; the whole detector (blur, thresholds from the median with several
 * ratios, Canny) on demo photos and the variants made from them, and on seeded noise, stripes and
 * two-tone images of awkward sizes (1 px, odd, thin). opencv-wasm, which stimkit keeps for A6's
 * GrabCut, is the tests' independent reference (test/helpers/opencv.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../../helpers/limits.js';
import * as cv from '../../helpers/opencv.js';
import {
  edgeFractionsOwnAnd,
  edgeMap,
  edgePixels,
  fractionOf,
  median8,
  thresholdsFor,
} from '../../../src/variants/ops/edges.js';
import { blur5, gaussianBlur, gaussianTaps } from '../../../src/variants/ops/blur.js';
import { luma } from '../../../src/variants/ops/grayscale.js';
import { decodeA0 } from '../../../src/variants/ops/original.js';
import { cropImage } from '../../../src/variants/ops/crop.js';
import { thresholdImage } from '../../../src/variants/ops/binary.js';
import { lowpass } from '../../../src/variants/ops/lowpass.js';
import { resizeLinear } from '../../../src/variants/ops/resize-linear.js';
import { defaultRecipe, type Recipe } from '../../../src/variants/recipe.js';
import type { Image8 } from '../../../src/variants/types.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test on a quiet machine.
vi.setConfig({ testTimeout: heavyLimit(4) });

const DEMO = fileURLToPath(new URL('../../../corpora/demo/', import.meta.url));
const KSIZES = Array.from({ length: 15 }, (_, i) => 3 + 2 * i);
const SIGMAS = [0.05, 0.3, 0.8, 1, 1.4, 2, 3.3, 5, 7.77, 12, 20];
const SOBELS = [3, 5, 7].flatMap((aperture) =>
  [false, true].map((l2_gradient) => ({ aperture: aperture as 3 | 5 | 7, l2_gradient })),
);

function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function synthetic(width: number, height: number, kind: number, seed: number): Image8 {
  const r = rng(seed);
  const data = Uint8Array.from({ length: width * height }, (_, i) =>
    kind === 0 ? Math.floor(r() * 256) : kind === 1 ? ((i % 7) * 40) & 255 : r() < 0.5 ? 0 : 255,
  );
  return { width, height, channels: 1, data };
}

/** Number of bytes that differ. */
function differing(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** The whole detector with opencv-wasm: blur, thresholds from the median, Canny; edges 0 on 255. */
function reference(grey: Image8, p: Recipe['edges']): Uint8Array {
  const blurred = cv.gaussianBlur(grey, p.blur_ksize, p.blur_sigma);
  const m = median8(blurred.data);
  const edges = cv.canny(blurred, p.low_ratio * m, p.high_ratio * m, p.aperture, p.l2_gradient);
  return edges.data.map((v) => 255 - v);
}

/** A3 by stimkit and by opencv-wasm with the recipe's edges section `p`: the same bytes. */
function sameA3(label: string, grey: Image8, p: Recipe['edges']): void {
  const ours = edgeMap(grey, p).image.data;
  expect(differing(ours, reference(grey, p)), `${label} ${JSON.stringify(p)}`).toBe(0);
}

describe('A3 blur: every kernel size and sigmas across the range', () => {
  it('the default taps are OpenCV 5 × 5, σ 1.4', () => {
    expect(gaussianTaps(5, 1.4)).toEqual([28, 61, 78, 61, 28]);
    for (const n of KSIZES)
      for (const s of SIGMAS) expect(gaussianTaps(n, s).reduce((a, b) => a + b)).toBe(256);
  });

  it('matches cv.GaussianBlur on noise and on images narrower than the kernel', () => {
    const images = [synthetic(53, 29, 0, 3), synthetic(1, 1, 0, 4), synthetic(4, 9, 2, 5)];
    for (const n of KSIZES)
      for (const s of SIGMAS)
        for (const [i, g] of images.entries()) {
          const ours = gaussianBlur(g, n, s);
          const theirs = cv.gaussianBlur(g, n, s);
          expect(differing(ours.data, theirs.data), `image ${i} ${n} × ${n} σ ${s}`).toBe(0);
          expect(median8(ours.data), `image ${i} ${n} σ ${s} median`).toBe(median8(theirs.data));
        }
  });
});

describe('A3 detector: every aperture and gradient, opencv-wasm bytes', () => {
  it('on demo photos and their variants, with the default blur and others', async () => {
    const recipe = defaultRecipe();
    for (const photo of ['camera.png', 'rocket.jpg']) {
      const { image } = await decodeA0(readFileSync(`${DEMO}${photo}`), recipe.original);
      const a2 = luma(image);
      const images: Array<[string, Image8]> = [
        ['A2', a2],
        ['A1', luma(cropImage(image, { x: 100, y: 80, width: 307, height: 205 }))],
        ['A4', thresholdImage(a2, 120)],
        ['A5', lowpass(a2, recipe.lowpass).image],
      ];
      for (const [name, grey] of images)
        SOBELS.forEach((s, i) => {
          const blur = [
            [5, 1.4],
            [3, 0.8],
            [9, 2.5],
          ][i % 3]!;
          const p = { ...recipe.edges, ...s, blur_ksize: blur[0]!, blur_sigma: blur[1]! };
          sameA3(`${photo} ${name}`, grey, p);
        });
      sameA3(`${photo} A2 wide`, a2, {
        ...recipe.edges,
        blur_ksize: 31,
        blur_sigma: 6,
        aperture: 7,
      });
      sameA3(`${photo} A2 ratios`, a2, { ...recipe.edges, low_ratio: 0.2, high_ratio: 3.5 });
    }
  });

  it('on noise, stripes and two-tone images of awkward sizes, thresholds from low to high', () => {
    const sizes: Array<[number, number]> = [
      [1, 1],
      [1, 7],
      [2, 2],
      [3, 5],
      [7, 1],
      [17, 9],
      [64, 33],
      [200, 3],
      [5, 300],
    ];
    const ratios: Array<[number, number]> = [
      [0.66, 1.33],
      [0.05, 0.1],
      [2, 9.5],
      [10, 10],
    ];
    sizes.forEach(([w, h], i) => {
      for (let kind = 0; kind < 3; kind++) {
        const grey = synthetic(w, h, kind, 11 + i * 3 + kind);
        for (const s of SOBELS)
          for (const [low_ratio, high_ratio] of ratios)
            sameA3(`${w}x${h} kind ${kind}`, grey, {
              ...defaultRecipe().edges,
              ...s,
              low_ratio,
              high_ratio,
            });
      }
    });
  });

  it('edgeFractionsOwnAnd (blurred in the kernel, own thresholds and another pair) equals two Canny runs', () => {
    const image = synthetic(120, 90, 0, 5);
    for (const s of SOBELS) {
      for (const blur of [{}, { blur_ksize: 7, blur_sigma: 2 }]) {
        const p = { ...defaultRecipe().edges, ...s, ...blur };
        const blurred = gaussianBlur(image, p.blur_ksize, p.blur_sigma);
        const own = thresholdsFor(blurred, p);
        const fraction = (t: { low: number; high: number }) =>
          fractionOf(cv.canny(blurred, t.low, t.high, s.aperture, s.l2_gradient), 255);
        const other = { low: 35.2, high: 70.9 };
        expect(edgeFractionsOwnAnd(image, other, p)).toEqual({
          auto: fraction(own),
          fixed: fraction(other),
        });
        // The same pair twice: counted once, the same fraction.
        expect(edgeFractionsOwnAnd(image, own, p)).toEqual({
          auto: fraction(own),
          fixed: fraction(own),
        });
      }
    }
  });

  it('the edge counts Canny hands to fractionOf are the counts of the maps', () => {
    const count = (data: Uint8Array, v: number) => data.reduce((n, x) => n + (x === v ? 1 : 0), 0);
    for (const [w, h, kind] of [
      [120, 90, 0],
      [33, 17, 2],
      [64, 64, 1],
    ] as const) {
      for (const s of [SOBELS[0]!, SOBELS[5]!]) {
        const p = { ...defaultRecipe().edges, ...s };
        const grey = synthetic(w, h, kind, 7 + w);
        const edges = edgePixels(blur5(grey), { low: 20, high: 40 }, p);
        expect(fractionOf(edges, 255)).toBe(count(edges.data, 255) / (w * h));
        const a3 = edgeMap(grey, p).image;
        expect(fractionOf(a3, 0)).toBe(count(a3.data, 0) / (w * h));
        expect(fractionOf(a3, 255)).toBe(count(a3.data, 255) / (w * h));
      }
    }
  });
});

describe('bilinear resize', () => {
  it('matches opencv-wasm when enlarging, shrinking (by exactly 2 too) and keeping the size', () => {
    const r = rng(3);
    const pick = (a: number, b: number) => a + Math.floor(r() * (b - a + 1));
    const cases: Array<[number, number, number, number]> = [
      [614, 614, 1024, 1024],
      [614, 409, 1024, 681],
      [409, 614, 681, 1024],
      [3, 3, 7, 7],
      [1, 1, 5, 5],
      [7, 7, 7, 7],
      [50, 50, 30, 30],
      [2, 3, 9, 14],
      [50, 50, 25, 25],
      [2, 2, 1, 1],
      [86, 14, 43, 7],
      [86, 14, 43, 8],
    ];
    for (let k = 0; k < 60; k++) {
      const sw = pick(1, 120);
      const sh = pick(1, 120);
      const [dw, dh] =
        k % 3 === 0 ? [pick(1, 120), pick(1, 120)] : [pick(sw, 3 * sw), pick(sh, 3 * sh)];
      cases.push([sw, sh, dw, dh]);
    }
    cases.forEach(([sw, sh, dw, dh], i) => {
      const src = synthetic(sw, sh, i % 3, 100 + i);
      expect(
        differing(resizeLinear(src, dw, dh).data, cv.resizeLinear(src, dw, dh).data),
        `${sw}x${sh} → ${dw}x${dh}`,
      ).toBe(0);
    });
  });
});
