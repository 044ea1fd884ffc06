/**
 * A3's Canny, bit for bit what OpenCV (4.3, as opencv-wasm) computes for an 8-bit image, in the
 * WebAssembly kernel (kernels/as/edges.ts and edges/sobel.ts, SIMD), for every aperture and
 * gradient the recipe allows:
 * - `gradient`: Sobel with an aperture of 3, 5 or 7 (replicated borders; with 7, OpenCV scales by
 *   1/16 and rounds half to even), the magnitude |dx| + |dy| (L1) or dx² + dy² (L2), and the
 *   direction class, with OpenCV's fixed-point tangents (tan 22.5° ≈ 13573 / 2^15);
 * - the thresholds as OpenCV takes them (`thresholds`): the smaller one is low; with aperture 7
 *   both are divided by 16; with L2 both are squared (below 32767); then floored;
 * - non-maximum suppression in four directions, then hysteresis: every candidate 8-connected to a
 *   pixel above the high threshold is an edge.
 * The gradient does not depend on the thresholds, so the edge densities with two threshold pairs
 * share it (`cannyCounts`). The default detector (aperture 3, L1) has a faster special case in
 * the kernel, the same bytes. This is the one implementation: without the kernel (a source tree
 * that was not built) A3 fails with E_VARIANTS_KERNEL_MISSING, whatever STIMKIT_KERNELS says.
 * test/variants/ops/canny.test.ts and test/variants/kernels/edges.test.ts compare it with
 * opencv-wasm's `cv.Canny` for every parameter combination, on photos and odd sizes; with the
 * blur, it takes about a tenth of opencv-wasm's CPU time with the default parameters and a sixth
 * with others (`npm run bench -- variant-ops`).
 */
import { align16, kernel, requiredKernel, reserve, type Kernel } from '../kernels/load.js';
import type { Image8 } from '../types.js';

/** The parameters of the detector past its blur (the recipe's `edges.aperture`, `edges.l2_gradient`). */
export interface Sobel {
  aperture: 3 | 5 | 7;
  l2_gradient: boolean;
}

const DEFAULT: Sobel = { aperture: 3, l2_gradient: false };

/** Magnitudes, and which neighbours non-maximum suppression compares with, shared by Canny runs with other thresholds. */
interface Gradient {
  width: number;
  height: number;
  sobel: Sobel;
  /** The magnitudes (Uint16Array for L1, Int32Array for L2), with a zero border of one pixel: (width + 2) × (height + 2). */
  mag: Uint16Array | Int32Array;
  /** Per pixel (width × height), as OpenCV picks them: 0 left/right, 1 above/below, 2 and 3 the two diagonals. */
  dir: Uint8Array;
}

/** Sobel, the magnitude and the direction class of an 8-bit image. */
export function gradient(image: Image8, sobel: Sobel = DEFAULT): Gradient {
  const k = detectorKernel();
  const { width: w, height: h } = image;
  const at = place(k, image, sobel);
  gradientIn(k, at, w, h, sobel);
  const cells = (w + 2) * (h + 2);
  const View = sobel.l2_gradient ? Int32Array : Uint16Array;
  return {
    width: w,
    height: h,
    sobel,
    mag: new View(k.memory.buffer, at.mag, cells).slice(),
    dir: new Uint8Array(k.memory.buffer, at.dir, w * h).slice(),
  };
}

/**
 * Canny edges from a gradient with OpenCV's thresholds (`thresholds`). Returns the map,
 * (width + 2) × (height + 2) with 2 on edges, and the number of edges.
 */
export function cannyFromGradient(
  g: Gradient,
  lowThreshold: number,
  highThreshold: number,
): { map: Uint8Array; count: number } {
  const k = detectorKernel();
  const { width: w, height: h } = g;
  const at = place(k, g, g.sobel);
  const View = g.sobel.l2_gradient ? Int32Array : Uint16Array;
  new View(k.memory.buffer, at.mag, g.mag.length).set(g.mag);
  new Uint8Array(k.memory.buffer, at.dir, g.dir.length).set(g.dir);
  const count = hysteresisIn(
    k,
    at,
    w,
    h,
    thresholds(lowThreshold, highThreshold, g.sobel),
    g.sobel,
  );
  return { map: new Uint8Array(k.memory.buffer, at.map, (w + 2) * (h + 2)).slice(), count };
}

