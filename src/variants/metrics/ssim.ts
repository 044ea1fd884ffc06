/**
 * SSIM with scikit-image 0.19's `structural_similarity` conventions: 7 × 7 uniform window, K1 0.01,
 * K2 0.03, data range 255, sample covariance (× 49/48), scipy `reflect` borders (edge sample
 * repeated: d c b a | a b c d), mean over the interior with a 3-pixel border cropped.
 *
 * The window sums of 8-bit values, their squares and products are integers, computed exactly with
 * running sums (rows, then columns; Int32 suffices: 49 · 255² < 2^22), and each window's SSIM is
 * one division of products of integers; scipy's float means differ from them by rounding only
 * (~1e-13).
 *
 * Only the interior enters the mean, and the windows of interior pixels lie wholly inside the
 * image, so the reflected borders never matter: per column, sums over 7 rows slide down a row at a
 * time (the row leaving is read from the image), and per output row a 7-wide sum slides along
 * them. The reference's sums (Σx, N·Σx² − (Σx)²) are computed once per entry and reused.
 *
 * A two-tone image of 0 and 255 (A3, A4) has y² = 255·y at every pixel, so Σy² = 255·Σy exactly:
 * its squares need no sums of their own in the kernel, the integers and so the result unchanged
 * (the TypeScript reference sums them all).
 *
 * `ssim` runs the WebAssembly kernel (kernels/as/ssim.ts) when it is built: the same integers in
 * SIMD lanes, the same floating-point operations per window, the ratios added in the same order,
 * so the same bits; `ssimJs` is the TypeScript, its reference and the fallback.
 */
import { align16, kernel, reserve } from '../kernels/load.js';
import type { Image8 } from '../types.js';

const WIN = 7;
const R = 3;
const AREA = WIN * WIN;

/** The reference side of SSIM (A2), shared by every variant's SSIM of one entry. */
export interface SsimReference {
  image: Image8;
  /** Per interior window (row-major, (W − 6) × (H − 6)): Σx, and N·Σx² − (Σx)²; computed on first use. */
  sums?: { x: Int32Array; xxc: Int32Array };
}

/** The reference side of SSIM; its window sums are computed once, on first use, for every comparison. */
export function ssimReference(image: Image8): SsimReference {
  return { image };
}

function referenceSums(ref: SsimReference): { x: Int32Array; xxc: Int32Array } {
  if (ref.sums) return ref.sums;
  const { width, height, data } = ref.image;
  const iw = width - 2 * R;
  const ih = height - 2 * R;
  const x = new Int32Array(iw * ih);
  const xxc = new Int32Array(iw * ih);
  const cx = new Int32Array(width);
  const cxx = new Int32Array(width);
  for (let r = 0; r < WIN; r++) {
    for (let c = 0, o = r * width; c < width; c++) {
      const p = data[o + c]!;
      cx[c] = cx[c]! + p;
      cxx[c] = cxx[c]! + p * p;
    }
  }
  for (let yy = 0; yy < ih; yy++) {
    if (yy > 0) {
      const oin = (yy + WIN - 1) * width;
      const oout = (yy - 1) * width;
      for (let c = 0; c < width; c++) {
        const pin = data[oin + c]!;
        const pout = data[oout + c]!;
        cx[c] = cx[c]! + pin - pout;
        cxx[c] = cxx[c]! + pin * pin - pout * pout;
      }
    }
    let X = 0;
    let XX = 0;
    for (let c = 0; c < WIN; c++) {
      X += cx[c]!;
      XX += cxx[c]!;
    }
    const o = yy * iw;
    for (let xx = 0; xx < iw; xx++) {
      if (xx > 0) {
        X += cx[xx + WIN - 1]! - cx[xx - 1]!;
        XX += cxx[xx + WIN - 1]! - cxx[xx - 1]!;
      }
      x[o + xx] = X;
      xxc[o + xx] = AREA * XX - X * X; // < 49² · 255², exact in Int32
    }
  }
  ref.sums = { x, xxc };
  return ref.sums;
}

/**
 * Mean SSIM of two grey images of the same size; null when a side is below 7 pixels (skimage
 * refuses). SSIM of an image with itself is exactly 1 (every window's ratio is exactly 1 in
 * floating point), and is returned without the pass. Pass A2 as a `SsimReference` to compute its
 * window sums once for all the variants compared with it. Computed by the WebAssembly kernel
 * (kernels/as/ssim.ts) when built, else by `ssimJs`; the same bits either way.
 */
