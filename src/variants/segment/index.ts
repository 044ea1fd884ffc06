/**
 * A6 foreground segmentation: `createSegmenter('isnet' | 'grabcut', params)` and
 * `segmenterAvailable(method)`. See docs/segmentation.md.
 */
import type { SegmentMethod, Segmenter } from './types.js';

export type { SegmentMethod, Segmenter } from './types.js';

/** Create a segmenter. Not implemented yet in this commit (the contract is fixed). */
export async function createSegmenter(method: SegmentMethod, params?: Record<string, unknown>): Promise<Segmenter> {
  void params;
  throw new Error(`segmenter ${method}: implementation in progress`);
}

/** Whether a method can run here, and if not, why and how to fix it. */
export async function segmenterAvailable(method: SegmentMethod): Promise<{ ok: boolean; reason?: string }> {
  return { ok: false, reason: `segmenter ${method}: implementation in progress` };
}
