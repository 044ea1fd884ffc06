/**
 * The resampling steps of segmentation, written out so that they are exact and documented:
 *
 * - `isnetInputTensor`: the preprocessing of `@imgly/background-removal-node` 1.4.5
 *   (`tensorResizeBilinear` + `tensorHWCtoBCHW` in its dist/index.mjs): stretch to the fixed
 *   input size with its bilinear (source coordinate `x·W/1024`, corner-aligned, neighbours
 *   `floor`/`ceil` clamped to the image), round to 8 bits, then `(v − 128)/256` per channel,
 *   RGB order, planar NCHW float32.
 * - `probabilityToMask`: the inverse mapping (source coordinate `X·1024/W`) as bilinear on the
 *   float probability map, then `p ≥ threshold`. The package does the same resize on the 8-bit
 *   `p·255`; we keep the floats so that the threshold is exact.
 * - `upsampleMask`: GrabCut's low-resolution mask back to A0 size by bilinear interpolation with
 *   half-pixel centres (OpenCV's INTER_LINEAR geometry) on the 0/1 values, foreground where the
 *   interpolated value is ≥ 0.5.
 */

/** The package's mean and std: `(v − 128) / 256` for R, G and B alike. */
export const ISNET_MEAN = 128;
export const ISNET_STD = 256;

/**
 * Resize 8-bit RGB (`w·h·3`) to `size × size` the way the package does and normalise it into a
 * `1 × 3 × size × size` float32 tensor.
 */
export function isnetInputTensor(
  rgb: Uint8Array,
  w: number,
  h: number,
  size: number,
): Float32Array {
  const out = new Float32Array(3 * size * size);
  const plane = size * size;
  const sx = w / size;
  const sy = h / size;
  for (let y = 0; y < size; y++) {
    const fy = y * sy;
    const y1 = Math.max(Math.floor(fy), 0);
    const y2 = Math.min(Math.ceil(fy), h - 1);
    const dy = fy - y1;
    for (let x = 0; x < size; x++) {
      const fx = x * sx;
      const x1 = Math.max(Math.floor(fx), 0);
      const x2 = Math.min(Math.ceil(fx), w - 1);
      const dx = fx - x1;
      const w11 = (1 - dx) * (1 - dy);
      const w21 = dx * (1 - dy);
      const w12 = (1 - dx) * dy;
      const w22 = dx * dy;
      const i11 = (y1 * w + x1) * 3;
      const i21 = (y1 * w + x2) * 3;
      const i12 = (y2 * w + x1) * 3;
      const i22 = (y2 * w + x2) * 3;
      const o = y * size + x;
      for (let c = 0; c < 3; c++) {
        const v =
          w11 * rgb[i11 + c]! + w21 * rgb[i21 + c]! + w12 * rgb[i12 + c]! + w22 * rgb[i22 + c]!;
        out[c * plane + o] = (Math.round(v) - ISNET_MEAN) / ISNET_STD;
      }
    }
  }
  return out;
}

/**
 * Resize a `size × size` probability map to `w × h` (bilinear, the package's corner-aligned
 * mapping) and threshold it: 1 where `p ≥ threshold`, else 0.
 */
export function probabilityToMask(
  prob: Float32Array,
  size: number,
  w: number,
  h: number,
  threshold: number,
): Uint8Array {
  const mask = new Uint8Array(w * h);
  const sx = size / w;
  const sy = size / h;
  for (let y = 0; y < h; y++) {
    const fy = y * sy;
    const y1 = Math.max(Math.floor(fy), 0);
    const y2 = Math.min(Math.ceil(fy), size - 1);
    const dy = fy - y1;
    for (let x = 0; x < w; x++) {
      const fx = x * sx;
      const x1 = Math.max(Math.floor(fx), 0);
      const x2 = Math.min(Math.ceil(fx), size - 1);
      const dx = fx - x1;
      const p =
        (1 - dx) * (1 - dy) * prob[y1 * size + x1]! +
        dx * (1 - dy) * prob[y1 * size + x2]! +
        (1 - dx) * dy * prob[y2 * size + x1]! +
        dx * dy * prob[y2 * size + x2]!;
      mask[y * w + x] = p >= threshold ? 1 : 0;
    }
  }
  return mask;
}

/** Source coordinate, lower neighbour and weight of the upper one, half-pixel centres, clamped. */
function axis(n: number, src: number): { lo: Int32Array; hi: Int32Array; t: Float64Array } {
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  const t = new Float64Array(n);
  const scale = src / n;
  for (let i = 0; i < n; i++) {
    const f = Math.min(Math.max((i + 0.5) * scale - 0.5, 0), src - 1);
    lo[i] = Math.floor(f);
    hi[i] = Math.min(lo[i]! + 1, src - 1);
    t[i] = f - lo[i]!;
  }
  return { lo, hi, t };
}

/** Upsample a 0/1 mask from `w × h` to `W × H`: bilinear (half-pixel centres), then `≥ 0.5`. */
export function upsampleMask(
  mask: Uint8Array,
  w: number,
  h: number,
  W: number,
  H: number,
): Uint8Array {
  if (w === W && h === H) return mask.slice();
  const out = new Uint8Array(W * H);
  const ax = axis(W, w);
  const ay = axis(H, h);
  for (let y = 0; y < H; y++) {
    const r1 = ay.lo[y]! * w;
    const r2 = ay.hi[y]! * w;
    const ty = ay.t[y]!;
    for (let x = 0; x < W; x++) {
      const x1 = ax.lo[x]!;
      const x2 = ax.hi[x]!;
      const tx = ax.t[x]!;
      const top = (1 - tx) * mask[r1 + x1]! + tx * mask[r1 + x2]!;
      const bottom = (1 - tx) * mask[r2 + x1]! + tx * mask[r2 + x2]!;
      out[y * W + x] = (1 - ty) * top + ty * bottom >= 0.5 ? 1 : 0;
    }
  }
  return out;
}
