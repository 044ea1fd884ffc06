/**
 * A 64-bit DCT perceptual hash (the `imagehash.phash` construction): the image as 32 × 32 grey,
 * a 2-D DCT-II, the 8 × 8 lowest frequencies (DC included), each bit = coefficient > their median.
 * Bits are written row-major, most significant first, as 16 hex digits.
 */
import type { Sharp } from 'sharp';

const N = 32;
const LOW = 8;

/** cos((2x+1)uπ/2N) for u < LOW, x < N: all the DCT-II needs for the low 8 × 8 block. */
const COS: Float64Array = (() => {
  const t = new Float64Array(LOW * N);
  for (let u = 0; u < LOW; u++)
    for (let x = 0; x < N; x++) t[u * N + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * N));
  return t;
})();

/**
 * The low LOW × LOW block of the unnormalised 2-D DCT-II of an N × N image (rows then columns),
 * `X[u][v] = Σ_y Σ_x f[y][x] cos((2y+1)uπ/2N) cos((2x+1)vπ/2N)` (scipy's `dct(norm=None)`
 * differs by a constant factor 4, which does not change the hash).
 */
export function lowDct(grey: ArrayLike<number>): Float64Array {
  const rows = new Float64Array(N * LOW); // rows[y][v] = Σ_x f[y][x] cos_v(x)
  for (let y = 0; y < N; y++) {
    for (let v = 0; v < LOW; v++) {
      let s = 0;
      for (let x = 0; x < N; x++) s += grey[y * N + x]! * COS[v * N + x]!;
      rows[y * LOW + v] = s;
    }
  }
  const out = new Float64Array(LOW * LOW);
  for (let u = 0; u < LOW; u++) {
    for (let v = 0; v < LOW; v++) {
      let s = 0;
      for (let y = 0; y < N; y++) s += rows[y * LOW + v]! * COS[u * N + y]!;
      out[u * LOW + v] = s;
    }
  }
  return out;
}

/** The hash of a 32 × 32 grey image (row-major values). */
export function phashFromGrey32(grey: ArrayLike<number>): string {
  if (grey.length !== N * N)
    throw new Error(`phash needs ${N * N} grey values, got ${grey.length}`);
  const dct = lowDct(grey);
  const sorted = Array.from(dct).sort((a, b) => a - b);
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hex = '';
  for (let nib = 0; nib < 16; nib++) {
    let d = 0;
    for (let b = 0; b < 4; b++) d = (d << 1) | (dct[nib * 4 + b]! > median ? 1 : 0);
    hex += d.toString(16);
  }
  return hex;
}

/** BT.601 luma on 8-bit values, exactly as A2: floor((299R + 587G + 114B + 500)/1000). */
function luma601(r: number, g: number, b: number): number {
  return Math.floor((299 * r + 587 * g + 114 * b + 500) / 1000);
}

/**
 * The perceptual hash of an image already set up in a sharp pipeline (oriented, flattened).
 * Resizes to 32 × 32 with Lanczos-3 and takes BT.601 luma.
 */
export async function phashOf(pipeline: Sharp): Promise<string> {
  const { data, info } = await pipeline
    .resize(N, N, { fit: 'fill', kernel: 'lanczos3', fastShrinkOnLoad: false })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const grey = new Uint8Array(N * N);
  const c = info.channels;
  for (let i = 0; i < N * N; i++)
    grey[i] = luma601(data[i * c]!, data[i * c + 1]!, data[i * c + 2]!);
  return phashFromGrey32(grey);
}

/** Number of differing bits between two 16-hex-digit hashes. */
export function hamming(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length; i += 8) {
    let x = (parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x) {
      x &= x - 1;
      d++;
    }
  }
  return d;
}
