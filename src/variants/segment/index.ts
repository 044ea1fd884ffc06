/**
 * A6 foreground segmentation (VARIANTS.md, A6): `createSegmenter('isnet' | 'grabcut', params)`
 * and `segmenterAvailable(method)`. A segmenter returns a 0/1 foreground mask at A0 size; the
 * silhouette variant post-processes and renders it. See docs/segmentation.md.
 *
 * @example
 * ```ts
 * const seg = await createSegmenter('isnet');
 * try {
 *   const mask = await seg.segment(rgb, width, height); // Uint8Array, width*height, 1 = subject
 *   lock.segmenter = seg.describe();
 * } finally {
 *   await seg.dispose();
 * }
 * ```
 */
import { StimkitError } from '../../core/errors.js';
import { createGrabcutSegmenter, describeGrabcut, loadCv } from './grabcut.js';
import { createIsnetSegmenter, describeIsnet, loadOrt } from './isnet.js';
import { locatePackage } from './package.js';
import type { SegmentMethod, Segmenter } from './types.js';

export type { SegmentMethod, Segmenter } from './types.js';

/** The methods, the default first. */
const SEGMENT_METHODS: readonly SegmentMethod[] = ['isnet', 'grabcut'];

function unknownMethod(method: unknown): StimkitError {
  return StimkitError.fromProblem({
    code: 'E_SEGMENT_METHOD',
    field: 'silhouette.method',
    message: 'unknown segmentation method',
    expected: SEGMENT_METHODS.map((m) => JSON.stringify(m)).join(' or '),
    got: JSON.stringify(method),
    fix: 'use isnet (the network, default) or grabcut (classical fallback)',
  });
}

/**
 * Create a segmenter. `params` are checked against the method's schema (unknown keys and values
 * out of range throw `E_SEGMENT_PARAM`); an unusable method throws `E_SEGMENT_UNAVAILABLE`.
 * isnet params: `model` ('medium' | 'small'), `threshold` (0..1, 0.5), `threads` (0 = all cores).
 * grabcut params: `resolution` (long side, 320), `iterations` (5), `seed` (0), `margin` (0.05).
 */
export async function createSegmenter(
  method: SegmentMethod,
  params?: Record<string, unknown>,
): Promise<Segmenter> {
  if (method === 'isnet') return createIsnetSegmenter(params);
  if (method === 'grabcut') return createGrabcutSegmenter(params);
  throw unknownMethod(method);
}

/**
 * What `(await createSegmenter(method, params)).describe()` would return, without loading a model
 * or its runtime (for isnet: the package's files, its chunk list, the pinned digest). The variants
 * stage uses it to decide whether A6 outputs can be reused before paying for the model. Throws
 * `E_SEGMENT_PARAM` for bad params and the errors of a missing package or chunk list.
 */
export async function describeSegmenter(
  method: SegmentMethod,
  params?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (method === 'isnet') return describeIsnet(params);
  if (method === 'grabcut') return describeGrabcut(params);
  throw unknownMethod(method);
}

/**
 * Whether `method` can run here, without loading a model: for isnet, that the model package
 * and its chunk list are present and onnxruntime-node loads; for grabcut, that opencv-wasm loads.
 * `reason` says why not and how to fix it.
 */
export async function segmenterAvailable(
  method: SegmentMethod,
): Promise<{ ok: boolean; reason?: string }> {
  try {
    if (method === 'isnet') {
      const found = locatePackage();
      if (!found.ok) return { ok: false, reason: found.reason };
      await loadOrt();
      return { ok: true };
    }
    if (method === 'grabcut') {
      loadCv();
      return { ok: true };
    }
    return { ok: false, reason: unknownMethod(method).message };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
