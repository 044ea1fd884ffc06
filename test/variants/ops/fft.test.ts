/**
 * Exact-size DFTs (the FFT kernel: radix-4 for powers of two, Bluestein for other lengths) against
 * a direct O(n²) DFT: rows alone (n × 1), columns alone (1 × n), 2-D half spectra, inverses;
 * fftfreq; A5's shortcuts against the full transform.
 */
import { describe, expect, it } from 'vitest';
import { fft2Real, fftfreq, ifft2Real } from '../../../src/variants/ops/fft.js';

let seed = 11;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 255;
const maxAbs = (a: Float64Array, b: Float64Array) =>
  a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

const LENGTHS = [2, 3, 4, 5, 7, 8, 12, 31, 64, 97, 100, 243, 683];

describe('2-D real DFT (half spectrum)', () => {
  for (const [w, h] of [
    [1, 1],
    [5, 3],
    [6, 4],
    [7, 9],
    [16, 5],
    [33, 2],
    ...LENGTHS.map((n) => [n, 1] as const),
    ...LENGTHS.map((n) => [1, n] as const),
  ] as const) {
    it(`${w} × ${h}`, () => {
      const img = Float64Array.from({ length: w * h }, rand);
      const spec = fft2Real(img, w, h);
      // direct 2-D DFT at every kept bin
      for (let ky = 0; ky < h; ky++)
        for (let kx = 0; kx < spec.cols; kx++) {
          let re = 0;
          let im = 0;
          for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++) {
              const a = -2 * Math.PI * (((ky * y) % h) / h + ((kx * x) % w) / w);
              re += img[y * w + x]! * Math.cos(a);
              im += img[y * w + x]! * Math.sin(a);
            }
          const i = ky * spec.cols + kx;
          expect(Math.abs(spec.data[2 * i]! - re)).toBeLessThan(1e-12 * w * h * 255);
          expect(Math.abs(spec.data[2 * i + 1]! - im)).toBeLessThan(1e-12 * w * h * 255);
        }
      const back = ifft2Real(spec);
      expect(maxAbs(back, img)).toBeLessThan(1e-9);
    });
  }
});

describe('fftfreq', () => {
  it('follows numpy: [0, 1, …, (n−1)//2, −(n//2), …, −1] · (1/n)', () => {
    expect([0, 1, 2, 3].map((k) => fftfreq(k, 4))).toEqual([0, 0.25, -0.5, -0.25]);
    expect([0, 1, 2, 3, 4].map((k) => fftfreq(k, 5))).toEqual([
      0,
      1 * (1 / 5),
      2 * (1 / 5),
      -2 * (1 / 5),
      -1 * (1 / 5),
    ]);
  });
});

describe('A5 skips the columns the filter stops', () => {
  it('gives the same pixels and energies as the full transform on the demo photos', async () => {
    const { default: sharp } = await import('sharp');
    const { filterGains, lowpassPlane, passedColumns } =
      await import('../../../src/variants/ops/lowpass.js');
    for (const f of ['rocket.jpg', 'camera.png', 'chelsea.png']) {
      const { data, info } = await sharp(
        new URL(`../../../corpora/demo/${f}`, import.meta.url).pathname,
      )
        .resize(1024, 1024, { fit: 'inside' })
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      for (const filter of ['gaussian', 'ideal'] as const) {
        const p = { filter, cutoff: 0.05 };
        const { width, height } = info;
        const cols = passedColumns(width, p);
        expect(cols, `${f} ${filter}`).toBeLessThan(Math.floor(width / 2) + 1);
        const fast = lowpassPlane(data, width, height, filterGains(width, height, p, cols));
        const full = lowpassPlane(data, width, height, filterGains(width, height, p));
        let differ = 0;
        for (let i = 0; i < fast.plane.length; i++) if (fast.plane[i] !== full.plane[i]) differ++;
        expect(differ, `${f} ${filter}: pixels that differ`).toBe(0);
        expect(
          Math.abs(fast.energy.filtered - full.energy.filtered) / full.energy.filtered,
        ).toBeLessThan(1e-12);
        expect(Math.abs(fast.energy.total - full.energy.total) / full.energy.total).toBeLessThan(
          1e-12,
        );
      }
    }
  });
});

