/**
 * SSIM with scikit-image 0.19's `structural_similarity` conventions: 7 × 7 uniform window, K1 0.01,
 * K2 0.03, data range 255, sample covariance (× 49/48), scipy `reflect` borders (edge sample
 * repeated: d c b a | a b c d), mean over the interior with a 3-pixel border cropped.
 *
 * The window sums of 8-bit values, their squares and products are integers, computed exactly with
 * running sums (rows, then columns; Int32 suffices: 49 · 255² < 2^22), and each window's SSIM is
 * one division of products of integers; scipy's float means differ from them by rounding only
 * (~1e-13).
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

const SLOTS = 8; // rows of horizontal sums kept (a window spans 7)

/**
 * Streams the 7 × 7 window sums of x, y, x², y² and x·y (exact integers, Int32) over the image,
 * calling `visit(y, sx, sy, sxx, syy, sxy)` for every row y with one value per column. Horizontal
 * sums of each source row are computed once into a ring of 8 rows; column sums are running
 * sums over the window's rows, so memory is O(width) and nothing per pixel is allocated.
 */
function windowSums(
  width: number,
  height: number,
  xd: Uint8Array,
  yd: Uint8Array,
  visit: (y: number, sx: Int32Array, sy: Int32Array, sxx: Int32Array, syy: Int32Array, sxy: Int32Array) => void,
): void {
  const xs = reflectTable(width);
  const ys = reflectTable(height);
  const h = [0, 1, 2, 3, 4].map(() => new Int32Array(SLOTS * width));
  const [hx, hy, hxx, hyy, hxy] = h as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  const tag = new Int32Array(SLOTS).fill(-1);
  const rowOf = (r: number): number => {
    const slot = r % SLOTS;
    const o = slot * width;
    if (tag[slot] === r) return o;
    tag[slot] = r;
    const row = r * width;
    let a = 0;
    let b = 0;
    let aa = 0;
    let bb = 0;
    let ab = 0;
    for (let k = 0; k < WIN; k++) {
      const p = xd[row + xs[k]!]!;
      const q = yd[row + xs[k]!]!;
      a += p;
      b += q;
      aa += p * p;
      bb += q * q;
      ab += p * q;
    }
    hx[o] = a;
    hy[o] = b;
    hxx[o] = aa;
    hyy[o] = bb;
    hxy[o] = ab;
    for (let x = 1; x < width; x++) {
      const jin = row + xs[x + WIN - 1]!;
      const jout = row + xs[x - 1]!;
      const pin = xd[jin]!;
      const pout = xd[jout]!;
      const qin = yd[jin]!;
      const qout = yd[jout]!;
      a += pin - pout;
      b += qin - qout;
      aa += pin * pin - pout * pout;
      bb += qin * qin - qout * qout;
      ab += pin * qin - pout * qout;
      hx[o + x] = a;
      hy[o + x] = b;
      hxx[o + x] = aa;
      hyy[o + x] = bb;
      hxy[o + x] = ab;
    }
    return o;
  };
  const acc = [0, 1, 2, 3, 4].map(() => new Int32Array(width));
  const [sx, sy, sxx, syy, sxy] = acc as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  const add = (o: number) => {
    for (let x = 0; x < width; x++) {
      sx[x] = sx[x]! + hx[o + x]!;
      sy[x] = sy[x]! + hy[o + x]!;
      sxx[x] = sxx[x]! + hxx[o + x]!;
      syy[x] = syy[x]! + hyy[o + x]!;
      sxy[x] = sxy[x]! + hxy[o + x]!;
    }
  };
  // Row `oi` enters the window and row `oo` leaves it, in one pass.
  const slide = (oi: number, oo: number) => {
    for (let x = 0; x < width; x++) {
      sx[x] = sx[x]! + hx[oi + x]! - hx[oo + x]!;
      sy[x] = sy[x]! + hy[oi + x]! - hy[oo + x]!;
      sxx[x] = sxx[x]! + hxx[oi + x]! - hxx[oo + x]!;
      syy[x] = syy[x]! + hyy[oi + x]! - hyy[oo + x]!;
      sxy[x] = sxy[x]! + hxy[oi + x]! - hxy[oo + x]!;
    }
  };
  for (let k = 0; k < WIN; k++) add(rowOf(ys[k]!));
  for (let y = 0; y < height; y++) {
    if (y > 0) {
      // Both rows are in the ring at once: they are 7 apart, or mirrored at a border (closer).
      const oi = rowOf(ys[y + WIN - 1]!);
      const oo = rowOf(ys[y - 1]!);
      if (tag[(ys[y + WIN - 1]! % SLOTS)] !== ys[y + WIN - 1]!) throw new Error('ssim: ring slot reused');
      slide(oi, oo);
    }
    visit(y, sx, sy, sxx, syy, sxy);
  }
}

/** The reference side of SSIM (A2), shared by every variant's SSIM of one entry. */
export interface SsimReference {
  image: Image8;
}

/** The reference side of SSIM. */
export function ssimReference(image: Image8): SsimReference {
  return { image };
}

/**
 * Mean SSIM of two grey images of the same size; null when a side is below 7 pixels (skimage
 * refuses). SSIM of an image with itself is exactly 1 (every window's ratio is exactly 1 in
 * floating point), and is returned without the pass.
 */
export function ssim(a: Image8 | SsimReference, b: Image8): number | null {
  const img = 'data' in a ? a : a.image;
  if (img.channels !== 1 || b.channels !== 1) throw new Error('ssim compares grey images');
  if (img.width !== b.width || img.height !== b.height) throw new Error(`ssim needs equal sizes (${img.width}×${img.height} vs ${b.width}×${b.height})`);
  const { width, height } = img;
  if (width < WIN || height < WIN) return null;
  if (img.data === b.data) return 1;
  // With window sums X = Σx, Y = Σy, XX = Σx², YY = Σy², XY = Σxy over N = 49 pixels, the
  // SSIM of a window (means X/N, sample variances (N·XX − X²)/(N(N−1)), …) is
  //   (2XY + c1)(2(N·XY − X·Y) + c2) / ((X² + Y² + c1)(N·XX − X² + N·YY − Y² + c2)),
  // c1 = C1·N², c2 = C2·N(N−1): every factor but the constants an exact integer, one division.
  const c1 = (0.01 * 255) ** 2 * AREA * AREA;
  const c2 = (0.03 * 255) ** 2 * AREA * (AREA - 1);
  let sum = 0;
  windowSums(width, height, img.data, b.data, (y, sx, sy, sxx, syy, sxy) => {
    if (y < R || y >= height - R) return;
    for (let x = R; x < width - R; x++) {
      const X = sx[x]!;
      const Y = sy[x]!;
      const XY = X * Y;
      const X2 = X * X;
      const Y2 = Y * Y;
      sum += ((2 * XY + c1) * (2 * (AREA * sxy[x]! - XY) + c2)) / ((X2 + Y2 + c1) * (AREA * (sxx[x]! + syy[x]!) - X2 - Y2 + c2));
    }
  });
  return sum / ((width - 2 * R) * (height - 2 * R));
}