/** Canny of an 8-bit image: 255 on edges, 0 elsewhere, as cv.Canny returns it, with the number of edges. */
export function cannyCounted(
  image: Image8,
  low: number,
  high: number,
  sobel: Sobel = DEFAULT,
): { image: Image8; count: number } {
  const k = detectorKernel();
  const { width: w, height: h } = image;
  const at = place(k, image, sobel);
  gradientIn(k, at, w, h, sobel);
  const count = hysteresisIn(k, at, w, h, thresholds(low, high, sobel), sobel);
  k.exports.edgeImage!(at.map, at.src, w, h); // the input is no longer needed: the output goes there
  return { image: { width: w, height: h, channels: 1, data: copyOut(k, at.src, w * h) }, count };
}

/**
 * The number of Canny edges of an image with each pair of thresholds: the gradient computed
 * once, only the edges counted.
 */
export function cannyCounts(
  image: Image8,
  pairs: ReadonlyArray<readonly [number, number]>,
  sobel: Sobel = DEFAULT,
): number[] {
  const k = detectorKernel();
  const { width: w, height: h } = image;
  return countsAt(k, place(k, image, sobel), w, h, pairs, sobel);
}

/**
 * `cannyCounts` of the width × height image already in the detector kernel's memory at `from`
 * (blur.ts `blurInKernel`): moved to where the detector reads it, inside the kernel's memory.
 */
export function cannyCountsAt(
  k: Kernel,
  from: number,
  width: number,
  height: number,
  pairs: ReadonlyArray<readonly [number, number]>,
  sobel: Sobel = DEFAULT,
): number[] {
  const at = place(k, { width, height }, sobel);
  new Uint8Array(k.memory.buffer).copyWithin(at.src, from, from + width * height);
  return countsAt(k, at, width, height, pairs, sobel);
}

/** The gradient of the image placed at `at`, then the edges counted with each pair of thresholds. */
function countsAt(
  k: Kernel,
  at: Placed,
  w: number,
  h: number,
  pairs: ReadonlyArray<readonly [number, number]>,
  sobel: Sobel,
): number[] {
  gradientIn(k, at, w, h, sobel);
  return pairs.map(([low, high]) => hysteresisIn(k, at, w, h, thresholds(low, high, sobel), sobel));
}

/** How many bytes of `data` equal `value` (by the WebAssembly kernel when built, else `countEqualJs`). */
export function countEqual(data: Uint8Array, value: number): number {
  const k = bytesKernel(data.length);
  if (!k || !Number.isInteger(value) || value < 0 || value > 255) return countEqualJs(data, value);
  const at = reserve(k, data.length);
  new Uint8Array(k.memory.buffer, at, data.length).set(data);
  return k.exports.countEqual!(at, data.length, value) as number;
}

/** `countEqual` in TypeScript: the reference of the WebAssembly kernel. */
export function countEqualJs(data: Uint8Array, value: number): number {
  let n = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === value) n++;
  return n;
}

/**
 * A copy of `n` bytes of the kernel's memory from `at`, in a plain Uint8Array of its own. Its
 * memory comes uninitialised (Buffer.allocUnsafeSlow, not pooled), as the copy overwrites all of
 * it: a zeroed megabyte costs about 0.6 ms more (fresh pages), as much as the blur itself.
 */
export function copyOut(k: Kernel, at: number, n: number): Uint8Array {
  const out = new Uint8Array(Buffer.allocUnsafeSlow(n).buffer, 0, n); // byteOffset 0: not pooled
  out.set(new Uint8Array(k.memory.buffer, at, n));
  return out;
}

/** 255 − v for each byte (by the WebAssembly kernel when built, else `complementJs`). */
export function complement(data: Uint8Array): Uint8Array {
  const k = bytesKernel(data.length);
  if (!k) return complementJs(data);
  const at = reserve(k, data.length);
  new Uint8Array(k.memory.buffer, at, data.length).set(data);
  k.exports.complement!(at, data.length);
  return copyOut(k, at, data.length);
}