export function ssim(a: Image8 | SsimReference, b: Image8): number | null {
  const k = kernel('ssim');
  if (!k) return ssimJs(a, b);
  const img = 'data' in a ? a : a.image;
  const settled = settledSsim(img, b);
  if (settled !== undefined) return settled;
  const { width, height } = img;
  const { c1, c2 } = constants();
  // Layout: the reference's side (x, Σx, N·Σx² − (Σx)², kept while the same SsimReference
  // comes back), then y, a zero row, the column sums and the ratios of a row's last windows.
  // Images have 16 bytes of slack, window sums 16 bytes, column sums 16 columns.
  const n = width * height;
  const iw = width - 2 * R;
  const windows = iw * (height - 2 * R);
  const w16 = align16(width);
  const cw = w16 + 16;
  const imageBytes = align16(n + 16);
  const sumBytes = align16(windows * 4 + 16);
  const xAt = reserve(k, 2 * imageBytes + 2 * sumBytes + w16 + 3 * cw * 4 + 32);
  const rxAt = xAt + imageBytes;
  const rxxAt = rxAt + sumBytes;
  const yAt = rxxAt + sumBytes;
  const zeroAt = yAt + imageBytes;
  const colsAt = zeroAt + w16;
  const rowAt = colsAt + 3 * cw * 4;
  const mem = new Uint8Array(k.memory.buffer);
  mem.fill(0, zeroAt, zeroAt + w16);
  if (kernelRef !== a) {
    mem.set(img.data, xAt);
    k.exports.referenceSums!(xAt, width, height, zeroAt, colsAt, cw, rxAt, rxxAt);
    kernelRef = 'data' in a ? undefined : a;
  }
  mem.set(b.data, yAt);
  const two = k.exports.twoTone!(yAt, n) as number;
  const sum = k.exports.ssimSum!(
    xAt,
    yAt,
    width,
    height,
    zeroAt,
    colsAt,
    cw,
    rxAt,
    rxxAt,
    rowAt,
    c1,
    c2,
    two,
  ) as number;
  return sum / windows;
}

/**
 * The reference whose image and window sums the kernel's memory holds (one kernel instance per
 * thread, so one per thread), computed by `referenceSums` of kernels/as/ssim.ts on its first
 * comparison; an image passed as such is not kept.
 */
let kernelRef: SsimReference | undefined;

/** SSIM's constants scaled to window sums: c1 = C1·N², c2 = C2·N(N−1). */
function constants(): { c1: number; c2: number } {
  return { c1: (0.01 * 255) ** 2 * AREA * AREA, c2: (0.03 * 255) ** 2 * AREA * (AREA - 1) };
}

/**
 * What both paths decide before any sum: refuses colour or unequal sizes, null below 7 pixels a
 * side (skimage refuses), 1 for an image with itself; undefined when the windows must be computed.
 */
function settledSsim(img: Image8, b: Image8): number | null | undefined {
  if (img.channels !== 1 || b.channels !== 1) throw new Error('ssim compares grey images');
  if (img.width !== b.width || img.height !== b.height)
    throw new Error(
      `ssim needs equal sizes (${img.width}×${img.height} vs ${b.width}×${b.height})`,
    );
  if (img.width < WIN || img.height < WIN) return null;
  if (img.data === b.data) return 1;
  return undefined;
}

/** `ssim` in TypeScript: the reference of the WebAssembly kernel, and its fallback. */
export function ssimJs(a: Image8 | SsimReference, b: Image8): number | null {
  const ref = 'data' in a ? ssimReference(a) : a;
  const img = ref.image;
  const settled = settledSsim(img, b);
  if (settled !== undefined) return settled;
  const { width, height } = img;
  // With window sums X = Σx, Y = Σy, XX = Σx², YY = Σy², XY = Σxy over N = 49 pixels, the
  // SSIM of a window (means X/N, sample variances (N·XX − X²)/(N(N−1)), …) is
  //   (2XY + c1)(2(N·XY − X·Y) + c2) / ((X² + Y² + c1)(N·XX − X² + N·YY − Y² + c2)),
  // c1 = C1·N², c2 = C2·N(N−1): every factor but the constants an exact integer, one division.
  const { c1, c2 } = constants();
  const { x: RX, xxc: RXX } = referenceSums(ref);
  const xd = img.data;
  const yd = b.data;
  const iw = width - 2 * R;
  const ih = height - 2 * R;
  const cy = new Int32Array(width);
  const cyy = new Int32Array(width);
  const cxy = new Int32Array(width);
  for (let r = 0; r < WIN; r++) {
    for (let c = 0, o = r * width; c < width; c++) {
      const p = xd[o + c]!;
      const q = yd[o + c]!;
      cy[c] = cy[c]! + q;
      cyy[c] = cyy[c]! + q * q;
      cxy[c] = cxy[c]! + p * q;
    }
  }
  let sum = 0;
  for (let yy = 0; yy < ih; yy++) {
    if (yy > 0) {
      const oin = (yy + WIN - 1) * width;
      const oout = (yy - 1) * width;
      for (let c = 0; c < width; c++) {
        const pin = xd[oin + c]!;
        const qin = yd[oin + c]!;
        const pout = xd[oout + c]!;
        const qout = yd[oout + c]!;
        cy[c] = cy[c]! + qin - qout;
        cyy[c] = cyy[c]! + qin * qin - qout * qout;
        cxy[c] = cxy[c]! + pin * qin - pout * qout;
      }
    }
    let Y = 0;
    let YY = 0;
    let XYs = 0;
    for (let c = 0; c < WIN; c++) {
      Y += cy[c]!;
      YY += cyy[c]!;
      XYs += cxy[c]!;
    }
    const o = yy * iw;
    for (let xx = 0; xx < iw; xx++) {
      if (xx > 0) {
        Y += cy[xx + WIN - 1]! - cy[xx - 1]!;
        YY += cyy[xx + WIN - 1]! - cyy[xx - 1]!;
        XYs += cxy[xx + WIN - 1]! - cxy[xx - 1]!;
      }
      const X = RX[o + xx]!;
      const XY = X * Y;
      const X2 = X * X;
      const Y2 = Y * Y;
      // The integer parts are exact whatever their order, so this is bit for bit the formula above.
      sum +=
        ((2 * XY + c1) * (2 * (AREA * XYs - XY) + c2)) /
        ((X2 + Y2 + c1) * (RXX[o + xx]! + AREA * YY - Y2 + c2));
    }
  }
  return sum / (iw * ih);
}
