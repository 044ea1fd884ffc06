/**
 * SSIM with scikit-image 0.19's `structural_similarity` conventions: 7 × 7 uniform window, K1 0.01,
 * K2 0.03, data range 255, sample covariance (× 49/48), scipy `reflect` borders (edge sample
 * repeated: d c b a | a b c d), mean over the interior with a 3-pixel border cropped.
 *
 * The window sums of 8-bit values, their squares and products are integers, computed exactly with
 * running sums (rows, then columns) and divided by 49 once; scipy's running mean differs from
 * them by rounding only (~1e-13).
 */
import type { Image8 } from '../types.js';

const WIN = 7;
const R = 3;
const AREA = WIN * WIN;

/** scipy's `reflect` index table for i in [−R, n + R). */
function reflectTable(n: number): Int32Array {
  const t = new Int32Array(n + 2 * R);
  for (let i = -R; i < n + R; i++) {
    let j = i;
    for (;;) {
      if (j < 0) j = -j - 1;
      else if (j >= n) j = 2 * n - j - 1;
      else break;
    }
    t[i + R] = j;
  }
  return t;
}

/**
 * Horizontal 7-wide window sums, for every pixel, of `v`, `v²` and (when `u` is given) `u·v`
 * (exact: integers).
 */
function rowSums(width: number, height: number, xs: Int32Array, v: Uint8Array, u?: Uint8Array): Float64Array[] {
  const s1 = new Float64Array(width * height);
  const s2 = new Float64Array(width * height);
  const s3 = u ? new Float64Array(width * height) : s1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let a = 0;
    let b = 0;
    let c = 0;
    for (let k = 0; k < WIN; k++) {
      const j = row + xs[k]!;
      const p = v[j]!;
      a += p;
      b += p * p;
      if (u) c += u[j]! * p;
    }
    s1[row] = a;
    s2[row] = b;
    if (u) s3[row] = c;
    for (let x = 1; x < width; x++) {
      const jin = row + xs[x + WIN - 1]!;
      const jout = row + xs[x - 1]!;
      const pin = v[jin]!;
      const pout = v[jout]!;
      a += pin - pout;
      b += pin * pin - pout * pout;
      s1[row + x] = a;
      s2[row + x] = b;
      if (u) {
        c += u[jin]! * pin - u[jout]! * pout;
        s3[row + x] = c;
      }
    }
  }
  return u ? [s1, s2, s3] : [s1, s2];
}

/** Vertical 7-tall window sums of row sums, calling `visit(y, acc)` with each row's full-window sums. */
function columnSums(rows: Float64Array[], width: number, height: number, ys: Int32Array, visit: (y: number, acc: Float64Array[]) => void): void {
  const acc = rows.map(() => new Float64Array(width));
  for (let q = 0; q < rows.length; q++) {
    const a = acc[q]!;
    const r = rows[q]!;
    for (let k = 0; k < WIN; k++) {
      const o = ys[k]! * width;
      for (let x = 0; x < width; x++) a[x] = a[x]! + r[o + x]!;
    }
  }
  for (let y = 0; y < height; y++) {
    if (y > 0) {
      const add = ys[y + WIN - 1]! * width;
      const sub = ys[y - 1]! * width;
      for (let q = 0; q < rows.length; q++) {
        const a = acc[q]!;
        const r = rows[q]!;
        for (let x = 0; x < width; x++) a[x] = a[x]! + r[add + x]! - r[sub + x]!;
      }
    }
    visit(y, acc);
  }
}

/** A2's window statistics, computed once per entry and reused for every variant's SSIM. */
export interface SsimReference {
  image: Image8;
  /** Window means of x and x². */
  mean: Float64Array;
  meanSq: Float64Array;
}

/** Precompute the reference side of SSIM. */
export function ssimReference(image: Image8): SsimReference {
  const { width, height, data } = image;
  const mean = new Float64Array(width * height);
  const meanSq = new Float64Array(width * height);
  if (width >= WIN && height >= WIN) {
    const xs = reflectTable(width);
    columnSums(rowSums(width, height, xs, data), width, height, reflectTable(height), (y, [a, b]) => {
      for (let x = 0; x < width; x++) {
        mean[y * width + x] = a![x]! / AREA;
        meanSq[y * width + x] = b![x]! / AREA;
      }
    });
  }
  return { image, mean, meanSq };
}

/** Mean SSIM of two grey images of the same size; null when a side is below 7 pixels (skimage refuses). */
export function ssim(a: Image8 | SsimReference, b: Image8): number | null {
  const ref = 'mean' in a ? a : ssimReference(a);
  const img = ref.image;
  if (img.channels !== 1 || b.channels !== 1) throw new Error('ssim compares grey images');
  if (img.width !== b.width || img.height !== b.height) throw new Error(`ssim needs equal sizes (${img.width}×${img.height} vs ${b.width}×${b.height})`);
  const { width, height } = img;
  if (width < WIN || height < WIN) return null;
  const xd = img.data;
  const yd = b.data;
  const xs = reflectTable(width);
  const sums = rowSums(width, height, xs, yd, xd);
  const covNorm = AREA / (AREA - 1);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  const ux = ref.mean;
  const uxx = ref.meanSq;
  let sum = 0;
  columnSums(sums, width, height, reflectTable(height), (y, [sy, syy, sxy]) => {
    if (y < R || y >= height - R) return;
    for (let x = R; x < width - R; x++) {
      const i = y * width + x;
      const mx = ux[i]!;
      const my = sy![x]! / AREA;
      const vx = covNorm * (uxx[i]! - mx * mx);
      const vy = covNorm * (syy![x]! / AREA - my * my);
      const vxy = covNorm * (sxy![x]! / AREA - mx * my);
      sum += ((2 * mx * my + C1) * (2 * vxy + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2));
    }
  });
  return sum / ((width - 2 * R) * (height - 2 * R));
}