/** `complement` in TypeScript: the reference of the WebAssembly kernel. */
export function complementJs(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = 255 - data[i]!;
  return out;
}

/**
 * The kernel for `countEqual` and `complement`, which have TypeScript loops: null when not built,
 * when STIMKIT_KERNELS=js, or for more than 2^30 bytes (then the loops run).
 */
function bytesKernel(bytes: number): Kernel | null {
  return bytes <= 2 ** 30 ? kernel('edges') : null;
}

/** The detector's kernel, its one implementation (E_VARIANTS_KERNEL_MISSING when not built). */
export function detectorKernel(): Kernel {
  return requiredKernel('edges');
}

/** Whether the kernel's special case of the default detector computes this gradient. */
const defaultSobel = (s: Sobel): boolean => s.aperture === 3 && !s.l2_gradient;

/** Where a detector call lays out its buffers in the kernel's memory (the hysteresis' stack last: it grows). */
interface Placed {
  src: number;
  mag: number;
  dir: number;
  map: number;
  scratch: number;
  stack: number;
}

/** Reserve the buffers for an image of `width` × `height` and copy its pixels in, if it has them. */
function place(
  k: Kernel,
  image: { width: number; height: number; data?: Uint8Array },
  sobel: Sobel,
): Placed {
  const { width: w, height: h } = image;
  const n = align16(w * h);
  const cells = (w + 2) * (h + 2);
  const src = k.base;
  const mag = src + n;
  const dir = mag + align16((sobel.l2_gradient ? 4 : 2) * cells);
  const map = dir + n;
  const scratch = map + align16(cells);
  const stack = scratch + align16(4 * (w + 7) + 4 * 7 + 32);
  reserve(k, stack - k.base);
  if (image.data) new Uint8Array(k.memory.buffer, src, w * h).set(image.data);
  return { src, mag, dir, map, scratch, stack };
}

/** The gradient of the image placed at `at.src` into `at.mag` and `at.dir`. */
function gradientIn(k: Kernel, at: Placed, w: number, h: number, sobel: Sobel): void {
  if (defaultSobel(sobel)) k.exports.gradient!(at.src, at.mag, at.dir, w, h, at.scratch);
  else
    k.exports.gradientN!(
      at.src,
      at.mag,
      at.dir,
      w,
      h,
      sobel.aperture,
      +sobel.l2_gradient,
      at.scratch,
    );
}

/**
 * OpenCV's integer thresholds for the kernel: the smaller one is low; with aperture 7 both
 * divided by 16; with L2 both capped at 32767 and squared when positive; both floored. Clamped to
 * [−1, 2^31 − 1] (L2) or [−1, 32767] (L1, whose magnitudes stay below 2^15): the same
 * comparisons. NaN compares false, as in OpenCV: never below low, never above high.
 */
function thresholds(lowThreshold: number, highThreshold: number, sobel: Sobel): [number, number] {
  const scale = sobel.aperture === 7 ? 1 / 16 : 1;
  const square = (t: number) => {
    if (!sobel.l2_gradient) return t;
    const c = Math.min(32767, t);
    return c > 0 ? c * c : c;
  };
  const low = Math.floor(square(Math.min(lowThreshold, highThreshold) * scale));
  const high = Math.floor(square(Math.max(lowThreshold, highThreshold) * scale));
  const top = sobel.l2_gradient ? 2 ** 31 - 1 : 32767;
  const clamp = (t: number, nan: number) =>
    Number.isNaN(t) ? nan : Math.min(top, Math.max(-1, t));
  return [clamp(low, -1), clamp(high, top)];
}

/** Non-maximum suppression and hysteresis of the gradient placed at `at`; the map is left at `at.map`. Returns the number of edges. */
function hysteresisIn(
  k: Kernel,
  at: Placed,
  w: number,
  h: number,
  [low, high]: [number, number],
  sobel: Sobel,
): number {
  const suppress = sobel.l2_gradient ? k.exports.suppress32! : k.exports.suppress!;
  const candidates = suppress(at.mag, at.dir, at.map, w, h, low, high) as number;
  reserve(k, at.stack + 4 * candidates - k.base);
  return k.exports.hysteresis!(at.map, w, h, at.stack) as number;
}
