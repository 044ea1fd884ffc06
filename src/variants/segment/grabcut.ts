/**
 * The `grabcut` segmenter: OpenCV GrabCut (opencv-wasm 4.3) initialised with the central
 * rectangle, the classical fallback when the IS-Net package is not installed.
 *
 * GrabCut in WebAssembly takes ≈ 15 s on a 1024 px image, so it runs on a reduced copy: the A0
 * image is shrunk with `cv.resize(INTER_AREA)` so that its long side is `resolution` (never
 * enlarged; short side `max(1, floor(short·resolution/long + 1/2))`), the rectangle is computed
 * on that copy (`x0 = floor(margin·w + 1/2)`, width `w − 2·x0`, likewise for y), GrabCut runs
 * `iterations` times after `cv.setRNGSeed(seed)`, foreground = GC_FGD ∪ GC_PR_FGD, and the
 * mask is brought back to A0 size by bilinear interpolation (half-pixel centres) + `≥ 0.5`.
 */
import { createRequire } from 'node:module';
import { StimkitError } from '../../core/errors.js';
import { GrabcutParamsSchema, parseParams, type GrabcutParams } from './params.js';
import { upsampleMask } from './resample.js';
import { checkRgb } from './util.js';
import type { Segmenter } from './types.js';

/** The few opencv.js calls we use (its bundled typings are `any`). */
interface CvMat {
  data: Uint8Array;
  rows: number;
  cols: number;
  delete(): void;
}
interface Cv {
  Mat: new (rows?: number, cols?: number, type?: number) => CvMat;
  Rect: new (x: number, y: number, w: number, h: number) => unknown;
  Size: new (w: number, h: number) => unknown;
  CV_8UC3: number;
  INTER_AREA: number;
  GC_INIT_WITH_RECT: number;
  GC_FGD: number;
  GC_PR_FGD: number;
  setRNGSeed(seed: number): void;
  resize(
    src: CvMat,
    dst: CvMat,
    size: unknown,
    fx: number,
    fy: number,
    interpolation: number,
  ): void;
  grabCut(
    img: CvMat,
    mask: CvMat,
    rect: unknown,
    bgd: CvMat,
    fgd: CvMat,
    iterations: number,
    mode: number,
  ): void;
}
interface CvModule {
  cv: Cv;
  cvTranslateError(this: void, cv: Cv, err: unknown): string | Error | undefined;
}

let cvModule: CvModule | undefined;
/** opencv-wasm, loaded once (synchronous WebAssembly instantiation on first use). */
export function loadCv(): CvModule {
  cvModule ??= createRequire(import.meta.url)('opencv-wasm') as CvModule;
  return cvModule;
}

/** The installed opencv-wasm version (its package.json), for the lock. */
function cvVersion(): string | null {
  try {
    return (
      (createRequire(import.meta.url)('opencv-wasm/package.json') as { version?: string })
        .version ?? null
    );
  } catch {
    return null;
  }
}

/** The working size: long side reduced to `resolution`, never enlarged. */
export function workingSize(
  width: number,
  height: number,
  resolution: number,
): { w: number; h: number } {
  const long = Math.max(width, height);
  if (long <= resolution) return { w: width, h: height };
  const short = Math.max(1, Math.floor((Math.min(width, height) * resolution) / long + 0.5));
  return width >= height ? { w: resolution, h: short } : { w: short, h: resolution };
}

/** The initial rectangle on a `w × h` image: `x0 = floor(margin·w + 1/2)`, width `w − 2·x0`. */
export function grabcutRect(
  w: number,
  h: number,
  margin: number,
): { x: number; y: number; width: number; height: number } {
  const x = Math.floor(margin * w + 0.5);
  const y = Math.floor(margin * h + 0.5);
  return { x, y, width: w - 2 * x, height: h - 2 * y };
}

