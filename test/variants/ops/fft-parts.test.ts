/**
 * The kernel's FFT tables (fft-kernel.ts `fftParts`) are computed by stimkit; they must equal
 * fft.js's own (its private `table`, `_bitrev` and `_width`, read here only as the reference) for
 * every power-of-two size, so that the WebAssembly passes match `FFT.transform` exactly.
 */
import FFT from 'fft.js';
import { describe, expect, it } from 'vitest';
import { fftParts } from '../../../src/variants/ops/fft-kernel.js';

describe('fftParts', () => {
  it('equals fft.js 4 tables for sizes 2 … 2^16', () => {
    for (let p = 1; p <= 16; p++) {
      const f = new FFT(1 << p);
      const ref = f as unknown as { table: number[]; _bitrev: number[]; _width: number };
      const parts = fftParts(f);
      expect(parts.m).toBe(1 << p);
      expect(parts.width).toBe(ref._width);
      expect(Array.from(parts.bitrev)).toEqual(ref._bitrev);
      expect(Object.is(parts.table.length, ref.table.length)).toBe(true);
      // Bit for bit, not within a tolerance.
      expect(parts.table.every((v, i) => Object.is(v, ref.table[i]))).toBe(true);
    }
  });
});
