/**
 * Calls into the `pixels` WebAssembly module (kernels/as/pixels.ts): the small per-pixel passes
 * (luma, A0's flattening, A4's histogram and threshold, A5's rounding, the bilinear upscale, the
 * metrics' sums and counts). Each function copies its input into the module's memory, runs the
 * export and copies the result out; it returns null when the module is not built or
 * STIMKIT_KERNELS=js, and the caller then runs its TypeScript loop (the reference: the same bits) —
 * except the bilinear resize, which has no other implementation (`resizeLinearKernel`).
 */
import { align16, kernel, requiredKernel, reserve, type Kernel } from './load.js';

const module = (): Kernel | null => kernel('pixels');

/**
 * The module, with `bytes` bytes reserved from its base; null when it is not built, when the
 * sizes would not fit its 32-bit addresses, or when its memory cannot grow that far (the caller
 * then runs its TypeScript loop).
 */
function withRoom(bytes: number): Kernel | null {
  const k = module();
  if (!k || bytes >= 2 ** 31) return null;
  try {
    reserve(k, bytes);
  } catch {
    return null;
  }
  return k;
}

/** Copy `src` to the module's memory at `at`. */
function put(
  k: Kernel,
  at: number,
  src: ArrayLike<number> & { length: number },
  view: typeof Uint8Array | typeof Float64Array | typeof Int32Array,
): void {
  new view(k.memory.buffer, at, src.length).set(src);
}

/** BT.601 luma of n interleaved RGB pixels. */
export function lumaKernel(rgb: Uint8Array, n: number): Uint8Array | null {
  const k = withRoom(align16(3 * n) + n);
  if (!k) return null;
  const out = k.base + align16(3 * n);
  put(k, k.base, rgb.subarray(0, 3 * n), Uint8Array);
  k.exports.luma!(k.base, out, n);
  return new Uint8Array(k.memory.buffer, out, n).slice();
}

/** Grey (1), grey + alpha (2) or RGBA (4) pixels composited over white into RGB. */
export function flattenKernel(data: Uint8Array, n: number, channels: number): Uint8Array | null {
  const size = align16(channels * n);
  const k = channels === 1 || channels === 2 || channels === 4 ? withRoom(size + 3 * n) : null;
  if (!k) return null;
  const out = k.base + size;
  put(k, k.base, data.subarray(0, channels * n), Uint8Array);
  k.exports.flatten!(k.base, out, n, channels);
  return new Uint8Array(k.memory.buffer, out, 3 * n).slice();
}

/** Counts of each byte value (256 entries). */
export function histogramKernel(values: Uint8Array): Uint32Array | null {
  const n = values.length;
  const k = withRoom(align16(n) + 1024 + 4096);
  if (!k) return null;
  const hist = k.base + align16(n);
  put(k, k.base, values, Uint8Array);
  k.exports.histogram!(k.base, n, hist, hist + 1024);
  return new Uint32Array(k.memory.buffer, hist, 256).slice();
}

/** `v > t` → 255, else 0, for an integer t in 0…255 (null for any other t). */
export function thresholdKernel(values: Uint8Array, t: number): Uint8Array | null {
  const n = values.length;
  const k = Number.isInteger(t) && t >= 0 && t <= 255 ? withRoom(align16(n) + n) : null;
  if (!k) return null;
  const out = k.base + align16(n);
  put(k, k.base, values, Uint8Array);
  k.exports.threshold!(k.base, out, n, t);
  return new Uint8Array(k.memory.buffer, out, n).slice();
}

/** How many bytes equal `value` (an integer 0…255; null for any other value). */
export function countKernel(values: Uint8Array, value: number): number | null {
  const k = Number.isInteger(value) && value >= 0 && value <= 255 ? withRoom(values.length) : null;
  if (!k) return null;
  put(k, k.base, values, Uint8Array);
  return (k.exports.count!(k.base, values.length, value) as number) >>> 0;
}

/** Σx and Σx² of bytes, exactly (Σx as a number: an integer below 2^53 for any array JavaScript can hold). */
export function sumsKernel(values: Uint8Array): { sum: number; squares: bigint } | null {
  const k = withRoom(align16(values.length) + 16);
  if (!k) return null;
  const out = k.base + align16(values.length);
  put(k, k.base, values, Uint8Array);
  k.exports.sums!(k.base, values.length, out);
  const r = new BigInt64Array(k.memory.buffer, out, 2);
  return { sum: Number(r[0]!), squares: r[1]! };
}

/** `min(255, max(0, floor(x + 1/2)))` of each value, as a Uint8Array stores it. */
export function roundClipKernel(real: Float64Array): Uint8Array | null {
  const n = real.length;
  const k = withRoom(8 * n + n);
  if (!k) return null;
  const out = k.base + 8 * n;
  put(k, k.base, real, Float64Array);
  k.exports.roundClip!(k.base, out, n);
  return new Uint8Array(k.memory.buffer, out, n).slice();
}

/** One axis of the bilinear resize (ops/resize-linear.ts). */
export interface LinearAxis {
  ofs: Int32Array;
  a0: Int32Array;
  a1: Int32Array;
}

/**
 * OpenCV's INTER_LINEAR resize of grey pixels `sw` × `sh` to `width` × `height`, given both axes
 * (the weights are at most 2048: they are passed to the module as i16). The module is this
 * resize's one implementation: E_VARIANTS_KERNEL_MISSING when it is not built (whatever
 * STIMKIT_KERNELS says), E_VARIANTS_KERNEL_MEMORY when its memory cannot hold the images.
 */
export function resizeLinearKernel(
  data: Uint8Array,
  sw: number,
  sh: number,
  width: number,
  height: number,
  X: LinearAxis,
  Y: LinearAxis,
): Uint8Array {
  // One byte of slack after the source: a clamped last column reads it with weight 0.
  const size =
    align16(sw * sh + 1) +
    align16(width * height) +
    align16(4 * width) * 2 +
    3 * align16(4 * height) +
    8 * width;
  const k = requiredKernel('pixels');
  const src = reserve(k, size);
  const out = src + align16(sw * sh + 1);
  const xofs = out + align16(width * height);
  const xw = xofs + align16(4 * width);
  const y = xw + align16(4 * width);
  const ys = align16(4 * height);
  const rows = y + 3 * ys;
  put(k, src, data.subarray(0, sw * sh), Uint8Array);
  put(k, xofs, X.ofs, Int32Array);
  const w = new Int16Array(k.memory.buffer, xw, 2 * width);
  for (let i = 0; i < width; i++) {
    w[2 * i] = X.a0[i]!;
    w[2 * i + 1] = X.a1[i]!;
  }
  put(k, y, Y.ofs, Int32Array);
  put(k, y + ys, Y.a0, Int32Array);
  put(k, y + 2 * ys, Y.a1, Int32Array);
  k.exports.resizeLinear!(src, sw, sh, out, width, height, xofs, xw, y, y + ys, y + 2 * ys, rows);
  return new Uint8Array(k.memory.buffer, out, width * height).slice();
}
