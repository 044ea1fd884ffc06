/**
 * The calls into the FFT kernel (kernels/as/fft.ts), the one implementation of fft.ts's and
 * fft-band.ts's transforms: row passes and column passes, two sequences per f64x2 lane pair, a
 * radix-4 transform of power-of-two length (the operations, tables and order of fft.js 4, so the
 * values are the ones stimkit has always produced) with the Bluestein / chirp-z steps around it
 * for other lengths. Tested against direct DFTs (test/variants/ops/fft.test.ts, fft-band.test.ts).
 * A build without the kernel fails (load.ts `requiredKernel`).
 */
import { align16, requiredKernel, reserve, type Kernel } from '../kernels/load.js';

/** What the kernel needs of a DFT plan: fft.js's tables and the chirp of a Bluestein or chirp-z plan. */
export interface PlanParts {
  /** 0 identity (n = 1), 1 power of two (radix-4 alone), 2 chirp convolution (Bluestein, chirp-z). */
  kind: 0 | 1 | 2;
  n: number;
  /** Length of the power-of-two transform (n for kind 1). */
  m: number;
  table: Float64Array;
  bitrev: Int32Array;
  width: number;
  /** The chirp on the input (n values), its transform B (m), on the outputs (count). */
  wn: Float64Array;
  B: Float64Array;
  wk: Float64Array;
  count: number;
  /** Output t is the convolution at t + shift. */
  shift: number;
}

const none = new Float64Array(0);

/**
 * The twiddle table, bit reversal and first-step width of the radix-4 transform of power-of-two
 * size m, as fft.js 4 computes its own (lib/fft.js, constructor; checked equal bit for bit for
 * every size up to 2^16 when fft.js was stimkit's FFT), so A5's pixels stay what they were.
 */
export function fftParts(m: number): Pick<PlanParts, 'm' | 'table' | 'bitrev' | 'width'> {
  const table = new Float64Array(2 * m);
  for (let i = 0; i < table.length; i += 2) {
    const angle = (Math.PI * i) / m;
    table[i] = Math.cos(angle);
    table[i + 1] = -Math.sin(angle);
  }
  const power = Math.log2(m);
  // Full radix-4 (even power) starts at length 8, otherwise at length 4.
  const width = power % 2 === 0 ? power - 1 : power;
  const bitrev = new Int32Array(1 << width);
  for (let j = 0; j < bitrev.length; j++) {
    for (let shift = 0; shift < width; shift += 2)
      bitrev[j]! |= ((j >>> shift) & 3) << (width - shift - 2);
  }
  return { m, table, bitrev, width };
}

export const identityParts: PlanParts = {
  kind: 0,
  n: 1,
  m: 1,
  table: none,
  bitrev: new Int32Array(0),
  width: 0,
  wn: none,
  B: none,
  wk: none,
  count: 1,
  shift: 0,
};

/** Byte offsets from the kernel's base, 16-aligned. */
class Layout {
  size = 0;
  take(bytes: number): number {
    const at = this.size;
    this.size = align16(this.size + bytes);
    return at;
  }
}

/** Lays a plan out (header and tables, scratch of the chirp); returns the writer to call after `reserve`. */
function planLayout(L: Layout, p: PlanParts): (k: Kernel, base: number) => number {
  const head = L.take(64);
  const table = L.take(p.table.length * 8);
  const bitrev = L.take(p.bitrev.length * 4);
  const wn = L.take(p.wn.length * 8);
  const B = L.take(p.B.length * 8);
  const wk = L.take(p.wk.length * 8);
  const scratch = p.kind === 2 ? p.m * 32 : 0;
  const a = L.take(scratch);
  const A = L.take(scratch);
  return (k, base) => {
    const buf = k.memory.buffer;
    new Float64Array(buf, base + table, p.table.length).set(p.table);
    new Int32Array(buf, base + bitrev, p.bitrev.length).set(p.bitrev);
    new Float64Array(buf, base + wn, p.wn.length).set(p.wn);
    new Float64Array(buf, base + B, p.B.length).set(p.B);
    new Float64Array(buf, base + wk, p.wk.length).set(p.wk);
    const h = new Int32Array(buf, base + head, 16);
    h.set([
      p.n,
      p.m,
      p.kind,
      base + table,
      base + bitrev,
      p.width,
      base + wn,
      base + B,
      base + wk,
      p.count,
      p.shift,
      base + a,
      base + A,
    ]);
    return base + head;
  };
}