describe('A5 Gaussian, separably (lowpass-gaussian.ts)', () => {
  it('gives the same pixels and energies as the 2-D transform, on photos and on small even and odd sizes', async () => {
    const { default: sharp } = await import('sharp');
    const { filterGains, lowpassPlane } = await import('../../../src/variants/ops/lowpass.js');
    const p = { filter: 'gaussian' as const, cutoff: 0.05 };
    const cases: Array<[string, Uint8Array, number, number]> = [];
    for (const f of ['rocket.jpg', 'camera.png']) {
      const { data, info } = await sharp(
        new URL(`../../../corpora/demo/${f}`, import.meta.url).pathname,
      )
        .resize(1024, 1024, { fit: 'inside' })
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      cases.push([f, data, info.width, info.height]);
    }
    const noise = (n: number) =>
      Uint8Array.from({ length: n }, (_, i) => (i * 37 + i * i * 11 + 5) % 256);
    for (const [w, h] of [
      [8, 8],
      [9, 7],
      [16, 10],
      [33, 64],
      [5, 1],
      [1, 6],
    ] as const)
      cases.push([`noise ${w}×${h}`, noise(w * h), w, h]);
    for (const cutoff of [0.05, 0.2]) {
      for (const [label, data, width, height] of cases) {
        const q = { ...p, cutoff };
        const full = lowpassPlane(data, width, height, filterGains(width, height, q));
        const sep = lowpassPlane(data, width, height, new Float64Array(0), {
          cutoff,
          cols: Math.floor(width / 2) + 1,
        });
        let differ = 0;
        for (let i = 0; i < full.plane.length; i++) if (full.plane[i] !== sep.plane[i]) differ++;
        expect(differ, `${label} c ${cutoff}: pixels that differ`).toBe(0);
        expect(
          Math.abs(sep.energy.filtered - full.energy.filtered) / full.energy.filtered,
          label,
        ).toBeLessThan(1e-12);
        expect(
          Math.abs(sep.energy.filteredAc - full.energy.filteredAc) / full.energy.filteredAc,
          `${label} AC`,
        ).toBeLessThan(1e-12);
        expect(sep.energy.ac).toBe(full.energy.ac);
      }
    }
  });
});

describe('row passes in reused scratch arrays (fft.ts sharedRows, keptRows, transientRows)', () => {
  it('keeps one image’s shared row pass, never hands it out for another image, and leaves it intact through transient passes', async () => {
    const { keptRows, rowsReal, sharedRows, transientRows } =
      await import('../../../src/variants/ops/fft.js');
    const [w, h, cols] = [24, 10, 6];
    const image = (k: number) => Uint8Array.from({ length: w * h }, (_, i) => (i * k + 3) % 256);
    const a = image(7);
    const b = image(13);
    const same = (x: Float64Array, y: Float64Array) =>
      expect(Array.from(x.subarray(0, y.length))).toEqual(Array.from(y));
    const rowsA = sharedRows(a, w, h, cols);
    same(rowsA.data, rowsReal(a, w, h, cols).data);
    expect(keptRows(a, w, h, cols)).toBe(rowsA);
    // A transient pass (another image) leaves the shared one as it was.
    same(transientRows(b, w, h, cols).data, rowsReal(b, w, h, cols).data);
    same(keptRows(a, w, h, cols)!.data, rowsReal(a, w, h, cols).data);
    // A copy of a with the same pixels is another buffer: not kept.
    expect(keptRows(a.slice(), w, h, cols)).toBeUndefined();
    // The next shared pass replaces it: a is no longer kept, b is, with b's values.
    const rowsB = sharedRows(b, w, h, cols);
    expect(keptRows(a, w, h, cols)).toBeUndefined();
    same(rowsB.data, rowsReal(b, w, h, cols).data);
    // More columns than kept: computed again, with every value the one rowsReal gives.
    same(sharedRows(b, w, h, cols + 3).data, rowsReal(b, w, h, cols + 3).data);
  });
});
