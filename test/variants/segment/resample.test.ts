/**
 * The resampling steps, against hand-computed values: the package's preprocessing (corner-aligned
 * bilinear, rounding, (v − 128)/256, planar RGB), the probability map back to A0 size, and the
 * GrabCut mask upsampling.
 */
import { describe, expect, it } from 'vitest';
import {
  isnetInputTensor,
  probabilityToMask,
  upsampleMask,
} from '../../../src/variants/segment/resample.js';

describe('isnetInputTensor', () => {
  it('normalises (v − 128)/256 into planar R, G, B at the same size', () => {
    const rgb = new Uint8Array([0, 128, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90]); // 2×2
    const t = isnetInputTensor(rgb, 2, 2, 2);
    expect(Array.from(t.subarray(0, 4))).toEqual(
      [-0.5, (10 - 128) / 256, (40 - 128) / 256, (70 - 128) / 256].map(Math.fround),
    );
    expect(t[4]).toBe(0); // G of pixel 0 = 128
    expect(t[8]).toBe(Math.fround(127 / 256)); // B of pixel 0 = 255
  });

  it('stretches with the package geometry: source x·W/size, neighbours floor/ceil, rounded', () => {
    // 2×1 grey image [0, 101] stretched to 4×4: source x = 0, 0.5, 1, 1.5 → 0, 50.5→51, 101, 101.
    const rgb = new Uint8Array([0, 0, 0, 101, 101, 101]);
    const t = isnetInputTensor(rgb, 2, 1, 4);
    const row = Array.from(t.subarray(0, 4)).map((v) => Math.round(v * 256 + 128));
    expect(row).toEqual([0, 51, 101, 101]);
    // every row is the same (one source row), and the channels agree
    expect(Array.from(t.subarray(12, 16))).toEqual(Array.from(t.subarray(0, 4)));
    expect(Array.from(t.subarray(16, 20))).toEqual(Array.from(t.subarray(0, 4)));
  });
});

describe('probabilityToMask', () => {
  it('interpolates the floats and thresholds at p ≥ threshold', () => {
    // 2×2 map [[0, 1], [0, 1]] to 4×1: source x = 0, 0.5, 1, 1.5 → p = 0, 0.5, 1, 1.
    const prob = new Float32Array([0, 1, 0, 1]);
    expect(Array.from(probabilityToMask(prob, 2, 4, 1, 0.5))).toEqual([0, 1, 1, 1]);
    expect(Array.from(probabilityToMask(prob, 2, 4, 1, 0.6))).toEqual([0, 0, 1, 1]);
  });

  it('maps a downscale with the same corner-aligned geometry', () => {
    // 4×4 map whose left half is 1 → 2×2: source x = 0, 2 → [1, 0] on every row.
    const prob = new Float32Array([1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0]);
    expect(Array.from(probabilityToMask(prob, 4, 2, 2, 0.5))).toEqual([1, 0, 1, 0]);
  });
});

describe('upsampleMask', () => {
  it('is bilinear with half-pixel centres, foreground where ≥ 0.5', () => {
    // [1, 0] → 4 wide: source x = −0.25→0, 0.25, 0.75, 1.25→1 → 1, 0.75, 0.25, 0.
    expect(Array.from(upsampleMask(new Uint8Array([1, 0]), 2, 1, 4, 1))).toEqual([1, 1, 0, 0]);
    // [1, 0, 1] → 6 wide: positions 0 (clamped), 0.25, 0.75, 1.25, 1.75, 2 (clamped) → 1, 0.75, 0.25, 0.25, 0.75, 1.
    expect(Array.from(upsampleMask(new Uint8Array([1, 0, 1]), 3, 1, 6, 1))).toEqual([
      1, 1, 0, 0, 1, 1,
    ]);
  });

  it('returns a copy at the same size', () => {
    const m = new Uint8Array([1, 0, 0, 1]);
    const u = upsampleMask(m, 2, 2, 2, 2);
    expect(Array.from(u)).toEqual([1, 0, 0, 1]);
    expect(u).not.toBe(m);
  });
});
