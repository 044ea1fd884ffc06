/**
 * Exact-size discrete Fourier transforms for the low-pass variant and the spectral metrics.
 * fft.js does power-of-two lengths; any other length uses Bluestein's algorithm on top of it
 * (a chirp convolution of power-of-two length ≥ 2n − 1), so the DFT is of the image's own size,
 * never padded. Complex arrays are interleaved (re, im).
 *
 * The 2-D transform of a real image keeps the non-negative column frequencies only (Hermitian
 * symmetry): `Spectrum.data` is height × (floor(width/2) + 1) complex values, row-major.
 *
 * The row and column passes run in a WebAssembly kernel (fft-kernel.ts) when it is built, with
 * the same bits; the TypeScript loops (`rowsRealJs`, `rowsInverseRealJs`, `columnPassJs`) are its
 * reference and the fallback.
 */
import FFT from 'fft.js';
import {
  columnsKernel,
  fftParts,
  identityParts,
  rowsForwardKernel,
  rowsInverseKernel,
  type PlanParts,
} from './fft-kernel.js';

/** A 1-D DFT of one length: forward (no scaling) and inverse (scaled by 1/n), out-of-place. */
export interface Dft {
  n: number;
  forward(out: Float64Array, input: Float64Array): void;
  inverse(out: Float64Array, input: Float64Array): void;
  /** The plan's tables, for the WebAssembly kernel (fft-kernel.ts). */
  parts: PlanParts;
}

function pow2Dft(n: number): Dft {
  const f = new FFT(n);
  return {
    n,
    forward: (out, input) => f.transform(out, input),
    inverse: (out, input) => f.inverseTransform(out, input),
    parts: {
      kind: 1,
      n,
      ...fftParts(f),
      wn: new Float64Array(0),
      B: new Float64Array(0),
      wk: new Float64Array(0),
      count: n,
      shift: 0,
    },
  };
}

function bluesteinDft(n: number): Dft {
  let m = 1;
  while (m < 2 * n - 1) m <<= 1;
  const f = new FFT(m);
  // w[k] = exp(−iπk²/n); k² is reduced mod 2n in integers so the angle stays exact.
  const w = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const angle = (Math.PI * Number((BigInt(k) * BigInt(k)) % BigInt(2 * n))) / n;
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
  const B = new Float64Array(2 * m);
  f.transform(B, b);
  const a = new Float64Array(2 * m);
  const A = new Float64Array(2 * m);
  const forward = (out: Float64Array, input: Float64Array, sign: 1 | -1): void => {
    a.fill(0);
    for (let k = 0; k < n; k++) {
      const xr = input[2 * k]!;
      const xi = sign * input[2 * k + 1]!; // conjugate input for the inverse
      const wr = w[2 * k]!;
      const wi = w[2 * k + 1]!;
      a[2 * k] = xr * wr - xi * wi;
      a[2 * k + 1] = xr * wi + xi * wr;
    }
    f.transform(A, a);
    multiplyInPlace(A, B, m);
    f.inverseTransform(a, A);
    for (let k = 0; k < n; k++) {
      const cr = a[2 * k]!;
      const ci = a[2 * k + 1]!;
      const wr = w[2 * k]!;
      const wi = w[2 * k + 1]!;
      out[2 * k] = cr * wr - ci * wi;
      out[2 * k + 1] = sign * (cr * wi + ci * wr);
    }
  };
  return {
    n,
    forward: (out, input) => forward(out, input, 1),
    // ifft(X) = conj(fft(conj(X)))/n
    inverse: (out, input) => {
      forward(out, input, -1);
      for (let k = 0; k < 2 * n; k++) out[k] = out[k]! / n;
    },
    parts: { kind: 2, n, ...fftParts(f), wn: w, B, wk: w, count: n, shift: 0 },
  };
}

const identity: Dft = {
  n: 1,
  forward: (out, input) => out.set(input.subarray(0, 2)),
  inverse: (out, input) => out.set(input.subarray(0, 2)),
  parts: identityParts,
};

const plans = new Map<number, Dft>();

