/**
 * One loaded isnet segmenter per test worker, for the test files that segment with real isnet
 * (isnet.test.ts, isnet-processes.test.ts, the real-package test of variants/run.test.ts, and
 * through `shareIsnetLoads` the variants stage inside bundle and rehydrate of
 * release/rehydrate-isnet.test.ts). Loading the network costs about 3 CPU-s and its first
 * inference about 5 (the next ones about 2: the memory arena is warm); the files of a worker share
 * one module graph, so the segmenter loaded by the first of them serves the others.
 *
 * The segmenter is a shared singleton: its `dispose()` does nothing (the session lives as long as
 * the worker), so no file can close it under another. A test of `dispose()` creates its own.
 */
import { vi } from 'vitest';
import {
  createSegmenter,
  describeSegmenter,
  type Segmenter,
} from '../../../src/variants/segment/index.js';
import { defaultSegmenterFactory } from '../../../src/variants/segment/segmenter.js';

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

/**
 * Until the returned function is called, the default segmenter factory (the one the variants stage
 * uses when nothing is injected: inside `bundle`, `rehydrate` …) creates its isnet segmenters as the
 * worker's shared one for the same parameters, instead of loading the network afresh each time.
 * The recipe's parameters still decide: the shared segmenter is keyed by their description, so a
 * command that passed other parameters would get another network and other masks. Everything else
 * (availability, the description, grabcut) stays the real factory's. Call the result in `afterAll`.
 *
 * @example
 * let restore: () => void;
 * beforeAll(() => { restore = shareIsnetLoads(); });
 * afterAll(() => restore());
 */
export function shareIsnetLoads(): () => void {
  const create = defaultSegmenterFactory.create.bind(defaultSegmenterFactory);
  const spy = vi
    .spyOn(defaultSegmenterFactory, 'create')
    .mockImplementation((method, params) =>
      method === 'isnet' ? sharedIsnet(params) : create(method, params),
    );
  return () => spy.mockRestore();
}
