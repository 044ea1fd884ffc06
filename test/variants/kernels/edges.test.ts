/**
 * A3's detector: the WebAssembly kernels (kernels/as/edges.ts) = the TypeScript loops
 * (ops/canny.ts `…Js`), byte for byte: the blur and its histogram, the gradient (magnitudes and
 * direction classes), the hysteresis map and edge counts with several threshold pairs, on demo
 * photos, the two-tone images A4 makes, and odd sizes (1–7 px sides, primes, widths that are not
 * multiples of the vector width).
 */
import { describe, expect, it } from 'vitest';
import {
  blur5,
  blur5Js,
  blurHistogram,
  cannyCounts,
  cannyFromGradient,
  cannyFromGradientJs,
  cannyL1Counted,
  cannyL1CountedJs,
  complement,
  complementJs,
  countEqual,
  countEqualJs,
  gradient,
  gradientJs,
} from '../../../src/variants/ops/canny.js';
import { kernel } from '../../../src/variants/kernels/load.js';
import { median8 } from '../../../src/variants/ops/edges.js';
import { thresholdImage } from '../../../src/variants/ops/binary.js';
import type { Image8 } from '../../../src/variants/types.js';
import { noise, photo, sameBits } from './helpers.js';

/** Blur, gradient, Canny: wasm and TypeScript on the same inputs give the same bytes and counts. */
function compare(grey: Image8): void {
  const blurred = blur5(grey);
  const reference = blur5Js(grey);
  sameBits(blurred.data, reference.data);
  sameBits(blurHistogram(blurred.data)!, blurHistogram(reference.data)!);
  const g = gradient(reference);
  const gj = gradientJs(reference);
  sameBits(g.mag, gj.mag);
  sameBits(g.dir, gj.dir);
  const m = median8(reference.data);
  const pairs: Array<[number, number]> = [
    [0.66 * m, 1.33 * m],
    [10, 30],
    [0, 0],
    [50.7, 20.2],
    [1, 2],
    [200, 400],
    [-5, 3000],
    [NaN, 20],
    [2040, 2040],
  ];
  const counts = cannyCounts(reference, pairs);
  pairs.forEach(([low, high], i) => {
    const js = cannyFromGradientJs(gj, low, high);
    const wasm = cannyFromGradient(gj, low, high);
    sameBits(wasm.map, js.map);
    expect(wasm.count, `${low} ${high}`).toBe(js.count);
    expect(counts[i], `${low} ${high}`).toBe(js.count);
    const image = cannyL1Counted(reference, low, high);
    const imageJs = cannyL1CountedJs(reference, low, high);
    sameBits(image.image.data, imageJs.image.data);
    expect(image.count).toBe(imageJs.count);
  });
}

describe('A3 detector: wasm = TypeScript, byte for byte', () => {
  it.skipIf(process.env.STIMKIT_KERNELS === 'js')(
    'the kernel is built (else the comparisons below compare the TypeScript with itself)',
    () => {
      expect(kernel('edges')).not.toBeNull();
    },
  );

  for (const file of ['astronaut.png', 'camera.png', 'rocket.jpg']) {
    it(
      file,
      async () => {
        const a2 = await photo(file);
        compare(a2);
        compare(thresholdImage(a2, 120)); // A4: two-tone, strong edges everywhere
      },
      60_000,
    );
  }

  it('countEqual: the counts of the TypeScript (blocks of 255 × 16 bytes and tails)', async () => {
    const a2 = await photo('camera.png');
    const a4 = thresholdImage(a2, 120);
    for (const v of [0, 255, 17, 128]) {
      expect(countEqual(a2.data, v)).toBe(countEqualJs(a2.data, v));
      expect(countEqual(a4.data, v)).toBe(countEqualJs(a4.data, v));
    }
    const all = new Uint8Array(255 * 16 * 3 + 7).fill(9); // every lane saturating its block count
    for (const n of [0, 1, 15, 16, 17, 4079, 4080, 4081, all.length]) {
      expect(countEqual(all.subarray(0, n), 9)).toBe(n);
      expect(countEqual(all.subarray(0, n), 8)).toBe(0);
    }
    expect(countEqual(a2.data, 256)).toBe(0);
  });

  it('complement: the bytes of the TypeScript', async () => {
    const a2 = await photo('camera.png');
    sameBits(complement(a2.data), complementJs(a2.data));
    for (const n of [0, 1, 15, 16, 17, 33])
      sameBits(complement(a2.data.subarray(5, 5 + n)), complementJs(a2.data.subarray(5, 5 + n)));
  });

  it('odd sizes, noise and flat images', () => {
    const sizes: Array<[number, number]> = [
      [1, 1],
      [1, 7],
      [7, 1],
      [2, 2],
      [3, 5],
      [5, 3],
      [6, 4],
      [7, 7],
      [8, 8],
      [9, 2],
      [15, 3],
      [16, 16],
      [17, 9],
      [31, 33],
      [683, 97],
      [97, 683],
    ];
    for (const [w, h] of sizes) {
      compare(noise(w, h));
      compare({ width: w, height: h, channels: 1, data: new Uint8Array(w * h).fill(255) });
      const stripes = noise(w, h);
      for (let i = 0; i < stripes.data.length; i++) stripes.data[i] = (i % 3) * 127; // steep steps, every direction class
      compare(stripes);
    }
  });
});
