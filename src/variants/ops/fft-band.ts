/**
 * DFTs of a real image inside a small band of low frequencies only, for the low-frequency energy
 * metric (metrics.ts: the disc ρ ≤ c, c = 0.05 by default, about 5 % of the columns and 10 % of
 * the rows of the spectrum).
 *
 * A length that is not a power of two takes Bluestein's algorithm in fft.ts: a chirp convolution
 * of power-of-two length M ≥ 2n − 1, for all n outputs. The chirp-z transform computes only the
 * `count` outputs k0 … k0 + count − 1 by the same convolution, which then needs M ≥ n + count − 1
 * only: for n = 614 and the 63 frequencies −31 … 31, 1024 instead of 2048, half the work. Powers of
 * two keep fft.ts's plain FFT. Same values as the full transforms up to rounding (~1e-13
 * relative); test/variants/ops/fft-band.test.ts compares. `rowsBand` and `bandEnergy`'s column
 * transforms run in the FFT kernel (fft-kernel.ts).
 */
import {
  chirpAngle,
  chirpTransform,
  columnWeight,
  fft2FromRows,
  fftfreq,
  transientRows,
  transientScratch,
  type Spectrum,
} from './fft.js';
import { columnsKernel, fftParts, rowsForwardKernel, type PlanParts } from './fft-kernel.js';
import { keptPerKey } from './kept.js';

function pow2AtLeast(n: number): number {
  let m = 1;
  while (m < n) m <<= 1;
  return m;
}

/** Whether the chirp-z transform of `count` outputs beats the full transform of length n. */
function bandPays(n: number, count: number): boolean {
  return (n & (n - 1)) !== 0 && pow2AtLeast(n + count - 1) < pow2AtLeast(2 * n - 1);
}

// A corpus of many sizes would keep a plan (a few hundred KiB at most) per size: a small bound.
const plans = new Map<string, PlanParts>();
const MAX_PLANS = 32;

/** w[j] = exp(−iπj²/n) for j = from … from + count − 1, interleaved (re, im); `sign` −1 conjugates. */
function chirps(n: number, from: number, count: number, sign: 1 | -1): Float64Array {
  const w = new Float64Array(2 * count);
  for (let t = 0; t < count; t++) {
    const angle = chirpAngle(from + t, n);
    w[2 * t] = Math.cos(angle);
    w[2 * t + 1] = sign * -Math.sin(angle);
  }
  return w;
}

/**
 * The chirp-z plan of the DFT outputs k0 … k0 + count − 1 (k taken mod n) of a complex sequence
 * of length n (cached).
 */
export function bandDft(n: number, k0: number, count: number): PlanParts {
  const key = `${n},${k0},${count}`;
  const hit = plans.get(key);
  if (hit) return hit;
  const m = pow2AtLeast(n + count - 1);
  // w[j] = exp(−iπj²/n) (chirpAngle: j² reduced mod 2n in integers, the angle exact);
  // nk = (n² + k² − (k − n)²)/2 gives X[k] = w[k]·Σ_n (x[n]·w[n])·conj(w[k − n]).
  const wn = chirps(n, 0, n, 1);
  const wk = chirps(n, k0, count, 1);
  // b[u] = conj(w[u + k0 − (n − 1)]) for u < n + count − 1: output t is the convolution at t + n − 1.
  const b = new Float64Array(2 * m);
  b.set(chirps(n, k0 - (n - 1), n + count - 1, -1));
  const plan: PlanParts = {
    kind: 2,
    n,
    ...fftParts(m),
    wn,
    B: chirpTransform(b, m),
    wk,
    count,
    shift: n - 1,
  };
  if (plans.size >= MAX_PLANS) plans.clear();
  plans.set(key, plan);
  return plan;
}

/**
 * `rowsReal(values, width, height, keep)`: each row's DFT at the first `keep` column frequencies;
 * by the chirp-z transform of the frequencies −(keep − 1) … keep − 1 when it pays (`bandPays`).
 * In this thread's transient scratch (fft.ts `transientRows`): use it before the next row pass.
 */
