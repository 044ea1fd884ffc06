/**
 * A3's Gaussian blur, bit for bit what OpenCV (4.3, as opencv-wasm) computes for an 8-bit image,
 * in the WebAssembly kernel (kernels/as/edges.ts and edges/blur.ts, SIMD), for every kernel size
 * and sigma the recipe allows:
 * - the taps: OpenCV's Gaussian `exp(−x²/(2σ²))` at x = −r … r, normalised to sum 1, then turned
 *   into 8-bit fixed point by error diffusion (each tap rounded half to even with the rounding
 *   error carried to the next, the centre tap taking what makes the sum 256), `gaussianTaps`;
 * - the blur: taps vertically then horizontally in integers, `(acc + 2^15) >> 16`, reflect-101
 *   borders. The default taps [28, 61, 78, 61, 28] (5 × 5, σ 1.4) have a faster special case
 *   (`blur5`), the same bytes.
 * test/variants/ops/canny.test.ts compares both with opencv-wasm's `cv.GaussianBlur` over every
 * kernel size and a range of sigmas, on photos and odd sizes.
 */
import { align16, reserve, type Kernel } from '../kernels/load.js';
import type { Image8 } from '../types.js';
import { copyOut, detectorKernel } from './canny.js';

/** Round half to even (cvRound). */
export function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * OpenCV's 8-bit Gaussian taps (getGaussianKernelBitExact, then getGaussianKernelFixedPoint_ED):
 * `n` odd, `sigma` > 0; the taps sum to 256. OpenCV's exponential is its own (softfloat); on every
 * size the recipe allows the taps come out the same with Math.exp (the tests compare the blurs).
 */
export function gaussianTaps(n: number, sigma: number): number[] {
  const scale = -0.125 / (sigma * sigma);
  const half = (n - 1) / 2;
  const values: number[] = [];
  let sum = 0;
  for (let i = 0, x = 1 - n; i < half; i++, x += 2) {
    const t = Math.exp(x * x * scale);
    values.push(t);
    sum += t;
  }
  const mul = 1 / (sum * 2 + 1);
  const taps = new Array<number>(n);
  let err = 0;
  let total = 0;
  for (let i = 0; i < half; i++) {
    const adjusted = values[i]! * mul * 256 + err;
    const v = roundHalfEven(adjusted);
    err = adjusted - v;
    taps[i] = taps[n - 1 - i] = v;
    total += v;
  }
  taps[half] = 256 - 2 * total;
  return taps;
}

// Histograms of the blurs' outputs, counted as they are written (the detector's thresholds come
// from the blurred image's median), keyed by the output buffer; they go when the buffer does.
const histograms = new WeakMap<Uint8Array, Uint32Array>();

/** The histogram of 256 bins of a blur's output, if `values` is one (counted during the blur). */
export function blurHistogram(values: Uint8Array): Uint32Array | undefined {
  return histograms.get(values);
}

const DEFAULT_TAPS = '28,61,78,61,28';

/** GaussianBlur `ksize` × `ksize` with `sigma` (see the file's comment), its histogram counted on the way (`blurHistogram`). */
export function gaussianBlur(image: Image8, ksize: number, sigma: number): Image8 {
  const taps = gaussianTaps(ksize, sigma);
  if (taps.join(',') === DEFAULT_TAPS) return blur5(image);
  const { k, dstAt, histAt } = blurNIn(image, taps);
  return blurred(k, image, dstAt, histAt);
}

/**
 * `gaussianBlur` left in the detector kernel's memory: the blurred pixels at `at` (width × height
 * bytes) and their histogram. Valid until the next call into the kernel reserves its memory again.
 */
export function blurInKernel(
  image: Image8,
  ksize: number,
  sigma: number,
): { k: Kernel; at: number; histogram: Uint32Array } {
  const taps = gaussianTaps(ksize, sigma);
  const { k, dstAt, histAt } =
    taps.join(',') === DEFAULT_TAPS ? blur5In(image) : blurNIn(image, taps);
  return { k, at: dstAt, histogram: new Uint32Array(k.memory.buffer, histAt, 256).slice() };
}

/** The blur with any taps in the kernel: where its output and histogram are. */
function blurNIn(image: Image8, taps: number[]): { k: Kernel; dstAt: number; histAt: number } {
  const ksize = taps.length;
  const k = detectorKernel();
  const { width: w, height: h, data } = image;
  const n = w * h;
  const scratch = align16(2 * (w + ksize)) + align16(4 * ksize) + 4096 + 64;
  const srcAt = reserve(k, 2 * align16(n) + 1024 + align16(2 * ksize) + scratch);
  const dstAt = srcAt + align16(n);
  const histAt = dstAt + align16(n);
  const tapsAt = histAt + 1024;
  new Uint8Array(k.memory.buffer, srcAt, n).set(data);
  new Uint16Array(k.memory.buffer, tapsAt, ksize).set(taps);
  k.exports.blurN!(srcAt, dstAt, w, h, tapsAt, ksize, histAt, tapsAt + align16(2 * ksize));
  return { k, dstAt, histAt };
}

/** GaussianBlur 5 × 5 with the taps [28, 61, 78, 61, 28] (σ 1.4): `gaussianBlur`'s fast case. */
export function blur5(image: Image8): Image8 {
  const { k, dstAt, histAt } = blur5In(image);
  return blurred(k, image, dstAt, histAt);
}

function blur5In(image: Image8): { k: Kernel; dstAt: number; histAt: number } {
  const k = detectorKernel();
  const { width: w, height: h, data } = image;
  const n = w * h;
  const srcAt = reserve(k, 2 * align16(n) + 1024 + align16(2 * (w + 4)) + 4096 + 64);
  const dstAt = srcAt + align16(n);
  const histAt = dstAt + align16(n);
  new Uint8Array(k.memory.buffer, srcAt, n).set(data);
  k.exports.blur5!(srcAt, dstAt, w, h, histAt, histAt + 1024);
  return { k, dstAt, histAt };
}

/** The blurred image at `dstAt`, its histogram at `histAt` remembered. */
function blurred(k: Kernel, image: Image8, dstAt: number, histAt: number): Image8 {
  const out = copyOut(k, dstAt, image.width * image.height);
  histograms.set(out, new Uint32Array(k.memory.buffer, histAt, 256).slice());
  return { width: image.width, height: image.height, channels: 1, data: out };
}
