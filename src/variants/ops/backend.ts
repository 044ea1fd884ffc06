/**
 * Which implementation runs A3's detector (blur, Canny) and the metrics' bilinear resize: our own
 * kernels (canny.ts, resize-linear.ts) or opencv-wasm (opencv.ts). Both give the same bytes
 * (test/variants/ops/canny.test.ts).
 *
 * The detector's WebAssembly kernel (kernels/as/edges.ts), when built, is faster per pixel than
 * opencv-wasm (about 3 ms against 14 ms of CPU for a blur or a Canny of 1024²) and costs nothing
 * to load, so the detector always runs in canny.ts then (`ownDetector`) and its pixels do not
 * count against the budget below.
 *
 * The budget is for the TypeScript loops (the resize, and the detector without its kernel: not
 * built, or STIMKIT_KERNELS=js). opencv-wasm costs about 0.3–0.4 s of CPU to load, once per
 * thread, and is then faster per pixel than those loops (they take some 3–9 ms more per million
 * pixels and call). So a thread uses TypeScript until its calls have handed it JS_BUDGET pixels in
 * all, about what the load would have cost (an A0–A5 entry of 1024² makes calls over about 8 M
 * pixels with the detector in TypeScript, about 1 M without), and opencv-wasm from then on. A
 * small run never loads it; a large one pays at most about twice the load.
 */
import { detectorKernel } from './canny.js';

const JS_BUDGET = 64_000_000;

let jsPixels = 0;

/** Whether to compute `pixels` pixels with the TypeScript kernels (counts them against the budget). */
export function useJs(pixels: number): boolean {
  if (jsPixels >= JS_BUDGET) return false;
  jsPixels += pixels;
  return true;
}

/** Whether A3's detector runs in canny.ts for `pixels` pixels: always with its WebAssembly kernel, else within the budget. */
export function ownDetector(pixels: number): boolean {
  return detectorKernel(pixels) !== null || useJs(pixels);
}