const zeros = (k: Kernel, at: number, bytes: number) =>
  new Uint8Array(k.memory.buffer, at, bytes).fill(0);

/**
 * fft.ts `rowsReal` (plan of length width) or, with `band`, fft-band.ts `rowsBand` (chirp-z plan
 * of the 2·cols − 1 outputs −(cols − 1) … cols − 1): the half-spectrum rows, height × cols complex,
 * in a new array or, with `into`, in its first height · cols · 2 values (returned: a view).
 */
export function rowsForwardKernel(
  values: ArrayLike<number>,
  width: number,
  height: number,
  cols: number,
  plan: PlanParts,
  band: boolean,
  into?: Float64Array,
): Float64Array {
  const k = requiredKernel('fft');
  const u8 = values instanceof Uint8Array;
  const L = new Layout();
  const writePlan = planLayout(L, plan);
  const z = L.take(width * 32);
  const Z = L.take(Math.max(width, plan.count) * 32);
  const zero = L.take(width * 8);
  const vals = L.take(width * height * (u8 ? 1 : 8));
  const data = L.take(height * cols * 16);
  const base = reserve(k, L.size);
  const P = writePlan(k, base);
  zeros(k, base + zero, width * 8);
  if (u8)
    new Uint8Array(k.memory.buffer, base + vals, width * height).set(
      values.subarray(0, width * height),
    );
  else {
    const dst = new Float64Array(k.memory.buffer, base + vals, width * height);
    if (ArrayBuffer.isView(values))
      dst.set((values as unknown as Float64Array).subarray(0, width * height));
    else for (let i = 0; i < width * height; i++) dst[i] = values[i]!;
  }
  k.exports.rowsForward!(
    P,
    band ? 1 : 0,
    base + vals,
    u8 ? 1 : 0,
    width,
    height,
    cols,
    base + data,
    base + z,
    base + Z,
    base + zero,
  );
  const result = new Float64Array(k.memory.buffer, base + data, height * cols * 2);
  if (!into) return result.slice();
  const view = into.subarray(0, result.length);
  view.set(result);
  return view;
}

/** fft.ts `rowsInverseReal` of a half spectrum (height × cols complex, plan of length width): width × height real values. */
export function rowsInverseKernel(
  spec: { width: number; height: number; cols: number; data: Float64Array },
  plan: PlanParts,
): Float64Array {
  const k = requiredKernel('fft');
  const { width, height, cols } = spec;
  const L = new Layout();
  const writePlan = planLayout(L, plan);
  const z = L.take(width * 32);
  const Z = L.take(width * 32);
  const zero = L.take(cols * 16);
  const data = L.take(height * cols * 16);
  const out = L.take(width * height * 8);
  const base = reserve(k, L.size);
  const P = writePlan(k, base);
  zeros(k, base + zero, cols * 16);
  new Float64Array(k.memory.buffer, base + data, height * cols * 2).set(
    spec.data.subarray(0, height * cols * 2),
  );
  k.exports.rowsInverse!(
    P,
    base + data,
    width,
    height,
    cols,
    base + out,
    base + z,
    base + Z,
    base + zero,
  );
  return new Float64Array(k.memory.buffer, base + out, width * height).slice();
}

/**
 * Column transforms of `data` (height rows of `stride` complex values), columns kx < cols:
 * 'forward' / 'inverse' in place (fft.ts `columnPass`, plan of length height; returns `data`), or
 * 'band' (chirp-z plan of `plan.count` outputs): the outputs, column after column (cols × count
 * complex), `data` unchanged.
 */
