/**
 * Which implementation runs the metrics' bilinear resize: our own (resize-linear.ts) or
 * opencv-wasm (opencv.ts). Both give the same bytes (test/variants/ops/canny.test.ts).
 *
 * The budget is for the TypeScript loops of the resize. opencv-wasm costs about 0.3–0.4 s of CPU
 * to load, once per thread, and is then faster per pixel than those loops (they take some 3–9 ms
 * more per million pixels and call). So a thread uses TypeScript until its calls have handed it
 * JS_BUDGET pixels in all, about what the load would have cost, and opencv-wasm from then on. A
 * small run never loads it; a large one pays at most about twice the load. (A3's detector does not
 * count: it runs in its WebAssembly kernel, see canny.ts.)
 */
const JS_BUDGET = 64_000_000;

let jsPixels = 0;

/** Whether to compute `pixels` pixels with the TypeScript kernels (counts them against the budget). */
export function useJs(pixels: number): boolean {
  if (jsPixels >= JS_BUDGET) return false;
  jsPixels += pixels;
  return true;
}
