/**
 * The one segmenter of a run (A6): described first without loading anything (the description is
 * part of A6's inputs hash, so reuse is decided before paying for a model), loaded only when some
 * A6 output must be computed, shared by every entry, one segmentation at a time (bounded memory),
 * disposed at the end. An unavailable model is not fatal: A6 fails for each entry with the reason
 * and the fix, and A0–A5 are still produced. Bad segmenter parameters in the recipe are fatal
 * (exit 1), like any other recipe error.
 */
import { errorMessage, StimkitError } from '../../core/errors.js';
import type { Recipe } from '../recipe.js';
import {
  createSegmenter,
  describeSegmenter,
  segmenterAvailable,
  type SegmentMethod,
  type Segmenter,
} from './index.js';
import type { SharedSegmenter } from '../types.js';
import { ISNET_REINSTALL } from './runtime.js';

/** How to obtain a segmenter (tests pass their own). */
export interface SegmenterFactory {
  available(method: SegmentMethod): Promise<{ ok: boolean; reason?: string }>;
  create(method: SegmentMethod, params: Record<string, unknown>): Promise<Segmenter>;
  /**
   * What `create(method, params)` would describe, without loading a model. Without it, the
   * segmenter is loaded to learn its description (and so whenever A6 is selected).
   */
  describe?(
    method: SegmentMethod,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
}

export const defaultSegmenterFactory: SegmenterFactory = {
  available: segmenterAvailable,
  create: createSegmenter,
  describe: describeSegmenter,
};

/** Who A6's outputs are made by, for the inputs hash: a segmenter description, or why there is none. */
export interface SegmenterIdentity {
  description?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** A loaded segmenter (or why there is none) and how to release it. */
export interface LoadedSegmenter {
  shared?: SharedSegmenter;
  error?: { code: string; message: string };
  dispose(): Promise<void>;
}

/** Serialise calls: one segmentation at a time on the shared session. */
export function shareSegmenter(segmenter: Segmenter): SharedSegmenter {
  let queue: Promise<unknown> = Promise.resolve();
  const description = segmenter.describe();
  return {
    description,
    segment: (rgb, width, height) => {
      const next = queue.then(() => segmenter.segment(rgb, width, height));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

function fixFor(method: SegmentMethod): string {
  return method === 'isnet'
    ? `install the isnet runtime with ${ISNET_REINSTALL}, or use --silhouette grabcut, or leave A6 out with --only A0,A1,A2,A3,A4,A5`
    : 'check the opencv-wasm installation, or leave A6 out with --only A0,A1,A2,A3,A4,A5';
}

function unavailableError(
  method: SegmentMethod,
  reason: string,
): { code: string; message: string } {
  return {
    code: 'E_VARIANTS_SEGMENTER_UNAVAILABLE',
    message: `the ${method} segmenter is not available: ${reason}. Fix: ${fixFor(method)}`,
  };
}

function isParamError(err: unknown): boolean {
  return err instanceof StimkitError && err.exitCode !== 0 && /PARAM/.test(err.code);
}

/**
 * The recipe's segmenter identity without loading a model (`factory.describe`), or null when the
 * factory cannot describe without loading. Bad params throw (a recipe error); anything else that
 * stops the description makes the segmenter unavailable.
 */
export async function identifySegmenter(
  recipe: Recipe,
  factory: SegmenterFactory = defaultSegmenterFactory,
): Promise<SegmenterIdentity | null> {
  if (!factory.describe) return null;
  const method = recipe.silhouette.method;
  try {
    return { description: await factory.describe(method, recipe.silhouette[method]) };
  } catch (err) {
    if (isParamError(err)) throw err;
    return { error: unavailableError(method, errorMessage(err)) };
  }
}

/** Load the recipe's segmenter, or use the injected one (which the caller disposes). */
export async function loadSegmenter(
  recipe: Recipe,
  injected?: Segmenter,
  factory: SegmenterFactory = defaultSegmenterFactory,
): Promise<LoadedSegmenter> {
  if (injected) return { shared: shareSegmenter(injected), dispose: () => Promise.resolve() };
  const method = recipe.silhouette.method;
  const params = recipe.silhouette[method];
  const unavailable = (reason: string): LoadedSegmenter => ({
    error: unavailableError(method, reason),
    dispose: () => Promise.resolve(),
  });
  let availability: { ok: boolean; reason?: string };
  try {
    availability = await factory.available(method);
  } catch (err) {
    availability = { ok: false, reason: errorMessage(err) };
  }
  if (!availability.ok) return unavailable(availability.reason ?? 'unknown reason');
  let segmenter: Segmenter;
  try {
    segmenter = await factory.create(method, params);
  } catch (err) {
    if (isParamError(err)) throw err;
    return unavailable(errorMessage(err));
  }
  return { shared: shareSegmenter(segmenter), dispose: () => segmenter.dispose() };
}
