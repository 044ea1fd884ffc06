/**
 * The detector's WebAssembly kernel (blur5, Canny with the L1 gradient) and the bilinear resize
 * give the bytes opencv-wasm gives: on demo photos and the variants made from them, and on seeded noise, stripes
 * and two-tone images of awkward sizes (1 px, odd, thin), with several threshold pairs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../../helpers/limits.js';
import {
  edgeFractions,
  edgeMap,
  edgePixels,
  fractionOf,
  median8,
} from '../../../src/variants/ops/edges.js';
import { blur5, cannyFromGradient, cannyL1, gradient } from '../../../src/variants/ops/canny.js';
import { luma } from '../../../src/variants/ops/grayscale.js';
import { canny, gaussianBlur, resizeLinear } from '../../../src/variants/ops/opencv.js';
import { decodeA0 } from '../../../src/variants/ops/original.js';
import { cropImage } from '../../../src/variants/ops/crop.js';
import { thresholdImage } from '../../../src/variants/ops/binary.js';
import { lowpass } from '../../../src/variants/ops/lowpass.js';
import { resizeLinearWasm } from '../../../src/variants/ops/resize-linear.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';
import type { Image8 } from '../../../src/variants/types.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4) });

const DEMO = fileURLToPath(new URL('../../../corpora/demo/', import.meta.url));

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

function compareDetector(label: string, grey: Image8): void {
  const wasm = gaussianBlur(grey, 5, 1.4);
  const js = blur5(grey);
  expect(differing(js.data, wasm.data), `${label} blur`).toBe(0);
  const m = median8(wasm.data);
  // blur5 counts its histogram while blurring: the median from it is the one counted afresh.
  expect(median8(js.data), `${label} median`).toBe(m);
  const pairs: Array<[number, number]> = [
    [0.66 * m, 1.33 * m],
    [10, 30],
    [0, 0],
    [50.7, 20.2],
    [1, 2],
    [200, 400],
  ];
  const g = gradient(wasm);
  for (const [low, high] of pairs) {
    const expected = canny(wasm, low, high, 3, false);
    expect(
      differing(cannyL1(wasm, low, high).data, expected.data),
      `${label} canny ${low} ${high}`,
    ).toBe(0);
    expect(
      cannyFromGradient(g, low, high).count / grey.data.length,
      `${label} count ${low} ${high}`,
    ).toBe(fractionOf(expected, 255));
  }
}

describe('A3 detector in its WebAssembly kernel', () => {
  it('matches opencv-wasm on demo photos and their variants', async () => {
    const recipe = defaultRecipe();
    for (const photo of ['camera.png', 'rocket.jpg']) {
      const { image } = await decodeA0(readFileSync(`${DEMO}${photo}`), recipe.original);
      const a2 = luma(image);
      compareDetector(`${photo} A2`, a2);
      compareDetector(
        `${photo} A1`,
        luma(cropImage(image, { x: 100, y: 80, width: 307, height: 205 })),
      );
      compareDetector(`${photo} A4`, thresholdImage(a2, 120));
      compareDetector(`${photo} A5`, lowpass(a2, recipe.lowpass).image);
    }
  });

  it('matches opencv-wasm on noise, stripes and two-tone images of awkward sizes', () => {
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
    sizes.forEach(([w, h], i) => {
      for (let kind = 0; kind < 3; kind++)
        compareDetector(`${w}x${h} kind ${kind}`, synthetic(w, h, kind, 11 + i * 3 + kind));
    });
  });

  it('edgeFractions with two threshold pairs equals two Canny runs', () => {
    const p = defaultRecipe().edges;
    const blurred = gaussianBlur(synthetic(120, 90, 0, 5), 5, 1.4);
    const pairs = [
      { low: 20, high: 40 },
      { low: 35.2, high: 70.9 },
    ];
    expect(edgeFractions(blurred, pairs, p)).toEqual(
      pairs.map((t) => fractionOf(canny(blurred, t.low, t.high, 3, false), 255)),
    );
  });

  it('the edge counts Canny hands to fractionOf are the counts of the maps', () => {
    const p = defaultRecipe().edges;
    const count = (data: Uint8Array, v: number) => data.reduce((n, x) => n + (x === v ? 1 : 0), 0);
    for (const [w, h, kind] of [
      [120, 90, 0],
      [33, 17, 2],
      [64, 64, 1],
    ] as const) {
      const grey = synthetic(w, h, kind, 7 + w);
      const edges = edgePixels(blur5(grey), { low: 20, high: 40 }, p);
      expect(fractionOf(edges, 255)).toBe(count(edges.data, 255) / (w * h));
      const a3 = edgeMap(grey, p).image;
      expect(fractionOf(a3, 0)).toBe(count(a3.data, 0) / (w * h));
      expect(fractionOf(a3, 255)).toBe(count(a3.data, 255) / (w * h));
    }
  });
});

describe('bilinear resize in TypeScript', () => {
  it('matches opencv-wasm when enlarging, shrinking (not by exactly 2) and keeping the size', () => {
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
    ];
    for (let k = 0; k < 60; k++) {
      const sw = pick(1, 120);
      const sh = pick(1, 120);
      const [dw, dh] =
        k % 3 === 0 ? [pick(1, 120), pick(1, 120)] : [pick(sw, 3 * sw), pick(sh, 3 * sh)];
      if (!(sw === 2 * dw && sh === 2 * dh)) cases.push([sw, sh, dw, dh]);
    }
    cases.forEach(([sw, sh, dw, dh], i) => {
      const src = synthetic(sw, sh, i % 3, 100 + i);
      expect(
        differing(resizeLinearWasm(src, dw, dh)!.data, resizeLinear(src, dw, dh).data),
        `${sw}x${sh} → ${dw}x${dh}`,
      ).toBe(0);
    });
  });
});
