/**
 * Exact-size discrete Fourier transforms for the low-pass variant and the spectral metrics, in the
 * FFT kernel (fft-kernel.ts, kernels/as/fft.ts): a radix-4 transform for power-of-two lengths, and
 * Bluestein's algorithm on top of it for any other (a chirp convolution of power-of-two length
 * ≥ 2n − 1), so the DFT is of the image's own size, never padded. Complex arrays are interleaved
 * (re, im).
 *
 * The 2-D transform of a real image keeps the non-negative column frequencies only (Hermitian
 * symmetry): `Spectrum.data` is height × (floor(width/2) + 1) complex values, row-major.
 */
import {
  columnsKernel,
  fftParts,
  identityParts,
  rowsForwardKernel,
  rowsInverseKernel,
  type PlanParts,
} from './fft-kernel.js';
import { sumsKernel } from '../kernels/pixels.js';

/** The plan of a power-of-two length m. */
function pow2Parts(m: number): PlanParts {
  const none = new Float64Array(0);
  return { kind: 1, n: m, ...fftParts(m), wn: none, B: none, wk: none, count: m, shift: 0 };
}

/**
 * The transform of `b` (m interleaved complex values, m a power of two), unscaled: the chirp
 * convolutions' fixed factor B.
 */
export function chirpTransform(b: Float64Array, m: number): Float64Array {
  return columnsKernel(b, 1, m, 1, 'forward', dft(m)); // m a power of two: its cached plan
}

/**
 * The chirp's angle π·(j² mod 2n)/n, with j² reduced mod 2n in integers so that the angle stays
 * exact: in doubles while |j| < 2^26 (j² < 2^52, every step an exact integer), else in BigInt (the
 * same integer).
 */
export function chirpAngle(j: number, n: number): number {
  const r =
    Math.abs(j) < 67108864 ? (j * j) % (2 * n) : Number((BigInt(j) * BigInt(j)) % BigInt(2 * n));
  return (Math.PI * r) / n;
}

function bluesteinParts(n: number): PlanParts {
  let m = 1;
  while (m < 2 * n - 1) m <<= 1;
  // w[k] = exp(−iπk²/n)
  const w = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const angle = chirpAngle(k, n);
    w[2 * k] = Math.cos(angle);
    w[2 * k + 1] = -Math.sin(angle);
  }
  // B = FFT(b), b[k] = conj(w[k]) for |k| < n (wrapped), zero elsewhere.
  const b = new Float64Array(2 * m);
  for (let k = 0; k < n; k++) {
    b[2 * k] = w[2 * k]!;
    b[2 * k + 1] = -w[2 * k + 1]!;
    if (k > 0) {
      b[2 * (m - k)] = w[2 * k]!;
      b[2 * (m - k) + 1] = -w[2 * k + 1]!;
    }
  }
  const B = chirpTransform(b, m);
  return { kind: 2, n, ...fftParts(m), wn: w, B, wk: w, count: n, shift: 0 };
}

const plans = new Map<number, PlanParts>();

/** The plan of the DFT of length n (cached). */
export function dft(n: number): PlanParts {
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`DFT length must be a positive integer, got ${n}`);
  let plan = plans.get(n);
  if (!plan) {
    plan = n === 1 ? identityParts : (n & (n - 1)) === 0 ? pow2Parts(n) : bluesteinParts(n);
    plans.set(n, plan);
  }
  return plan;
}

/** Half spectrum of a real image: `height` rows × `cols = floor(width/2) + 1` complex values. */
export interface Spectrum {
  width: number;
  height: number;
  cols: number;
  data: Float64Array;
}

/** How many times column kx of a half spectrum stands in the full spectrum (1 or 2). */
export function columnWeight(kx: number, width: number): number {
  return kx === 0 || (width % 2 === 0 && kx === width / 2) ? 1 : 2;
}

/**
 * Forward 2-D DFT of a real image given as values per pixel (row-major). With `keepCols`, only
 * the columns kx < keepCols are transformed and kept (enough for low-frequency sums).
 */
export function fft2Real(
  values: ArrayLike<number>,
  width: number,
  height: number,
  keepCols?: number,
): Spectrum {
  const spec = rowsReal(values, width, height, keepCols);
  columnPass(spec.data, spec.cols, height, 'forward');
  return spec;
}

// Row passes live in two scratch arrays of this thread, reused from image to image: fresh memory
// of this size (megabytes) costs more to map than the row pass takes to fill. `shared` holds the
// row pass of one image that more than one computation transforms (A2: its low-frequency energy,
// then A5's Gaussian low-pass), kept with its pixel buffer until the next shared row pass;
// `transient` holds one that its caller uses at once (`transientRows`). Every value of a scratch
// is written before it is read.
let shared: { values: Uint8Array; spec: Spectrum; data: Float64Array } | undefined;
let transient = new Float64Array(0);

/**
 * The row pass of an image already kept by `sharedRows` with at least `cols` columns (or all of
 * them), else undefined. It may hold more columns than asked for and must not be modified; it
 * stays valid until the next `sharedRows` of another image on this thread.
 */
export function keptRows(
  values: Uint8Array,
  width: number,
  height: number,
  cols: number,
): Spectrum | undefined {
  const hit = shared?.values === values ? shared.spec : undefined;
  return hit &&
    hit.width === width &&
    hit.height === height &&
    hit.cols >= Math.min(cols, Math.floor(width / 2) + 1)
    ? hit
    : undefined;
}

/**
 * `rowsReal` of an image whose row pass is shared: computed once (with `cols` columns, or the
 * widest asked for so far) and kept with its pixel buffer (`keptRows`). The result may hold more
 * columns than asked for and must not be modified; each value is the one `rowsReal` computes,
 * whatever the number of columns.
 */
