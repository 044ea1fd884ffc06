/**
 * One loaded isnet segmenter per test worker, for the test files that segment with real isnet
 * (isnet.test.ts, isnet-processes.test.ts, the real-package test of variants/run.test.ts). Loading
 * the network and its first inference cost about 8 CPU-s; the files of a worker share one module
 * graph, so the segmenter loaded by the first of them serves the others.
 *
 * The segmenter is a shared singleton: its `dispose()` does nothing (the session lives as long as
 * the worker), so no file can close it under another. A test of `dispose()` creates its own.
 */
import {
  createSegmenter,
  describeSegmenter,
  type Segmenter,
} from '../../../src/variants/segment/index.js';

const loaded = new Map<string, Promise<Segmenter>>();

/**
 * The worker's isnet segmenter for `params` (one per distinct description: the description says
 * everything that changes a mask), created on first use.
 *
 * @example
 * const seg = await sharedIsnet();
 * const mask = await seg.segment(rgb, width, height);
 */
export async function sharedIsnet(params?: Record<string, unknown>): Promise<Segmenter> {
  const key = JSON.stringify(await describeSegmenter('isnet', params));
  let seg = loaded.get(key);
  if (!seg) {
    seg = createSegmenter('isnet', params);
    loaded.set(key, seg);
    // a failed load is not kept: the next caller tries again and sees the error itself
    seg.catch(() => loaded.delete(key));
  }
  const s = await seg;
  return {
    method: s.method,
    describe: () => s.describe(),
    segment: (rgb, width, height) => s.segment(rgb, width, height),
    dispose: () => Promise.resolve(),
  };
}
