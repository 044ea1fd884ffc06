/**
 * The band transforms of ops/fft-band.ts (low-frequency energy metric): the chirp-z transform
 * against a direct O(n²) DFT, the band row pass against fft.ts's, the band energy and
 * `lowFrequencyFraction` against the full 2-D transform, on small even and odd sizes.
 */
import { describe, expect, it } from 'vitest';
import { axisBand, bandDft, bandEnergy, rowsBand } from '../../../src/variants/ops/fft-band.js';
import { columnsKernel } from '../../../src/variants/ops/fft-kernel.js';
import {
  columnWeight,
  fft2Real,
  radialFrequency,
  rowsReal,
} from '../../../src/variants/ops/fft.js';
import { lowFrequencyFraction } from '../../../src/variants/metrics/metrics.js';

let seed = 29;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 255;

function naiveAt(x: Float64Array, k: number): [number, number] {
  const n = x.length / 2;
  let re = 0;
  let im = 0;
  for (let j = 0; j < n; j++) {
    const a = (-2 * Math.PI * ((j * (((k % n) + n) % n)) % n)) / n;
    re += x[2 * j]! * Math.cos(a) - x[2 * j + 1]! * Math.sin(a);
    im += x[2 * j]! * Math.sin(a) + x[2 * j + 1]! * Math.cos(a);
  }
  return [re, im];
}

describe('chirp-z transform of a band of outputs', () => {
  for (const [n, k0, count] of [
    [7, -2, 5],
    [100, -9, 19],
    [614, -31, 63],
    [683, -34, 69],
    [97, 0, 10],
    [12, -5, 12],
  ] as const) {
    it(`n = ${n}, outputs ${k0} … ${k0 + count - 1}`, () => {
      const x = Float64Array.from({ length: 2 * n }, rand);
      // One column of n complex values through the kernel's band transform.
      const out = columnsKernel(x, 1, n, 1, 'band', bandDft(n, k0, count));
      for (let t = 0; t < count; t++) {
        const [re, im] = naiveAt(x, k0 + t);
        expect(Math.abs(out[2 * t]! - re)).toBeLessThan(1e-9 * n * 255);
        expect(Math.abs(out[2 * t + 1]! - im)).toBeLessThan(1e-9 * n * 255);
      }
    });
  }
});

describe('low-frequency band of a real image', () => {
  for (const [w, h] of [
    [614, 409],
    [100, 77],
    [33, 50],
    [64, 45],
    [517, 333],
    [256, 100],
  ] as const) {
    it(`${w} × ${h}`, () => {
      const values = Uint8Array.from({ length: w * h }, () => Math.floor(rand()));
      const cutoff = 0.05;
      let keep = 1;
      while (keep < Math.floor(w / 2) + 1 && keep / w <= cutoff) keep++;
      const band = rowsBand(values, w, h, keep);
      const full = rowsReal(values, w, h, keep);
      expect(band.cols).toBe(full.cols);
      const scale = 255 * w;
      for (let i = 0; i < full.data.length; i++)
        expect(Math.abs(band.data[i]! - full.data[i]!)).toBeLessThan(1e-11 * scale);
      // Band energy against the full 2-D half spectrum.
      const spec = fft2Real(values, w, h);
      const inDisc = (ky: number, kx: number) =>
        (ky !== 0 || kx !== 0) && radialFrequency(ky, kx, w, h) <= cutoff;
      let expected = 0;
      let total = 0;
      for (let ky = 0; ky < h; ky++) {
        for (let kx = 0; kx < spec.cols; kx++) {
          const i = ky * spec.cols + kx;
          const e = (spec.data[2 * i]! ** 2 + spec.data[2 * i + 1]! ** 2) * columnWeight(kx, w);
          if (ky !== 0 || kx !== 0) total += e;
          if (inDisc(ky, kx)) expected += e;
        }
      }
      const { below, above } = axisBand(h, cutoff);
      const got = bandEnergy(band, band.cols, below, above, cutoff);
      expect(Math.abs(got - expected) / expected).toBeLessThan(1e-12);
      const fraction = lowFrequencyFraction(
        { width: w, height: h, channels: 1, data: values },
        cutoff,
      )!;
      expect(Math.abs(fraction - expected / total) / (expected / total)).toBeLessThan(1e-9);
    });
  }
});
