/**
 * OpenCV's bilinear resize (INTER_LINEAR) of an 8-bit grey image, bit for bit as opencv-wasm
 * (OpenCV 4.3) computes it, without loading it. Source coordinate of a destination pixel
 * `(d + 0.5)·scale − 0.5` in single precision; weights `1 − f` and `f` rounded to 11-bit fixed
 * point. Columns are clamped to the image (a clamped column takes weight 1); rows are not (a row
 * index outside is read from the nearest row, the weights kept). Rows are interpolated
 * horizontally into integers, then vertically as OpenCV's vector code does:
 * `(((r0 >> 4)·b0 >> 16) + ((r1 >> 4)·b1 >> 16) + 2) >> 2`. The arithmetic runs in the WebAssembly
 * kernel (kernels/as/pixels.ts), its one implementation (E_VARIANTS_KERNEL_MISSING when it is not
 * built); this file lays out its coefficients. An exact 2× reduction on both axes is where OpenCV
 * takes its area path instead: each output the mean of a 2 × 2 block, `(sum + 2) >> 2`.
 * test/variants/ops/canny.test.ts compares both with opencv-wasm's `cv.resize`.
 */
import { resizeLinearKernel, type LinearAxis } from '../kernels/pixels.js';
import { roundHalfEven } from './blur.js';
import { keptPerKey } from './kept.js';
import type { Image8 } from '../types.js';

const SCALE = 2048; // INTER_RESIZE_COEF_SCALE

const axes = keptPerKey<LinearAxis>();

/** `axisOf`, kept per thread for each (src, dst, clamp) met. */
function axis(src: number, dst: number, clamp: boolean): LinearAxis {
  return axes(`${src} ${dst} ${clamp}`, () => axisOf(src, dst, clamp));
}

/** Per destination index: the first source index and the two fixed-point weights. */
function axisOf(src: number, dst: number, clamp: boolean): LinearAxis {
  const scale = src / dst;
  const ofs = new Int32Array(dst);
  const a0 = new Int32Array(dst);
  const a1 = new Int32Array(dst);
  for (let d = 0; d < dst; d++) {
    let f = Math.fround((d + 0.5) * scale - 0.5);
    let s = Math.floor(f);
    f = Math.fround(f - s);
    if (clamp && s < 0) {
      f = 0;
      s = 0;
    }
    if (clamp && s >= src - 1) {
      f = 0;
      s = src - 1;
    }
    ofs[d] = s;
    a0[d] = roundHalfEven(Math.fround(1 - f) * SCALE);
    a1[d] = roundHalfEven(f * SCALE);
  }
  return { ofs, a0, a1 };
}

/** OpenCV's INTER_LINEAR resize of a grey image to `width` × `height` (the bytes of `cv.resize`). */
export function resizeLinear(image: Image8, width: number, height: number): Image8 {
  const { width: sw, height: sh, data } = image;
  if (sw === 2 * width && sh === 2 * height) return halve(image);
  const X = axis(sw, width, true);
  const Y = axis(sh, height, false);
  return {
    width,
    height,
    channels: 1,
    data: resizeLinearKernel(data, sw, sh, width, height, X, Y),
  };
}

/** OpenCV's area path of an exact 2× reduction: the mean of each 2 × 2 block, rounded half up. */
function halve(image: Image8): Image8 {
  const { width: sw, data } = image;
  const width = sw / 2;
  const height = image.height / 2;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const a = 2 * y * sw;
    const b = a + sw;
    for (let x = 0; x < width; x++) {
      const s = data[a + 2 * x]! + data[a + 2 * x + 1]! + data[b + 2 * x]! + data[b + 2 * x + 1]!;
      out[y * width + x] = (s + 2) >> 2;
    }
  }
  return { width, height, channels: 1, data: out };
}
