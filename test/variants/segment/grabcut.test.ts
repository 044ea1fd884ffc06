/**
 * The grabcut segmenter: a synthetic dark disc on a light background (at full and at reduced
 * working resolution), determinism across calls and segmenters, the reference vector of
 * VARIANTS.md (small/input_96x64.png, whose reference GrabCut finds no foreground), and errors.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../../src/core/errors.js';
import {
  createSegmenter,
  describeSegmenter,
  segmenterAvailable,
} from '../../../src/variants/segment/index.js';
import { grabcutRect, workingSize } from '../../../src/variants/segment/grabcut.js';
import { decodeA0, decodeGrey, DEMO, disc, fraction, iou, VECTORS } from './fixtures.js';

describe('grabcut geometry', () => {
  it('uses the central 90 % rectangle of VARIANTS.md', () => {
    // The reference records rect_xywh [5, 3, 86, 58] for the 96×64 vector.
    expect(grabcutRect(96, 64, 0.05)).toEqual({ x: 5, y: 3, width: 86, height: 58 });
    expect(grabcutRect(1024, 683, 0.05)).toEqual({ x: 51, y: 34, width: 922, height: 615 });
  });

  it('reduces the long side to the working resolution, never enlarging', () => {
    expect(workingSize(1024, 683, 320)).toEqual({ w: 320, h: 213 }); // 683·320/1024 = 213.4
    expect(workingSize(300, 451, 320)).toEqual({ w: 213, h: 320 }); // 300·320/451 = 212.9
    expect(workingSize(96, 64, 320)).toEqual({ w: 96, h: 64 });
  });
});

describe('grabcut segmenter', () => {
  it('is available', async () => {
    expect(await segmenterAvailable('grabcut')).toEqual({ ok: true });
  });

  it('finds a dark disc on a light background (IoU ≥ 0.9), at full and reduced resolution', async () => {
    const seg = await createSegmenter('grabcut');
    try {
      const small = disc(120, 90, 30);
      const m1 = await seg.segment(small.rgb, small.width, small.height);
      expect(m1.length).toBe(120 * 90);
      expect(iou(m1, small.truth)).toBeGreaterThanOrEqual(0.9);
      // 640×480 is reduced to 320×240 for GrabCut and the mask brought back to 640×480.
      const big = disc(640, 480, 150);
      const m2 = await seg.segment(big.rgb, big.width, big.height);
      expect(m2.length).toBe(640 * 480);
      expect(iou(m2, big.truth)).toBeGreaterThanOrEqual(0.9);
      expect(new Set(m2)).toEqual(new Set([0, 1]));
    } finally {
      await seg.dispose();
    }
  });

  it('is deterministic: same input → same mask, whatever ran before and in a new segmenter', async () => {
    const img = await decodeA0(path.join(DEMO, 'coffee.png'));
    const a = await createSegmenter('grabcut', { resolution: 160 });
    const first = await a.segment(img.rgb, img.width, img.height);
    const other = disc(100, 80, 25);
    await a.segment(other.rgb, other.width, other.height); // advances OpenCV's RNG if not reseeded
    const second = await a.segment(img.rgb, img.width, img.height);
    const b = await createSegmenter('grabcut', { resolution: 160 });
    const third = await b.segment(img.rgb, img.width, img.height);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(third).equals(Buffer.from(first))).toBe(true);
    expect(fraction(first)).toBeGreaterThan(0.05);
  });

  it('agrees with the reference A6 vector (small/input_96x64.png: no foreground)', async () => {
    const input = await decodeA0(path.join(VECTORS, 'images', 'small', 'input_96x64.png'));
    const ref = await decodeGrey(path.join(VECTORS, 'images', 'small', 'A6_silhouette.png'));
    expect([ref.width, ref.height]).toEqual([input.width, input.height]);
    const seg = await createSegmenter('grabcut');
    const mask = await seg.segment(input.rgb, input.width, input.height);
    // Reference silhouette: 0 = subject, 255 = background; it was made by cv2 GrabCut with the
    // same rectangle and 5 iterations (image_vectors.json: raw_fg_fraction 0). Every pixel agrees.
    const refMask = ref.grey.map((v) => (v === 0 ? 1 : 0));
    expect(fraction(refMask)).toBe(0);
    expect(Buffer.from(mask).equals(Buffer.from(refMask))).toBe(true);
  });

  it('records its resolved parameters', async () => {
    const seg = await createSegmenter('grabcut', { resolution: 256 });
    const d = seg.describe();
    expect(d).toMatchObject({
      method: 'grabcut',
      params: { resolution: 256, iterations: 5, seed: 0, margin: 0.05 },
    });
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect((d.library as { version: unknown }).version).toMatch(/^4\.3\.0/);
    // the same description without creating a segmenter (the variants stage decides reuse with it)
    expect(await describeSegmenter('grabcut', { resolution: 256 })).toEqual(d);
    expect(
      await describeSegmenter('grabcut', { resolution: 8 }).catch(
        (e: unknown) => (e as StimkitError).code,
      ),
    ).toBe('E_SEGMENT_PARAM');
  });

  it('rejects bad input, bad parameters and images too small for a background margin', async () => {
    const seg = await createSegmenter('grabcut');
    const bad = await seg.segment(new Uint8Array(10), 2, 2).catch((e: unknown) => e);
    expect((bad as StimkitError).code).toBe('E_SEGMENT_INPUT');
    const tiny = disc(8, 8, 2);
    const small = await seg.segment(tiny.rgb, 8, 8).catch((e: unknown) => e);
    expect((small as StimkitError).code).toBe('E_SEGMENT_IMAGE_TOO_SMALL');
    const param = await createSegmenter('grabcut', {
      resolution: 8,
      iterations: 0,
      colour: 1,
    }).catch((e: unknown) => e);
    expect(param).toBeInstanceOf(StimkitError);
    const p = param as StimkitError;
    expect(p.code).toBe('E_SEGMENT_PARAM');
    expect(p.problems.map((x) => x.field).sort()).toEqual([
      'silhouette.grabcut',
      'silhouette.grabcut.iterations',
      'silhouette.grabcut.resolution',
    ]);
    expect(p.message).toMatch(/resolution.*>=16/);
    const method = await createSegmenter('watershed' as 'grabcut').catch((e: unknown) => e);
    expect((method as StimkitError).code).toBe('E_SEGMENT_METHOD');
  });
});
