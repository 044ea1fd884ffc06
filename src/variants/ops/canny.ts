/**
 * A3's detector for its default parameters, bit for bit what opencv-wasm (OpenCV 4.3) computes,
 * without loading it (its start costs about 0.3–0.4 s of CPU per process), in the WebAssembly
 * kernel (kernels/as/edges.ts, SIMD):
 * - `blur5`: GaussianBlur 5 × 5, σ 1.4, 8-bit: OpenCV's fixed-point kernel [28, 61, 78, 61, 28]
 *   (sum 256) horizontally then vertically in integers, `(acc + 2^15) >> 16`, reflect-101 borders;
 * - `gradient` + `cannyFromGradient`: Canny with aperture 3 and the L1 gradient: Sobel 3 × 3
 *   (replicated borders), `m = |dx| + |dy|`, thresholds floored (the smaller one is low),
 *   non-maximum suppression in four directions with OpenCV's fixed-point tangents
 *   (tan 22.5° ≈ 13573 / 2^15), then hysteresis: every candidate 8-connected to a pixel above the
 *   high threshold is an edge. The gradient does not depend on the thresholds, so the edge
 *   densities with two threshold pairs share it (`cannyCounts`).
 * Other parameters, and any image when the kernel is not there (not built, STIMKIT_KERNELS=js, or
 * an image too large for its memory), go to opencv-wasm (opencv.ts): edges.ts decides with
 * `ownDetector`. test/variants/ops/canny.test.ts and test/variants/kernels/edges.test.ts compare
 * the two (npm bench variant-ops: the kernel takes about half opencv-wasm's CPU time, a quarter of
 * the TypeScript loops it replaced).
 */
import { StimkitError } from '../../core/errors.js';
import { align16, kernel, reserve, type Kernel } from '../kernels/load.js';
import type { Image8 } from '../types.js';

/** Whether `blur5` and `gradient`/`cannyFromGradient` stand for the detector with these parameters. */
export function defaultDetector(p: {
  blur_ksize: number;
  blur_sigma: number;
  aperture: number;
  l2_gradient: boolean;
}): boolean {
  return p.blur_ksize === 5 && p.blur_sigma === 1.4 && p.aperture === 3 && !p.l2_gradient;
}

// Histograms of blur5's outputs, counted as they are written (the detector's thresholds come from
// the blurred image's median), keyed by the output buffer; they go when the buffer does.
const histograms = new WeakMap<Uint8Array, Uint32Array>();

/** The histogram of 256 bins of a `blur5` output, if `values` is one (counted during the blur). */
export function blurHistogram(values: Uint8Array): Uint32Array | undefined {
  return histograms.get(values);
}

/** GaussianBlur 5 × 5, σ 1.4 (see the file's comment), its histogram counted on the way (`blurHistogram`). */
export function blur5(image: Image8): Image8 {
  const k = needKernel(image.data.length);
  const { width: w, height: h, data } = image;
  const n = w * h;
  const srcAt = reserve(k, 2 * align16(n) + 1024 + align16(2 * (w + 4)) + 4096 + 64);
  const dstAt = srcAt + align16(n);
  const histAt = dstAt + align16(n);
  new Uint8Array(k.memory.buffer, srcAt, n).set(data);
  k.exports.blur5!(srcAt, dstAt, w, h, histAt, histAt + 1024);
  const out = copyOut(k, dstAt, n);
  histograms.set(out, new Uint32Array(k.memory.buffer, histAt, 256).slice());
  return { width: w, height: h, channels: 1, data: out };
}

/** L1 gradient magnitudes and directions of an 8-bit image, shared by Canny runs with other thresholds. */
export interface Gradient {
  width: number;
  height: number;
  /** |dx| + |dy|, with a zero border of one pixel: (width + 2) × (height + 2). */
  mag: Uint16Array;
  /**
   * Per pixel (width × height), which neighbours non-maximum suppression compares with, as
   * OpenCV picks them: 0 left/right, 1 above/below, 2 and 3 the two diagonals.
   */
  dir: Uint8Array;
}

/** Sobel 3 × 3 (replicated borders), the L1 magnitude and the direction class. */
export function gradient(image: Image8): Gradient {
  const k = needKernel(image.data.length);
  const { width: w, height: h } = image;
  const at = place(k, image);
  k.exports.gradient!(at.src, at.mag, at.dir, w, h, at.scratch);
  const cells = (w + 2) * (h + 2);
  return {
    width: w,
    height: h,
    mag: new Uint16Array(k.memory.buffer, at.mag, cells).slice(),
    dir: new Uint8Array(k.memory.buffer, at.dir, w * h).slice(),
  };
}

/**
 * Canny edges from a gradient with OpenCV's thresholds (the smaller one is low; both floored).
 * Returns the map, (width + 2) × (height + 2) with 2 on edges, and the number of edges.
 */
export function cannyFromGradient(
  g: Gradient,
  lowThreshold: number,
  highThreshold: number,
): { map: Uint8Array; count: number } {
  const k = needKernel(g.dir.length);
  const { width: w, height: h } = g;
  const at = place(k, g);
  new Uint16Array(k.memory.buffer, at.mag, g.mag.length).set(g.mag);
  new Uint8Array(k.memory.buffer, at.dir, g.dir.length).set(g.dir);
  const count = hysteresisIn(k, at, w, h, lowThreshold, highThreshold);
  return { map: new Uint8Array(k.memory.buffer, at.map, (w + 2) * (h + 2)).slice(), count };
}

