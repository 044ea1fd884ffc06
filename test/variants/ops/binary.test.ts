/** A4's Otsu threshold, exact: the VARIANTS.md objective by brute force on small cases, ties, constants. */
import { describe, expect, it } from 'vitest';
import { otsuThreshold, thresholdImage } from '../../../src/variants/ops/binary.js';

/** The objective maximised by brute force with exact rationals (BigInt cross-multiplication). */
function bruteForce(values: number[]): number {
  const N = BigInt(values.length);
  const S = values.reduce((a, v) => a + BigInt(v), 0n);
  let best = 0;
  let bn = -1n;
  let bd = 1n;
  for (let t = 0; t < 256; t++) {
    const c0 = values.filter((v) => v <= t);
    const n0 = BigInt(c0.length);
    if (n0 === 0n || n0 === N) continue;
    const S0 = c0.reduce((a, v) => a + BigInt(v), 0n);
    const num = (N * S0 - n0 * S) ** 2n;
    const den = n0 * (N - n0);
    if (bn < 0n || num * bd > bn * den) [best, bn, bd] = [t, num, den];
  }
  return best;
}

describe('Otsu', () => {
  it('agrees with the brute-force objective on random histograms', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 40; k++) {
      const values = Array.from({ length: 50 + (k % 7) * 30 }, () =>
        Math.floor(rand() ** (1 + (k % 3)) * 256),
      );
      expect(otsuThreshold(new Uint8Array(values))).toBe(bruteForce(values));
    }
  });

  it('gives 0 for a constant image and breaks ties toward the smallest t', () => {
    expect(otsuThreshold(new Uint8Array(100).fill(77))).toBe(0);
    // two values: every t in [10, 199] separates them equally well → the smallest, 10
    expect(otsuThreshold(new Uint8Array([10, 10, 200, 200]))).toBe(10);
  });

  it('maps v > t to white', () => {
    const out = thresholdImage(
      { width: 3, height: 1, channels: 1, data: new Uint8Array([10, 11, 12]) },
      11,
    );
    expect([...out.data]).toEqual([0, 0, 255]);
  });
});