/** Run GrabCut on 8-bit RGB at its own size; returns the 0/1 mask (GC_FGD ∪ GC_PR_FGD). */
function grabcutMask(rgb: Uint8Array, width: number, height: number, p: GrabcutParams): Uint8Array {
  const { cv, cvTranslateError } = loadCv();
  const work = workingSize(width, height, p.resolution);
  const rect = grabcutRect(work.w, work.h, p.margin);
  if ((rect.x === 0 && rect.y === 0) || rect.width < 1 || rect.height < 1) {
    throw StimkitError.fromProblem({
      code: 'E_SEGMENT_IMAGE_TOO_SMALL',
      message: `grabcut needs background outside its initial rectangle, but at ${work.w}×${work.h} the rectangle covers the whole image`,
      expected: `a working image with a margin of at least one pixel (e.g. one side ≥ ${Math.ceil(0.5 / p.margin)} px)`,
      got: `${work.w}×${work.h}`,
      fix: 'use a larger image or the isnet method',
    });
  }
  const mats: CvMat[] = [];
  const track = (m: CvMat): CvMat => (mats.push(m), m);
  try {
    const src = track(new cv.Mat(height, width, cv.CV_8UC3));
    // OpenCV convention: BGR order (GrabCut's colour models do not depend on channel order
    // mathematically; BGR keeps the floating-point order of a cv2 reference).
    const d = src.data;
    for (let i = 0; i < rgb.length; i += 3) {
      d[i] = rgb[i + 2]!;
      d[i + 1] = rgb[i + 1]!;
      d[i + 2] = rgb[i]!;
    }
    let img = src;
    if (work.w !== width || work.h !== height) {
      img = track(new cv.Mat());
      cv.resize(src, img, new cv.Size(work.w, work.h), 0, 0, cv.INTER_AREA);
    }
    const mask = track(new cv.Mat());
    const bgd = track(new cv.Mat());
    const fgd = track(new cv.Mat());
    cv.setRNGSeed(p.seed);
    cv.grabCut(
      img,
      mask,
      new cv.Rect(rect.x, rect.y, rect.width, rect.height),
      bgd,
      fgd,
      p.iterations,
      cv.GC_INIT_WITH_RECT,
    );
    const low = new Uint8Array(work.w * work.h);
    const m = mask.data;
    for (let i = 0; i < low.length; i++)
      low[i] = m[i] === cv.GC_FGD || m[i] === cv.GC_PR_FGD ? 1 : 0;
    return upsampleMask(low, work.w, work.h, width, height);
  } catch (err) {
    if (err instanceof StimkitError) throw err;
    const translated = cvTranslateError(cv, err);
    const message = translated instanceof Error ? translated.message : translated || String(err);
    throw new StimkitError(
      'E_SEGMENT_GRABCUT',
      `grabcut failed on a ${work.w}×${work.h} working image: ${message}`,
      {
        fix: 'rerun with --silhouette isnet, or without A6 (--only A0,A1,A2,A3,A4,A5)',
        cause: err,
      },
    );
  } finally {
    for (const m of mats) m.delete();
  }
}

/** What the lock records for a grabcut segmenter (`describe()`), from its params alone. */
function grabcutDescription(p: GrabcutParams): Record<string, unknown> {
  return {
    method: 'grabcut',
    library: { name: 'opencv-wasm', version: cvVersion() },
    params: {
      resolution: p.resolution,
      iterations: p.iterations,
      seed: p.seed,
      margin: p.margin,
      rect: 'x0 = floor(margin*w + 1/2), width = w - 2*x0 (likewise y), on the working image',
      downscale: 'long side to resolution (never enlarged) with cv.resize INTER_AREA, BGR',
      mode: 'GC_INIT_WITH_RECT, cv.setRNGSeed(seed) before each call',
      foreground: 'GC_FGD or GC_PR_FGD',
      upsample: 'bilinear (half-pixel centres) on the 0/1 mask to A0 size, foreground where >= 0.5',
    },
  };
}

/** The description a grabcut segmenter with `params` would give, without loading opencv-wasm. */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a throw (bad params, bad input) reaches the caller as a rejection, as the Segmenter contract says
export async function describeGrabcut(
  params?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return grabcutDescription(parseParams(GrabcutParamsSchema, params, 'grabcut'));
}

class GrabcutSegmenter implements Segmenter {
  readonly method = 'grabcut' as const;
  constructor(private readonly params: GrabcutParams) {}

  describe(): Record<string, unknown> {
    return grabcutDescription(this.params);
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- async so that a throw (bad params, bad input) reaches the caller as a rejection, as the Segmenter contract says
  async segment(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
    checkRgb(rgb, width, height);
    return grabcutMask(rgb, width, height, this.params);
  }

  dispose(): Promise<void> {
    // Nothing is held between calls: every Mat is freed in grabcutMask's `finally`.
    return Promise.resolve();
  }
}

/** Create the grabcut segmenter (validates `params`; loads opencv-wasm). */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a throw (bad params, bad input) reaches the caller as a rejection, as the Segmenter contract says
export async function createGrabcutSegmenter(params?: Record<string, unknown>): Promise<Segmenter> {
  const p = parseParams(GrabcutParamsSchema, params, 'grabcut');
  loadCv();
  return new GrabcutSegmenter(p);
}
