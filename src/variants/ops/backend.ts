/**
 * Which implementation runs A3's detector (blur, Canny) and the metrics' bilinear resize: the
 * TypeScript kernels (canny.ts, resize-linear.ts) or opencv-wasm (opencv.ts). Both give the same
 * bytes (test/variants/ops/canny.test.ts). opencv-wasm costs about 0.3–0.4 s of CPU to load, once
 * per thread, and is then faster per pixel (WebAssembly SIMD: TypeScript takes some 3–9 ms more
 * per million pixels and call); the TypeScript kernels cost nothing to load. So a thread uses
 * TypeScript until its calls have handed it JS_BUDGET pixels in all, about what the load would
 * have cost (an A0–A5 entry of 1024² makes calls over about 8 M pixels: some eight entries), and
 * opencv-wasm from then on. A small run never loads it; a large one pays at most about twice the
 * load.
 */
export const JS_BUDGET = 64_000_000;

let jsPixels = 0;

/** Whether to compute `pixels` pixels with the TypeScript kernels (counts them against the budget). */
export function useJs(pixels: number): boolean {
  if (jsPixels >= JS_BUDGET) return false;
  jsPixels += pixels;
  return true;
}