export function sharedRows(
  values: Uint8Array,
  width: number,
  height: number,
  cols: number,
): Spectrum {
  const hit = keptRows(values, width, height, cols);
  if (hit) return hit;
  const n = height * Math.min(Math.floor(width / 2) + 1, cols) * 2;
  const data = shared && shared.data.length >= n ? shared.data : new Float64Array(n);
  shared = undefined; // while it is overwritten
  const spec = rowsReal(values, width, height, cols, data);
  shared = { values, spec, data };
  return spec;
}

/**
 * `rowsReal(values, width, height, cols)` in this thread's transient scratch: valid until the
 * next `transientRows` or `transientScratch` on this thread, so for a caller that uses it at once.
 */
export function transientRows(
  values: ArrayLike<number>,
  width: number,
  height: number,
  cols: number,
): Spectrum {
  return rowsReal(values, width, height, cols, transientScratch(height * cols * 2));
}

/** This thread's transient scratch with room for `n` values (see `transientRows`). */
export function transientScratch(n: number): Float64Array {
  if (transient.length < n) transient = new Float64Array(n);
  return transient;
}

/** The first `cols` columns of a half spectrum, as a new spectrum (a copy). */
function firstColumns(spec: Spectrum, cols: number): Spectrum {
  // One object shape for both (a spread makes another, which deoptimises its readers).
  if (cols >= spec.cols)
    return { width: spec.width, height: spec.height, cols: spec.cols, data: spec.data.slice() };
  const data = new Float64Array(spec.height * cols * 2);
  for (let y = 0; y < spec.height; y++)
    data.set(spec.data.subarray(y * spec.cols * 2, y * spec.cols * 2 + cols * 2), y * cols * 2);
  return { width: spec.width, height: spec.height, cols, data };
}

/** `fft2Real(values, width, height, keepCols)` from an already computed row pass with at least `keepCols` columns. */
export function fft2FromRows(rows: Spectrum, keepCols: number): Spectrum {
  const spec = firstColumns(rows, Math.min(keepCols, Math.floor(rows.width / 2) + 1));
  columnPass(spec.data, spec.cols, spec.height, 'forward');
  return spec;
}

/**
 * The row pass of `fft2Real` only: each row's DFT (non-negative frequencies, the first `keepCols`
 * of them), rows kept in the spatial domain; with `into`, written at its start (the result's data
 * is a view of it).
 */
export function rowsReal(
  values: ArrayLike<number>,
  width: number,
  height: number,
  keepCols?: number,
  into?: Float64Array,
): Spectrum {
  const cols = Math.min(Math.floor(width / 2) + 1, keepCols ?? Infinity);
  const data = rowsForwardKernel(values, width, height, cols, dft(width), false, into);
  return { width, height, cols, data };
}

function columnPass(
  data: Float64Array,
  cols: number,
  height: number,
  direction: 'forward' | 'inverse',
): void {
  columnsKernel(data, cols, height, cols, direction, dft(height));
}

/**
 * Real part of the inverse 2-D DFT of a Hermitian half spectrum (consumes `spec.data`). A spectrum
 * with fewer than floor(width/2) + 1 columns (from `fft2Real(…, keepCols)`) stands for one whose
 * higher columns are zero.
 */
export function ifft2Real(spec: Spectrum): Float64Array {
  columnPass(spec.data, spec.cols, spec.height, 'inverse');
  return rowsInverseReal(spec);
}

/** The row pass of `ifft2Real` only: rows of a half spectrum (columns already spatial) back to real values. */
function rowsInverseReal(spec: Spectrum): Float64Array {
  return rowsInverseKernel(spec, dft(spec.width));
}

/** numpy's `fftfreq(n)[k]`: `k·(1/n)` for k ≤ (n − 1)/2, else `(k − n)·(1/n)`. */
export function fftfreq(k: number, n: number): number {
  const val = 1.0 / n;
  return (k <= Math.floor((n - 1) / 2) ? k : k - n) * val;
}

/** Radial frequency ρ (cycles per pixel) of half-spectrum bin (ky, kx), as numpy computes it. */
export function radialFrequency(ky: number, kx: number, width: number, height: number): number {
  const fx = fftfreq(kx, width);
  const fy = fftfreq(ky, height);
  return Math.sqrt(fx * fx + fy * fy);
}

/** Σv and Σv² over the first `n` values (in index order, so every caller gets the same bits): the spatial side of Parseval's energy. */
function sumAndSquares(values: ArrayLike<number>, n: number): { sum: number; squares: number } {
  // Bytes: the pixels kernel's exact integer sums, the same values (every partial sum here is an
  // integer below 2^53, so exact too).
  const exact = values instanceof Uint8Array ? sumsKernel(values.subarray(0, n)) : null;
  if (exact) return { sum: exact.sum, squares: Number(exact.squares) };
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    sum += v;
    squares += v * v;
  }
  return { sum, squares };
}

/**
 * Σ|F|² and Σ|F|² without the DC term by Parseval's theorem (Σ|F|² = N·Σx², F₀ = Σx), which
 * holds for the whole spectrum; the AC part `N·Σx² − (Σx)²` exactly, in integers (Σx and Σx² of
 * 8-bit values are exact).
 */
export function planeEnergy(values: ArrayLike<number>, n: number): { total: number; ac: number } {
  const { sum, squares } = sumAndSquares(values, n);
  const ac = BigInt(n) * BigInt(squares) - BigInt(sum) * BigInt(sum);
  return { total: n * squares, ac: Number(ac) };
}
