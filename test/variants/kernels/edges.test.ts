/**
 * A3's detector: the WebAssembly kernel (kernels/as/edges.ts, through ops/canny.ts) = opencv-wasm's
 * GaussianBlur (5 × 5, σ 1.4) and Canny (apertures 3, 5 and 7, L1 and L2), byte for byte: the
 * blur and the histogram it counts, the edge images and edge counts with several threshold pairs
 * (those counted from one shared
 * gradient too), on demo photos, the two-tone images A4 makes, and odd sizes (1–7 px sides,
 * primes, widths that are not multiples of the vector width). Thresholds that opencv-wasm does not
 * take (NaN, beyond the magnitudes) are checked for agreement between the kernel's three entries.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blur5, blurHistogram } from '../../../src/variants/ops/blur.js';
import {
  cannyCounted,
  type Sobel,
  cannyCounts,
  cannyFromGradient,
  complement,
  complementJs,
  countEqual,
  countEqualJs,
  gradient,
} from '../../../src/variants/ops/canny.js';
import * as cv from '../../helpers/opencv.js';
import { kernelFile } from '../../../src/variants/kernels/load.js';
import { median8 } from '../../../src/variants/ops/edges.js';
import { thresholdImage } from '../../../src/variants/ops/binary.js';
import type { Image8 } from '../../../src/variants/types.js';
import { noise, photo, sameBits } from './helpers.js';

function histogram(data: Uint8Array): Uint32Array {
  const h = new Uint32Array(256);
  for (const v of data) h[v]!++;
  return h;
}

const SOBELS: Sobel[] = [3, 5, 7].flatMap((aperture) =>
  [false, true].map((l2_gradient) => ({ aperture: aperture as 3 | 5 | 7, l2_gradient })),
);

/** Blur, Canny: the kernel and opencv-wasm on the same inputs give the same bytes and counts, for every aperture and gradient. */
function compare(grey: Image8): void {
  const blurred = blur5(grey);
  const reference = cv.gaussianBlur(grey, 5, 1.4);
  sameBits(blurred.data, reference.data);
  sameBits(blurHistogram(blurred.data)!, histogram(reference.data));
  const m = median8(reference.data);
  const withOpencv: Array<[number, number]> = [
    [0.66 * m, 1.33 * m],
    [10, 30],
    [0, 0],
    [50.7, 20.2],
    [1, 2],
    [200, 400],
    [2040, 2040],
    [3000, 9000],
  ];
  const kernelOnly: Array<[number, number]> = [
    [-5, 40000],
    [NaN, 20],
  ];
  const pairs = [...withOpencv, ...kernelOnly];
  for (const sobel of SOBELS) {
    const some =
      sobel.aperture === 3 && !sobel.l2_gradient
        ? pairs
        : pairs.filter((_, i) => [0, 1, 5, 7, 8, 9].includes(i)); // the median's, low, high, above aperture 3's range, kernel-only
    const label = `aperture ${sobel.aperture}${sobel.l2_gradient ? ' L2' : ''}`;
    const g = gradient(reference, sobel);
    const counts = cannyCounts(reference, some, sobel);
    some.forEach(([low, high], i) => {
      const image = cannyCounted(reference, low, high, sobel);
      const count = countEqualJs(image.image.data, 255);
      expect(image.count, `${label} ${low} ${high}`).toBe(count);
      expect(counts[i], `${label} ${low} ${high}`).toBe(count);
      expect(cannyFromGradient(g, low, high).count, `${label} ${low} ${high}`).toBe(count);
      if (!kernelOnly.includes(some[i]!))
        sameBits(
          image.image.data,
          cv.canny(reference, low, high, sobel.aperture, sobel.l2_gradient).data,
        );
    });
  }
}

describe('A3 detector: the WebAssembly kernel = opencv-wasm, byte for byte', () => {
  it('the kernel is built (else the detector functions throw)', () => {
    expect(kernelFile('edges')).toMatch(/edges\.wasm$/);
    expect(existsSync(kernelFile('edges')), 'run `npm run build`').toBe(true);
  });

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
