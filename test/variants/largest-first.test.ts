/**
 * Entries start largest first (A0's pixels after the downscale), so that the last to start, which
 * decide when a run on several threads ends, are the quickest; the lock keeps corpus order.
 */
import { describe, expect, it } from 'vitest';
import type { LockEntry } from '../../src/ingest/lock.js';
import { largestFirst } from '../../src/variants/run.js';

const entry = (w: number | null, h: number | null): LockEntry =>
  ({ image: { resolved: { oriented_width: w, oriented_height: h } } }) as unknown as LockEntry;

describe('largestFirst', () => {
  it('orders by pixels after the downscale, ties and unknown sizes in corpus order', () => {
    const entries = [
      entry(800, 600), // 480,000
      entry(null, null), // unknown: last
      entry(4000, 3000), // 1024 × 768 after the downscale: 786,432
      entry(1024, 768), // the same: after the one before it
      entry(300, 200),
      entry(2048, 2048), // 1024 × 1024
    ];
    expect(largestFirst(entries, 1024)).toEqual([5, 2, 3, 0, 4, 1]);
    // Without a downscale, the 4000 × 3000 image is the largest.
    expect(largestFirst(entries, 8192)).toEqual([2, 5, 3, 0, 4, 1]);
  });
});
