/**
 * SSIM with scikit-image 0.19's `structural_similarity` conventions: 7 × 7 uniform window, K1 0.01,
 * K2 0.03, data range 255, sample covariance (× 49/48), scipy `reflect` borders (edge sample
 * repeated: d c b a | a b c d), mean over the interior with a 3-pixel border cropped.
 */
import type { Image8 } from './types.js';

const WIN = 7;
const R = 3;

/** scipy's `reflect` index for i in [−R, n + R). */
function reflect(i: number, n: number): number {
  let j = i;
  for (;;) {
    if (j < 0) j = -j - 1;
    else if (j >= n) j = 2 * n - j - 1;
    else return j;
  }
}

/**
 * 7 × 7 uniform filter (reflect borders) of integer-valued samples: the window sums are exact
 * integers (running sums along rows, then columns), divided by 49 once.
 */
function uniform(values: Float64Array, width: number, height: number): Float64Array {
  const tmp = new Float64Array(width * height);
  const out = new Float64Array(width * height);
  const xs = new Int32Array(width + 2 * R);
  for (let i = -R; i < width + R; i++) xs[i + R] = reflect(i, width);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let s = 0;
    for (let k = 0; k < WIN; k++) s += values[row + xs[k]!]!;
    tmp[row] = s;
    for (let x = 1; x < width; x++) {
      s += values[row + xs[x + WIN - 1]!]! - values[row + xs[x - 1]!]!;
      tmp[row + x] = s;
    }
  }
  const ys = new Int32Array(height + 2 * R);
  for (let i = -R; i < height + R; i++) ys[i + R] = reflect(i, height);
  const acc = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    let s = 0;
    for (let k = 0; k < WIN; k++) s += tmp[ys[k]! * width + x]!;
    acc[x] = s;
  }
  for (let y = 0; y < height; y++) {
    const add = y + WIN - 1 < height + 2 * R ? ys[y + WIN - 1]! : 0;
    const sub = y > 0 ? ys[y - 1]! : 0;
    for (let x = 0; x < width; x++) {
      if (y > 0) acc[x] = acc[x]! + tmp[add * width + x]! - tmp[sub * width + x]!;
      out[y * width + x] = acc[x]! / (WIN * WIN);
    }
  }
  return out;
}

/** A2's window statistics, computed once per entry and reused for every variant's SSIM. */
export interface SsimReference {
  image: Image8;
  mean: Float64Array;
  meanSq: Float64Array;
}

/** Precompute the reference side of SSIM. */
export function ssimReference(image: Image8): SsimReference {
  const n = image.width * image.height;
  const x = new Float64Array(n);
  const xx = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = image.data[i]!;
    x[i] = u;
    xx[i] = u * u;
  }
  return { image, mean: uniform(x, image.width, image.height), meanSq: uniform(xx, image.width, image.height) };
}

/** Mean SSIM of two grey images of the same size; null when a side is below 7 pixels (skimage refuses). */
export function ssim(a: Image8 | SsimReference, b: Image8): number | null {
  const ref = 'mean' in a ? a : null;
  const img = ref ? ref.image : (a as Image8);
  if (img.channels !== 1 || b.channels !== 1) throw new Error('ssim compares grey images');
  if (img.width !== b.width || img.height !== b.height) throw new Error(`ssim needs equal sizes (${img.width}×${img.height} vs ${b.width}×${b.height})`);
  const { width, height } = img;
  if (width < WIN || height < WIN) return null;
  const { mean: ux, meanSq: uxx } = ref ?? ssimReference(img);
  const n = width * height;
  const y = new Float64Array(n);
  const yy = new Float64Array(n);
  const xy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = img.data[i]!;
    const v = b.data[i]!;
    y[i] = v;
    yy[i] = v * v;
    xy[i] = u * v;
  }
  const uy = uniform(y, width, height);
  const uyy = uniform(yy, width, height);
  const uxy = uniform(xy, width, height);
  const covNorm = (WIN * WIN) / (WIN * WIN - 1);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  let count = 0;
  for (let r = R; r < height - R; r++) {
    for (let c = R; c < width - R; c++) {
      const i = r * width + c;
      const mx = ux[i]!;
      const my = uy[i]!;
      const vx = covNorm * (uxx[i]! - mx * mx);
      const vy = covNorm * (uyy[i]! - my * my);
      const vxy = covNorm * (uxy[i]! - mx * my);
      sum += ((2 * mx * my + C1) * (2 * vxy + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2));
      count++;
    }
  }
  return sum / count;
}
