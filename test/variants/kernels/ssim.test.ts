/**
 * SSIM: the WebAssembly kernel (kernels/as/ssim.ts) = the TypeScript (`ssimJs`), bit for bit, on
 * A2 of the demo photos against variants of them (blurred, thresholded to two tones, noisy,
 * shifted, inverted), on two-tone images (its own path in both) and on odd sizes.
 */
import { describe, expect, it } from 'vitest';
import { kernel } from '../../../src/variants/kernels/load.js';
import { ssim, ssimJs, ssimReference } from '../../../src/variants/metrics/ssim.js';
import type { Image8 } from '../../../src/variants/types.js';
import { noise, photo } from './helpers.js';

let seed = 11;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

const map = (a: Image8, f: (v: number, i: number) => number): Image8 => ({
  ...a,
  data: Uint8Array.from(a.data, f),
});

/** 3 × 3 box blur (edges clamped). */
function blur(a: Image8): Image8 {
  const { width: w, height: h, data } = a;
  const at = (x: number, y: number) =>
    data[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))]!;
  return map(a, (_, i) => {
    const x = i % w;
    const y = (i - x) / w;
    let s = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) s += at(x + dx, y + dy);
    return Math.round(s / 9);
  });
}

/** The variants a grey image is compared with: extremes (0 and 255 only, constant), smooth, noisy. */
function variants(a: Image8): Array<[string, Image8]> {
  const mid = a.data.reduce((s, v) => s + v, 0) / a.data.length;
  const two = map(a, (v) => (v < mid ? 0 : 255));
  const almost = { ...two, data: two.data.slice() };
  almost.data[almost.data.length >> 1] = 128;
  return [
    ['blurred', blur(a)],
    ['two-tone', two],
    ['two-tone but one pixel', almost],
    ['two-tone noise', map(a, () => (rand() < 0.3 ? 255 : 0))],
    ['noisy', map(a, (v) => Math.min(255, Math.max(0, v + Math.round((rand() - 0.5) * 80))))],
    ['inverted', map(a, (v) => 255 - v)],
    ['shifted', map(a, (_, i) => a.data[(i + 1) % a.data.length]!)],
    ['black', map(a, () => 0)],
    ['white', map(a, () => 255)],
    ['random', map(a, () => Math.floor(rand() * 256))],
  ];
}

function same(a: Image8, b: Image8, label: string): void {
  const want = ssimJs(ssimReference(a), b);
  const got = ssim(ssimReference(a), b);
  expect(Object.is(got, want), `${label}: ${got} vs ${want}`).toBe(true);
  // As an image (no reference) too, and the reference's sums computed before (the JS path's cache).
  expect(Object.is(ssim(a, b), want), label).toBe(true);
  const ref = ssimReference(a);
  ssimJs(ref, a.data === b.data ? { ...b, data: b.data.slice() } : b);
  expect(Object.is(ssim(ref, b), want), label).toBe(true);
}

describe('SSIM: wasm = TypeScript, bit for bit', () => {
  it('the kernel is built', () => expect(kernel('ssim')).not.toBeNull());

  for (const file of ['astronaut.png', 'camera.png', 'coffee.png']) {
    it(`A2 of ${file} against its variants`, async () => {
      const a = await photo(file);
      for (const [label, b] of variants(a)) same(a, b, `${file} ${label}`);
      expect(ssim(ssimReference(a), a)).toBe(1);
    });
  }

  const sizes: Array<[number, number]> = [
    [7, 7],
    [8, 9],
    [9, 8],
    [7, 30],
    [30, 7],
    [10, 10],
    [11, 13],
    [16, 16],
    [17, 7],
    [22, 9],
    [23, 11],
    [32, 33],
    [683, 97],
    [97, 683],
    [1030, 12],
  ];
  for (const [w, h] of sizes) {
    it(`${w} × ${h}`, () => {
      const a = noise(w, h);
      for (const [label, b] of variants(a)) same(a, b, `${w} × ${h} ${label}`);
      same(a, noise(w, h), `${w} × ${h} other noise`);
    });
  }

  it('references taking turns (the kernel keeps the last one): each its own', async () => {
    const a = await photo('camera.png');
    const small = noise(683, 97);
    const refs = [ssimReference(a), ssimReference(small), ssimReference(map(a, (v) => 255 - v))];
    const others = [blur(a), blur(small), map(a, (v) => (v > 100 ? 255 : 0))];
    for (const order of [
      [0, 0, 1, 0, 2, 2, 0, 1, 1],
      [2, 1, 0, 2],
    ]) {
      for (const i of order) {
        const ref = refs[i]!;
        const b = others[i]!;
        expect(Object.is(ssim(ref, b), ssimJs(ref, b))).toBe(true);
        // An image in between (A1's region) is not kept: the reference after it is recomputed.
        expect(Object.is(ssim(ref.image, others[i]!), ssimJs(ref.image, others[i]!))).toBe(true);
      }
    }
  });

  it('below 7 pixels: null, as skimage refuses', () => {
    for (const [w, h] of [
      [6, 9],
      [9, 6],
      [1, 1],
      [3, 7],
    ] as const) {
      const a = noise(w, h);
      expect(ssim(a, noise(w, h))).toBeNull();
      expect(ssimJs(a, noise(w, h))).toBeNull();
    }
  });

  it('refuses colour and unequal sizes, as the TypeScript does', () => {
    const a = noise(9, 9);
    expect(() => ssim(a, noise(9, 10))).toThrow(/equal sizes/);
    expect(() => ssim(a, { ...noise(3, 9), channels: 3 })).toThrow(/grey/);
  });
});
