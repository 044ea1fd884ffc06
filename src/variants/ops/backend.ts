/**
 * Which implementation runs A3's detector (blur, Canny) and the metrics' bilinear resize: the
 * TypeScript kernels (canny.ts, resize-linear.ts) or opencv-wasm (opencv.ts). Both give the same
 * bytes (test/variants/ops/canny.test.ts). opencv-wasm costs about 0.3–0.4 s of CPU to load, once
 * per thread, and is then about twice as fast per pixel (WebAssembly SIMD); the TypeScript kernels
 * cost nothing to load. So a thread uses TypeScript until it has handed it JS_BUDGET pixels, about
 * what the load would have cost (some nine 1024² entries), and opencv-wasm from then on: a small
 * run never loads it, a large one pays its load at most once more than it had to.
 */
export const JS_BUDGET = 32_000_000;

let jsPixels = 0;

/** Whether to compute `pixels` pixels with the TypeScript kernels (counts them against the budget). */
export function useJs(pixels: number): boolean {
  if (jsPixels >= JS_BUDGET) return false;
  jsPixels += pixels;
  return true;
}
