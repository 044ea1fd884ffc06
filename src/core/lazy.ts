/**
 * A CommonJS package loaded on first use rather than at start-up: each command's process loads
 * only what the work it does needs (a run without a terminal draws no progress bar, a bundle
 * without its own language pack checks no cue).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A function that loads the package `id` the first time it is called and returns it.
 *
 * @example
 * const normalCdf = lazyRequire<(x: number) => number>('@stdlib/stats-base-dists-normal-cdf');
 * normalCdf()(0) // → 0.5
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
