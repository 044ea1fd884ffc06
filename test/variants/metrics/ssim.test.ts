/**
 * SSIM (metrics/ssim.ts) against a direct computation of scikit-image's formula, window by window,
 * on grey noise and on two-tone images of 0 and 255 (A3, A4), which take their own loop.
 */
import { describe, expect, it } from 'vitest';
import { ssim, ssimReference } from '../../../src/variants/metrics/ssim.js';
import type { Image8 } from '../../../src/variants/types.js';

let seed = 5;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

function image(w: number, h: number, value: (i: number) => number): Image8 {
  return {
    width: w,
    height: h,
    channels: 1,
    data: Uint8Array.from({ length: w * h }, (_, i) => value(i)),
  };
}

/** Mean SSIM over the interior windows, each window's means and sample (co)variances in doubles. */
function direct(a: Image8, b: Image8): number {
  const { width: w, height: h } = a;
  const N = 49;
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  let n = 0;
  for (let y = 3; y < h - 3; y++) {
    for (let x = 3; x < w - 3; x++) {
      let sx = 0,
        sy = 0,
        sxx = 0,
        syy = 0,
        sxy = 0;
      for (let dy = -3; dy <= 3; dy++) {
        for (let dx = -3; dx <= 3; dx++) {
          const p = a.data[(y + dy) * w + x + dx]!;
          const q = b.data[(y + dy) * w + x + dx]!;
          sx += p;
          sy += q;
          sxx += p * p;
          syy += q * q;
          sxy += p * q;
        }
      }
      const mx = sx / N,
        my = sy / N;
      const vx = (sxx / N - mx * mx) * (N / (N - 1));
      const vy = (syy / N - my * my) * (N / (N - 1));
      const cxy = (sxy / N - mx * my) * (N / (N - 1));
      sum += ((2 * mx * my + C1) * (2 * cxy + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2));
      n++;
    }
  }
  return sum / n;
}

describe('SSIM against the direct formula', () => {
  for (const [w, h] of [
    [7, 7],
    [20, 13],
    [64, 9],
    [33, 41],
  ] as const) {
    it(`${w} × ${h}: grey, two-tone, and two-tone but one pixel`, () => {
      const a = image(w, h, () => Math.floor(rand() * 256));
      const grey = image(w, h, () => Math.floor(rand() * 256));
      const twoTone = image(w, h, () => (rand() < 0.4 ? 0 : 255));
      const almost = { ...twoTone, data: twoTone.data.slice() };
      almost.data[Math.floor((w * h) / 2)] = 254;
      const ref = ssimReference(a);
      for (const b of [grey, twoTone, almost])
        expect(Math.abs(ssim(ref, b)! - direct(a, b))).toBeLessThan(1e-12);
      expect(ssim(ref, a)).toBe(1);
    });
  }
});