/** The DFT of length n (cached; plans hold scratch buffers, so use them synchronously). */
export function dft(n: number): Dft {
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`DFT length must be a positive integer, got ${n}`);
  let plan = plans.get(n);
  if (!plan) {
    plan = n === 1 ? identity : (n & (n - 1)) === 0 ? pow2Dft(n) : bluesteinDft(n);
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

// Row passes kept for an image that more than one computation transforms (A2: its low-frequency
// energy, then A5's Gaussian low-pass), keyed by its pixel buffer; they go when the buffer does.
const sharedRowPasses = new WeakMap<object, Spectrum>();

/**
 * `rowsReal` of an image whose row pass is shared: computed once (with `cols` columns, or the
 * widest asked for so far) and kept with its pixel buffer. The result may hold more columns than
 * asked for and must not be modified; each value is the one `rowsReal` computes, whatever the
 * number of columns.
 */
export function sharedRows(
  values: Uint8Array,
  width: number,
  height: number,
  cols: number,
): Spectrum {
  const hit = sharedRowPasses.get(values);
  if (
    hit &&
    hit.width === width &&
    hit.height === height &&
    hit.cols >= Math.min(cols, Math.floor(width / 2) + 1)
  )
    return hit;
  const spec = rowsReal(values, width, height, cols);
  sharedRowPasses.set(values, spec);
  return spec;
}

/** The first `cols` columns of a half spectrum, as a new spectrum (a copy). */
export function firstColumns(spec: Spectrum, cols: number): Spectrum {
  if (cols >= spec.cols) return { ...spec, data: spec.data.slice() };
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
 * of them), rows kept in the spatial domain.
 */
export function rowsReal(
  values: ArrayLike<number>,
  width: number,
  height: number,
  keepCols?: number,
): Spectrum {
  const cols = Math.min(Math.floor(width / 2) + 1, keepCols ?? Infinity);
  const data = rowsForwardKernel(values, width, height, cols, dft(width).parts, false);
  return data ? { width, height, cols, data } : rowsRealJs(values, width, height, cols);
}

/** `rowsReal` in TypeScript (`cols` columns): the reference of the WebAssembly kernel. */
export function rowsRealJs(
  values: ArrayLike<number>,
  width: number,
  height: number,
  cols: number,
): Spectrum {
  const data = new Float64Array(height * cols * 2);
  const row = dft(width);
  const z = new Float64Array(2 * width);
  const Z = new Float64Array(2 * width);
  // Two real rows per complex transform: z = x + i·y.
  for (let y = 0; y < height; y += 2) {
    const pair = y + 1 < height;
    for (let x = 0; x < width; x++) {
      z[2 * x] = values[y * width + x]!;
      z[2 * x + 1] = pair ? values[(y + 1) * width + x]! : 0;
    }
    row.forward(Z, z);
    for (let k = 0; k < cols; k++) {
      const j = (width - k) % width;
      const zr = Z[2 * k]!;
      const zi = Z[2 * k + 1]!;
      const cr = Z[2 * j]!;
      const ci = -Z[2 * j + 1]!; // conj(Z[−k])
      const o = (y * cols + k) * 2;
      data[o] = (zr + cr) / 2; // X = (Z[k] + conj Z[−k]) / 2
      data[o + 1] = (zi + ci) / 2;
      if (pair) {
        const p = ((y + 1) * cols + k) * 2;
        data[p] = (zi - ci) / 2; // Y = (Z[k] − conj Z[−k]) / 2i
        data[p + 1] = -(zr - cr) / 2;
      }
    }
  }
  return { width, height, cols, data };
}

function columnPass(
  data: Float64Array,
  cols: number,
  height: number,
  direction: 'forward' | 'inverse',
): void {
  if (!columnsKernel(data, cols, height, cols, direction, dft(height).parts))
    columnPassJs(data, cols, height, direction);
}

/** The column DFTs of a half spectrum (in place) in TypeScript: the reference of the WebAssembly kernel. */
function columnPassJs(
  data: Float64Array,
  cols: number,
  height: number,
  direction: 'forward' | 'inverse',
): void {
  const col = dft(height);
  const c = new Float64Array(2 * height);
  const C = new Float64Array(2 * height);
  for (let k = 0; k < cols; k++) {
    for (let y = 0; y < height; y++) {
      c[2 * y] = data[(y * cols + k) * 2]!;
      c[2 * y + 1] = data[(y * cols + k) * 2 + 1]!;
    }
    if (direction === 'forward') col.forward(C, c);
    else col.inverse(C, c);
    for (let y = 0; y < height; y++) {
      data[(y * cols + k) * 2] = C[2 * y]!;
      data[(y * cols + k) * 2 + 1] = C[2 * y + 1]!;
    }
  }
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
export function rowsInverseReal(spec: Spectrum): Float64Array {
  return rowsInverseKernel(spec, dft(spec.width).parts) ?? rowsInverseRealJs(spec);
}

/** `rowsInverseReal` in TypeScript: the reference of the WebAssembly kernel. */
export function rowsInverseRealJs(spec: Spectrum): Float64Array {
  const { width, height, cols, data } = spec;
  const half = Math.floor(width / 2) + 1;
  const out = new Float64Array(width * height);
  const row = dft(width);
  const Z = new Float64Array(2 * width);
  const z = new Float64Array(2 * width);
  for (let y = 0; y < height; y += 2) {
    const pair = y + 1 < height;
    // Z = G_y + i·G_{y+1}, each row completed by G[−k] = conj(G[k]).
    for (let k = 0; k < width; k++) {
      const mirrored = k >= half;
      const kk = mirrored ? width - k : k;
      if (kk >= cols) {
        Z[2 * k] = 0;
        Z[2 * k + 1] = 0;
        continue;
      }
      const s = mirrored ? -1 : 1;
      const o = (y * cols + kk) * 2;
      const gr = data[o]!;
      const gi = s * data[o + 1]!;
      let hr = 0;
      let hi = 0;
      if (pair) {
        const p = ((y + 1) * cols + kk) * 2;
        hr = data[p]!;
        hi = s * data[p + 1]!;
      }
      Z[2 * k] = gr - hi;
      Z[2 * k + 1] = gi + hr;
    }
    row.inverse(z, Z);
    for (let x = 0; x < width; x++) {
      out[y * width + x] = z[2 * x]!;
      if (pair) out[(y + 1) * width + x] = z[2 * x + 1]!;
    }
  }
  return out;
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
export function sumAndSquares(
  values: ArrayLike<number>,
  n: number,
): { sum: number; squares: number } {
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    sum += v;
    squares += v * v;
  }
  return { sum, squares };
}

/** A ← A·B, elementwise over `m` interleaved complex values (the chirp convolution's product in the frequency domain). */
export function multiplyInPlace(A: Float64Array, B: Float64Array, m: number): void {
  for (let k = 0; k < m; k++) {
    const ar = A[2 * k]!;
    const ai = A[2 * k + 1]!;
    const br = B[2 * k]!;
    const bi = B[2 * k + 1]!;
    A[2 * k] = ar * br - ai * bi;
    A[2 * k + 1] = ar * bi + ai * br;
  }
}
