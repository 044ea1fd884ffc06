/**
 * A5's Gaussian low-pass, separably. `H = exp(−ρ²/2c²) = gx(fx)·gy(fy)`, so the 2-D filter is a
 * row filter times a column filter. Rows: the real DFT of each row (the columns whose gain
 * gx ≥ GAIN_FLOOR only), times gx. Columns: instead of a DFT of every kept column, its product
 * with gy and an inverse DFT (three Bluestein transforms each when the height is not a power of
 * two), the equivalent circular convolution with `hy = IDFT(gy)`: a Gaussian of σ = 1/(2πc) pixels
 * (3.2 px at c = 0.05), whose taps past the first below TAP_FLOOR of the largest are dropped. Then the inverse row DFTs. Same result as the 2-D transform to rounding (~10⁻¹³);
 * the energies follow from Parseval along the columns: Σ_ky |gy·F|² = h·Σ_y |hy ⊛ R|².
 */
import {
  columnWeight,
  fftfreq,
  firstColumns,
  rowsInverseReal,
  rowsReal,
  sharedRows,
  sumAndSquares,
} from './fft.js';
import type { Energy } from './lowpass.js';
import { align16, kernel, reserve } from '../kernels/load.js';

/**
 * The column kernel ends at its first tap below this fraction of the centre tap (d ≈ 27 px at
 * c = 0.05). Near the rounding noise of the kernel's own sums (~1e-16 of the centre tap), which
 * is also the noise of the 2-D transform this replaces.
 */
const TAP_FLOOR = 1e-15;

/** gy at every ky (numpy fftfreq order). */
function axisGains(n: number, c: number): Float64Array {
  const g = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const f = fftfreq(k, n);
    g[k] = Math.exp(-(f * f) / (2 * c * c));
  }
  return g;
}

/**
 * The periodic column kernel `hy[d] = (1/h)·Σ_ky gy(ky)·cos(2π·ky·d/h)` for d = 0 … D (it is even),
 * D the last tap at or above TAP_FLOOR of hy[0] (at most floor(h/2)).
 */
export function columnKernel(height: number, c: number): Float64Array {
  const g = axisGains(height, c);
  const taps: number[] = [];
  for (let d = 0; d <= Math.floor(height / 2); d++) {
    let s = 0;
    for (let k = 0; k < height; k++)
      s += g[k]! * Math.cos((2 * Math.PI * ((k * d) % height)) / height);
    const v = s / height;
    if (d > 0 && Math.abs(v) < TAP_FLOOR * taps[0]!) break;
    taps.push(v);
  }
  return Float64Array.from(taps);
}

/**
 * Gaussian low-pass of one plane; `cols` is the number of half-spectrum columns passed (passedColumns).
 * Returns the unrounded filtered values and the energy sums (total and DC from the pixels).
 */
export function gaussianPlane(
  values: ArrayLike<number>,
  width: number,
  height: number,
  cutoff: number,
  cols: number,
): { filtered: Float64Array; energy: Energy } {
  // A grey image's row pass may already be there (the low-frequency energy of A2 computes it with
  // A5's columns); src is only read.
  const rows =
    values instanceof Uint8Array
      ? sharedRows(values, width, height, cols)
      : rowsReal(values, width, height, cols);
  const gx = axisGains(width, cutoff);
  const kernel = columnKernel(height, cutoff);
  const src = rows.cols === cols ? rows.data : firstColumns(rows, cols).data;
  const stride = cols * 2;
  const dst = columnConvolve(src, height, stride, kernel);
  // Gains along x, and each column's energy summed over y in row order (rows are contiguous; a
  // column's sum sees its terms in the same order as a pass down the column would).
  const e = new Float64Array(cols);
  for (let y = 0; y < height; y++) {
    for (let kx = 0, i = y * stride; kx < cols; kx++, i += 2) {
      const g = gx[kx]!;
      const re = dst[i]! * g;
      const im = dst[i + 1]! * g;
      dst[i] = re;
      dst[i + 1] = im;
      e[kx] = e[kx]! + (re * re + im * im);
    }
  }
  let filtered = 0;
  for (let kx = 0; kx < cols; kx++) filtered += e[kx]! * height * columnWeight(kx, width);
  const { sum, squares } = sumAndSquares(values, width * height);
  const out = rowsInverseReal({ width, height, cols, data: dst });
  return {
    filtered: out,
    energy: { total: width * height * squares, dc: sum * sum, filtered, filteredDc: sum * sum },
  };
}

/**
 * Circular convolution along y of `height` rows of `stride` values with the even kernel `taps`
 * (d = 0 … D): by the WebAssembly kernel (kernels/as/lowpass.ts) when built, else
 * `columnConvolveJs`; the same bits either way.
 */
export function columnConvolve(
  src: Float64Array,
  height: number,
  stride: number,
  taps: Float64Array,
): Float64Array {
  const k = kernel('lowpass');
  if (!k || stride % 2 !== 0) return columnConvolveJs(src, height, stride, taps);
  const D = taps.length - 1;
  const used = Float64Array.from(taps, (v, d) => (d > 0 && 2 * d === height ? v / 2 : v));
  const n = height * stride * 8;
  const base = reserve(k, 2 * n + align16(used.length * 8) + 8 * D + 16);
  const srcAt = base;
  const dstAt = base + n;
  const kernAt = base + 2 * n;
  const tabAt = kernAt + align16(used.length * 8);
  new Float64Array(k.memory.buffer, srcAt, height * stride).set(src);
  new Float64Array(k.memory.buffer, kernAt, used.length).set(used);
  k.exports.columnConvolve!(srcAt, dstAt, kernAt, D, height, stride, tabAt);
  return new Float64Array(k.memory.buffer, dstAt, height * stride).slice();
}

/** `columnConvolve` in TypeScript: the reference of the WebAssembly kernel. */
export function columnConvolveJs(
  src: Float64Array,
  height: number,
  stride: number,
  kernel: Float64Array,
): Float64Array {
  const D = kernel.length - 1;
  const dst = new Float64Array(src.length);
  // Circular convolution along y, a whole row of columns at a time (contiguous); the kernel is
  // even, so rows y − d and y + d share a multiplication. Taps are added in the order d = 1 … D,
  // two per pass over the row ((acc + t1) + t2: the same operations as one pass per tap, fewer
  // loads and stores).
  const k0 = kernel[0]!;
  // d = h/2 (even h, a kernel spanning the whole column): rows y ± d are one row, counted once.
  const tap = (d: number) => (2 * d === height ? kernel[d]! / 2 : kernel[d]!);
  const rowAt = (r: number) => (((r % height) + height) % height) * stride;
  for (let y = 0; y < height; y++) {
    const o = y * stride;
    for (let i = 0; i < stride; i++) dst[o + i] = k0 * src[o + i]!;
    let d = 1;
    for (; d + 1 <= D; d += 2) {
      const k1 = tap(d);
      const k2 = tap(d + 1);
      const a1 = rowAt(y + d);
      const b1 = rowAt(y - d);
      const a2 = rowAt(y + d + 1);
      const b2 = rowAt(y - d - 1);
      for (let i = 0; i < stride; i++)
        dst[o + i] =
          dst[o + i]! + k1 * (src[a1 + i]! + src[b1 + i]!) + k2 * (src[a2 + i]! + src[b2 + i]!);
    }
    if (d <= D) {
      const k = tap(d);
      const a = rowAt(y + d);
      const b = rowAt(y - d);
      for (let i = 0; i < stride; i++) dst[o + i] = dst[o + i]! + k * (src[a + i]! + src[b + i]!);
    }
  }
  return dst;
}
