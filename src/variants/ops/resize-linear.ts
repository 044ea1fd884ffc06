/**
 * OpenCV's bilinear resize (INTER_LINEAR) of an 8-bit grey image, bit for bit as opencv-wasm
 * (OpenCV 4.3) computes it, without loading it. Source coordinate of a destination pixel
 * `(d + 0.5)·scale − 0.5` in single precision; weights `1 − f` and `f` rounded to 11-bit fixed
 * point. Columns are clamped to the image (a clamped column takes weight 1); rows are not (a row
 * index outside is read from the nearest row, the weights kept). Rows are interpolated
 * horizontally into integers, then vertically as OpenCV's vector code does:
 * `(((r0 >> 4)·b0 >> 16) + ((r1 >> 4)·b1 >> 16) + 2) >> 2`.
 */
import { pixelsKernel, resizeLinearKernel } from '../kernels/pixels.js';
import type { Image8 } from '../types.js';

const SCALE = 2048; // INTER_RESIZE_COEF_SCALE

/** cvRound: round half to even. */
function cvRound(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Per destination index: the first source index and the two fixed-point weights. */
function axis(
  src: number,
  dst: number,
  clamp: boolean,
): { ofs: Int32Array; a0: Int32Array; a1: Int32Array } {
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
    a0[d] = cvRound(Math.fround(1 - f) * SCALE);
    a1[d] = cvRound(f * SCALE);
  }
  return { ofs, a0, a1 };
}

/**
 * INTER_LINEAR resize of a grey image by the WebAssembly kernel (kernels/as/pixels.ts): the same
 * bytes as `resizeLinearJs`; null when the kernel is not built or STIMKIT_KERNELS=js.
 */
export function resizeLinearWasm(image: Image8, width: number, height: number): Image8 | null {
  const { width: sw, height: sh, data } = image;
  if (!pixelsKernel()) return null;
  const out = resizeLinearKernel(
    data,
    sw,
    sh,
    width,
    height,
    axis(sw, width, true),
    axis(sh, height, false),
  );
  return out ? { width, height, channels: 1, data: out } : null;
}

/** INTER_LINEAR resize of a grey image (see the file's comment). */
export function resizeLinearJs(image: Image8, width: number, height: number): Image8 {
  const { width: sw, height: sh, data } = image;
  const X = axis(sw, width, true);
  const Y = axis(sh, height, false);
  // Horizontally interpolated source rows; the rows a destination row reads never go back up,
  // so two buffers (the last two rows made) suffice.
  const rowA = new Int32Array(width);
  const rowB = new Int32Array(width);
  let idxA = -1;
  let idxB = -1;
  const xofs = X.ofs;
  const xa0 = X.a0;
  const xa1 = X.a1;
  const fill = (buf: Int32Array, r: number): void => {
    const o = r * sw;
    for (let x = 0; x < width; x++) {
      const s = xofs[x]!;
      buf[x] =
        s + 1 < sw ? data[o + s]! * xa0[x]! + data[o + s + 1]! * xa1[x]! : data[o + s]! * SCALE;
    }
  };
  const row = (r: number): Int32Array => {
    if (r === idxA) return rowA;
    if (r === idxB) return rowB;
    // Replace the older of the two (the one with the smaller index).
    if (idxA < idxB) {
      fill(rowA, r);
      idxA = r;
      return rowA;
    }
    fill(rowB, r);
    idxB = r;
    return rowB;
  };
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const s = Y.ofs[y]!;
    const i0 = Math.min(Math.max(s, 0), sh - 1);
    const i1 = Math.min(Math.max(s + 1, 0), sh - 1);
    const r0 = row(i0);
    const r1 = row(i1);
    const b0 = Y.a0[y]!;
    const b1 = Y.a1[y]!;
    const o = y * width;
    // Weights summing to 2048 keep v within 0…255.
    for (let x = 0; x < width; x++)
      out[o + x] = ((((r0[x]! >> 4) * b0) >> 16) + (((r1[x]! >> 4) * b1) >> 16) + 2) >> 2;
  }
  return { width, height, channels: 1, data: out };
}