/** Canny (aperture 3, L1) of an image: 255 on edges, 0 elsewhere, as cv.Canny returns it. */
export function cannyL1(image: Image8, low: number, high: number): Image8 {
  return cannyL1Counted(image, low, high).image;
}

/** `cannyL1`, with the number of edges (pixels at 255). */
export function cannyL1Counted(
  image: Image8,
  low: number,
  high: number,
): { image: Image8; count: number } {
  const k = needKernel(image.data.length);
  const { width: w, height: h } = image;
  const at = place(k, image);
  k.exports.gradient!(at.src, at.mag, at.dir, w, h, at.scratch);
  const count = hysteresisIn(k, at, w, h, low, high);
  k.exports.edgeImage!(at.map, at.src, w, h); // the input is no longer needed: the output goes there
  return { image: { width: w, height: h, channels: 1, data: copyOut(k, at.src, w * h) }, count };
}

/**
 * The number of Canny edges (aperture 3, L1) of an image with each pair of thresholds: the
 * gradient computed once, only the edges counted.
 */
export function cannyCounts(
  image: Image8,
  pairs: ReadonlyArray<readonly [number, number]>,
): number[] {
  const k = needKernel(image.data.length);
  const { width: w, height: h } = image;
  const at = place(k, image);
  k.exports.gradient!(at.src, at.mag, at.dir, w, h, at.scratch);
  return pairs.map(([low, high]) => hysteresisIn(k, at, w, h, low, high));
}

/** How many bytes of `data` equal `value` (by the WebAssembly kernel when built, else `countEqualJs`). */
export function countEqual(data: Uint8Array, value: number): number {
  const k = detectorKernel(data.length);
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
function copyOut(k: Kernel, at: number, n: number): Uint8Array {
  const out = new Uint8Array(Buffer.allocUnsafeSlow(n).buffer, 0, n); // byteOffset 0: not pooled
  out.set(new Uint8Array(k.memory.buffer, at, n));
  return out;
}

/** 255 − v for each byte (by the WebAssembly kernel when built, else `complementJs`). */
export function complement(data: Uint8Array): Uint8Array {
  const k = detectorKernel(data.length);
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
 * The kernel for an image of `pixels` pixels: null when not built, or for images so large that
 * its buffers (up to about 10 bytes a pixel) might not fit in a 32-bit memory.
 */
export function detectorKernel(pixels: number): Kernel | null {
  return pixels <= 2 ** 27 ? kernel('edges') : null;
}

/** The kernel for `pixels` pixels; callers have checked `detectorKernel` (edges.ts, `ownDetector`). */
function needKernel(pixels: number): Kernel {
  const k = detectorKernel(pixels);
  if (k) return k;
  throw new StimkitError(
    'E_VARIANTS_KERNEL',
    `A3's WebAssembly kernel is not available for an image of ${pixels} pixels`,
    {
      fix: 'this is a bug in stimkit (edges.ts sends such images to opencv-wasm); please report it',
    },
  );
}

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
function place(k: Kernel, image: { width: number; height: number; data?: Uint8Array }): Placed {
  const { width: w, height: h } = image;
  const n = align16(w * h);
  const cells = (w + 2) * (h + 2);
  const src = k.base;
  const mag = src + n;
  const dir = mag + align16(2 * cells);
  const map = dir + n;
  const scratch = map + align16(cells);
  const stack = scratch + align16(4 * (w + 2) + 32);
  reserve(k, stack - k.base);
  if (image.data) new Uint8Array(k.memory.buffer, src, w * h).set(image.data);
  return { src, mag, dir, map, scratch, stack };
}

/**
 * OpenCV's thresholds for the kernel: the smaller one is low, both floored, and clamped to
 * [−1, 2041] (the same comparisons with magnitudes in [0, 2040]; NaN compares false as in the
 * TypeScript: never below low, never above high).
 */
function thresholds(lowThreshold: number, highThreshold: number): [number, number] {
  const low = Math.floor(Math.min(lowThreshold, highThreshold));
  const high = Math.floor(Math.max(lowThreshold, highThreshold));
  const clamp = (t: number, nan: number) =>
    Number.isNaN(t) ? nan : Math.min(2041, Math.max(-1, t));
  return [clamp(low, -1), clamp(high, 2041)];
}

/** Non-maximum suppression and hysteresis of the gradient placed at `at`; the map is left at `at.map`. Returns the number of edges. */
function hysteresisIn(
  k: Kernel,
  at: Placed,
  w: number,
  h: number,
  lowThreshold: number,
  highThreshold: number,
): number {
  const [low, high] = thresholds(lowThreshold, highThreshold);
  const candidates = k.exports.suppress!(at.mag, at.dir, at.map, w, h, low, high) as number;
  reserve(k, at.stack + 4 * candidates - k.base);
  return k.exports.hysteresis!(at.map, w, h, at.stack) as number;
}