export function rowsBand(
  values: ArrayLike<number>,
  width: number,
  height: number,
  keep: number,
): Spectrum {
  const K = Math.min(Math.floor(width / 2) + 1, keep);
  if (!bandPays(width, 2 * K - 1)) return transientRows(values, width, height, K);
  const plan = bandDft(width, -(K - 1), 2 * K - 1);
  const into = transientScratch(height * K * 2);
  const data = rowsForwardKernel(values, width, height, K, plan, true, into);
  return { width, height, cols: K, data };
}

/**
 * Σ|F|² of the 2-D spectrum over the half-spectrum bins (ky, kx < cols ≤ rows.cols) of the disc
 * ρ ≤ cutoff without the DC term (metrics.ts: the low-frequency energy), each counted as often as
 * it stands in the full spectrum (columnWeight); ρ as `radialFrequency` computes it. `ky` of the
 * disc's bins must lie within −below … above (mod height). `rows` is a row pass (rowsReal,
 * sharedRows or rowsBand) and is not modified. The frequencies are computed once per row and per
 * column (the same values), not per bin.
 */
export function bandEnergy(
  rows: Spectrum,
  cols: number,
  below: number,
  above: number,
  cutoff: number,
): number {
  const { width, height } = rows;
  const count = below + above + 1;
  const fx = Float64Array.from({ length: cols }, (_, kx) => fftfreq(kx, width));
  return count >= height || !bandPays(height, count)
    ? fullBandSum(fft2FromRows(rows, cols), fx, cutoff) // a copy: rows stay as they are
    : chirpBandSum(rows, cols, below, count, fx, cutoff);
}

/** Whether half-spectrum bin (ky, kx) lies in the disc ρ ≤ cutoff and is not the DC term. */
function inDisc(ky: number, kx: number, fx: number, fy: number, cutoff: number): boolean {
  return (ky !== 0 || kx !== 0) && Math.sqrt(fx * fx + fy * fy) <= cutoff;
}

/** `bandEnergy` from the whole 2-D half spectrum (every row frequency). */
function fullBandSum(spec: Spectrum, fx: Float64Array, cutoff: number): number {
  const { width, height } = spec;
  let sum = 0;
  for (let ky = 0; ky < height; ky++) {
    const fy = fftfreq(ky, height);
    for (let kx = 0; kx < spec.cols; kx++) {
      if (!inDisc(ky, kx, fx[kx]!, fy, cutoff)) continue;
      const i = ky * spec.cols + kx;
      sum += (spec.data[2 * i]! ** 2 + spec.data[2 * i + 1]! ** 2) * columnWeight(kx, width);
    }
  }
  return sum;
}

/** `bandEnergy` from the chirp-z transforms of the columns at the `count` row frequencies −below …. */
function chirpBandSum(
  rows: Spectrum,
  cols: number,
  below: number,
  count: number,
  fx: Float64Array,
  cutoff: number,
): number {
  const { width, height } = rows;
  const plan = bandDft(height, -below, count);
  const fy = Float64Array.from({ length: count }, (_, t) =>
    fftfreq(t < below ? t - below + height : t - below, height),
  );
  // The column transforms of all columns at once; the sum in column order.
  const all = columnsKernel(rows.data, rows.cols, height, cols, 'band', plan);
  let sum = 0;
  for (let kx = 0; kx < cols; kx++) {
    const C = all.subarray(kx * count * 2, (kx + 1) * count * 2);
    for (let t = 0; t < count; t++) {
      const ky = t < below ? t - below + height : t - below;
      if (!inDisc(ky, kx, fx[kx]!, fy[t]!, cutoff)) continue;
      sum += (C[2 * t]! ** 2 + C[2 * t + 1]! ** 2) * columnWeight(kx, width);
    }
  }
  return sum;
}

const bands = keptPerKey<{ below: number; above: number }>(MAX_PLANS);

/** The band of row frequencies |fy| ≤ cutoff of length n: how many below 0 and above 0 (mod n). */
export function axisBand(n: number, cutoff: number): { below: number; above: number } {
  return bands(`${n},${cutoff}`, () => axisBandOf(n, cutoff));
}

function axisBandOf(n: number, cutoff: number): { below: number; above: number } {
  let above = 0;
  let below = 0;
  for (let k = 1; k < n; k++) {
    if (Math.abs(fftfreq(k, n)) > cutoff) continue;
    if (k <= Math.floor((n - 1) / 2)) above = Math.max(above, k);
    else below = Math.max(below, n - k);
  }
  return { below, above };
}
