/**
 * opencv-wasm (OpenCV 4.3 compiled to WebAssembly), loaded once on first use: the independent
 * reference the tests and the variants bench compare A3's detector (blur, Canny) and the bilinear
 * resize with. stimkit itself runs these in its own WebAssembly kernel; it uses opencv-wasm only
 * for A6's GrabCut. Every Mat is freed in `finally`: WebAssembly memory is not garbage-collected.
 */
import { createRequire } from 'node:module';
import type { Image8 } from '../../src/variants/types.js';

/** The part of a cv.Mat used here. */
interface CvMat {
  rows: number;
  cols: number;
  data: Uint8Array;
  delete(): void;
}

/** The part of opencv-wasm's `cv` used here (its own typings declare everything `any`). */
interface Cv {
  Mat: new (...args: unknown[]) => CvMat;
  Size: new (width: number, height: number) => unknown;
  CV_8UC1: number;
  CV_8UC3: number;
  BORDER_REFLECT_101: number;
  INTER_LINEAR: number;
  GaussianBlur(
    src: CvMat,
    dst: CvMat,
    ksize: unknown,
    sigmaX: number,
    sigmaY: number,
    borderType: number,
  ): void;
  Canny(src: CvMat, dst: CvMat, low: number, high: number, aperture: number, l2: boolean): void;
  resize(
    src: CvMat,
    dst: CvMat,
    size: unknown,
    fx: number,
    fy: number,
    interpolation: number,
  ): void;
}

let loaded: Cv | undefined;

/** The opencv-wasm module (synchronous load of about 0.3 s, once per process). */
function cv(): Cv {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    loaded = (require('opencv-wasm') as { cv: Cv }).cv;
  }
  return loaded;
}

/** Run `fn` with fresh Mats, deleting all of them afterwards, whatever happens. */
function withMats<T>(count: number, fn: (...mats: CvMat[]) => T): T {
  const c = cv();
  const mats: CvMat[] = [];
  try {
    for (let i = 0; i < count; i++) mats.push(new c.Mat());
    return fn(...mats);
  } finally {
    for (const m of mats) m.delete();
  }
}

/** A Mat holding a copy of an 8-bit grey image; the caller deletes it. */
function greyMat(image: Image8): CvMat {
  if (image.channels !== 1) throw new Error('greyMat needs a 1-channel image');
  const c = cv();
  const m = new c.Mat(image.height, image.width, c.CV_8UC1);
  m.data.set(image.data);
  return m;
}

/** A grey image holding a copy of a Mat's pixels. */
function imageFromMat(m: CvMat): Image8 {
  return { width: m.cols, height: m.rows, channels: 1, data: new Uint8Array(m.data) };
}

/** OpenCV's GaussianBlur (fixed point for 8-bit, reflect-101 borders). */
export function gaussianBlur(image: Image8, ksize: number, sigma: number): Image8 {
  const c = cv();
  const src = greyMat(image);
  try {
    return withMats(1, (dst) => {
      c.GaussianBlur(src, dst, new c.Size(ksize, ksize), sigma, sigma, c.BORDER_REFLECT_101);
      return imageFromMat(dst);
    });
  } finally {
    src.delete();
  }
}

/** OpenCV's Canny on an 8-bit grey image: 255 on edges, 0 elsewhere. */
export function canny(
  image: Image8,
  low: number,
  high: number,
  aperture: number,
  l2: boolean,
): Image8 {
  const c = cv();
  const src = greyMat(image);
  try {
    return withMats(1, (dst) => {
      c.Canny(src, dst, low, high, aperture, l2);
      return imageFromMat(dst);
    });
  } finally {
    src.delete();
  }
}

/** OpenCV's bilinear resize (INTER_LINEAR, fixed point for 8-bit) of a grey image. */
export function resizeLinear(image: Image8, width: number, height: number): Image8 {
  const c = cv();
  const src = greyMat(image);
  try {
    return withMats(1, (dst) => {
      c.resize(src, dst, new c.Size(width, height), 0, 0, c.INTER_LINEAR);
      return imageFromMat(dst);
    });
  } finally {
    src.delete();
  }
}