export function columnsKernel(
  data: Float64Array,
  stride: number,
  height: number,
  cols: number,
  mode: 'forward' | 'inverse' | 'band',
  plan: PlanParts,
): Float64Array {
  const k = requiredKernel('fft');
  const count = mode === 'band' ? plan.count : height;
  const L = new Layout();
  const writePlan = planLayout(L, plan);
  const c = L.take(height * 32);
  const C = L.take(Math.max(height, count) * 32);
  const src = L.take(height * stride * 16);
  const out = L.take(mode === 'band' ? cols * count * 16 : 0);
  const base = reserve(k, L.size);
  const P = writePlan(k, base);
  const view = new Float64Array(k.memory.buffer, base + src, height * stride * 2);
  view.set(data.subarray(0, height * stride * 2));
  k.exports.columns!(
    P,
    mode === 'forward' ? 0 : mode === 'inverse' ? 1 : 2,
    base + src,
    stride,
    height,
    cols,
    base + out,
    base + c,
    base + C,
  );
  if (mode === 'band')
    return new Float64Array(k.memory.buffer, base + out, cols * count * 2).slice();
  data.set(view);
  return data;
}

/**
 * A5's Gaussian low-pass after its row pass (lowpass-gaussian.ts), in one layout of the kernel's
 * memory, nothing copied between the steps: the first `cols` columns of `rows` (height rows of
 * `rows.cols` complex values) convolved along y with the even taps (d = 0 … D, as the kernel uses
 * them), each value times the gain of its column (`gains`, cols values) and each column's energy
 * Σ_y (re² + im²) summed in row order, then the inverse row pass (plan of length width). Returns the
 * filtered plane (width × height) as a view of the kernel's memory (read it before the next call
 * into the kernel) and the column energies (a new array).
 */
export function gaussianKernel(
  rows: { cols: number; data: Float64Array },
  width: number,
  height: number,
  cols: number,
  taps: Float64Array,
  plan: PlanParts,
  gains: Float64Array,
): { filtered: Float64Array; energy: Float64Array } {
  const k = requiredKernel('fft');
  const D = taps.length - 1;
  const bytes = height * cols * 16;
  const L = new Layout();
  const writePlan = planLayout(L, plan);
  const z = L.take(width * 32);
  const Z = L.take(width * 32);
  const zero = L.take(cols * 16);
  const src = L.take(bytes);
  const dst = L.take(bytes);
  const kern = L.take(taps.length * 8);
  const tab = L.take(8 * D + 16);
  const gain = L.take(cols * 8);
  const energy = L.take(cols * 8);
  const out = L.take(width * height * 8);
  const base = reserve(k, L.size);
  const P = writePlan(k, base);
  const buf = k.memory.buffer;
  zeros(k, base + zero, cols * 16);
  zeros(k, base + energy, cols * 8);
  const into = new Float64Array(buf, base + src, height * cols * 2);
  if (rows.cols === cols) into.set(rows.data.subarray(0, height * cols * 2));
  else
    for (let y = 0; y < height; y++)
      into.set(rows.data.subarray(y * rows.cols * 2, (y * rows.cols + cols) * 2), y * cols * 2);
  new Float64Array(buf, base + kern, taps.length).set(taps);
  new Float64Array(buf, base + gain, cols).set(gains.subarray(0, cols));
  k.exports.columnConvolve!(
    base + src,
    base + dst,
    base + kern,
    D,
    height,
    cols * 2,
    base + tab,
    base + gain,
    base + energy,
  );
  const e = new Float64Array(buf, base + energy, cols).slice();
  k.exports.rowsInverse!(
    P,
    base + dst,
    width,
    height,
    cols,
    base + out,
    base + z,
    base + Z,
    base + zero,
  );
  return { filtered: new Float64Array(buf, base + out, width * height), energy: e };
}
