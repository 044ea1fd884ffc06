/**
 * A3 edge map (removes surfaces): OpenCV's Gaussian (by default 5 × 5, σ 1.4; fixed point,
 * reflect-101; blur.ts), then Canny (by default aperture 3, L1 gradient; canny.ts) with thresholds
 * 0.66 and 1.33 × the median of the blurred image (OpenCV floors them). Edges black (0) on white
 * (255). VARIANTS.md, A3.
 */
import type { Recipe } from '../recipe.js';
import { blurHistogram, blurInKernel, gaussianBlur } from './blur.js';
import { cannyCounted, cannyCountsAt, complement, countEqual } from './canny.js';
import type { Image8, VariantDef } from '../types.js';

/**
 * Median of 8-bit values: the mean of the two middle values for an even count. The histogram of a
 * blur's output was counted during the blur and is not counted again.
 */
export function median8(values: Uint8Array): number {
  let hist = blurHistogram(values);
  if (!hist) {
    hist = new Uint32Array(256);
    for (let i = 0; i < values.length; i++) hist[values[i]!]!++;
  }
  return histogramMedian(hist, values.length);
}

/** The median of `n` 8-bit values from their histogram (`median8`). */
function histogramMedian(hist: Uint32Array, n: number): number {
  const kth = (k: number): number => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += hist[v]!;
      if (seen > k) return v;
    }
    return 255;
  };
  return n % 2 === 1 ? kth((n - 1) / 2) : (kth(n / 2 - 1) + kth(n / 2)) / 2;
}

/** Canny thresholds from a blurred image's median, as given to OpenCV and as OpenCV uses them. */
export interface EdgeThresholds {
  median: number;
  low: number;
  high: number;
  low_eff: number;
  high_eff: number;
}

/** `low = low_ratio·m`, `high = high_ratio·m`; OpenCV floors both (`low_eff`, `high_eff`). */
export function thresholdsFor(blurred: Image8, p: Recipe['edges']): EdgeThresholds {
  return thresholdsOfMedian(median8(blurred.data), p);
}

function thresholdsOfMedian(m: number, p: Recipe['edges']): EdgeThresholds {
  const low = p.low_ratio * m;
  const high = p.high_ratio * m;
  return { median: m, low, high, low_eff: Math.floor(low), high_eff: Math.floor(high) };
}

/** The blur of A3's detector. */
export function edgeBlur(grey: Image8, p: Recipe['edges']): Image8 {
  return gaussianBlur(grey, p.blur_ksize, p.blur_sigma);
}

/** Canny on an already blurred image with the given thresholds; 255 marks an edge. */
export function edgePixels(
  blurred: Image8,
  t: Pick<EdgeThresholds, 'low' | 'high'>,
  p: Recipe['edges'],
): Image8 {
  const { image, count } = cannyCounted(blurred, t.low, t.high, p);
  counted.set(image.data, { value: 255, count });
  return image;
}

/**
 * The edge fractions of a grey image with the detector's own thresholds and with `other`
 * (`auto`, `fixed`): `edgeFractions(edgeBlur(grey), [thresholdsFor(blur), other])` without taking
 * the blurred image out of the kernel (it is needed for nothing else).
 */
export function edgeFractionsOwnAnd(
  grey: Image8,
  other: Pick<EdgeThresholds, 'low' | 'high'>,
  p: Recipe['edges'],
): { auto: number; fixed: number } {
  const { width: w, height: h } = grey;
  const { k, at, histogram } = blurInKernel(grey, p.blur_ksize, p.blur_sigma);
  const own = thresholdsOfMedian(histogramMedian(histogram, w * h), p);
  const same = own.low === other.low && own.high === other.high;
  const pairs = (same ? [own] : [own, other]).map((t) => [t.low, t.high] as const);
  const [auto, fixed] = cannyCountsAt(k, at, w, h, pairs, p).map((c) => c / (w * h));
  return { auto: auto!, fixed: fixed ?? auto! };
}

// Counts already known of an image's pixels at one value (an edge map's edges, as Canny counted
// them), keyed by its pixel buffer (never modified once made); they go when the buffer does.
const counted = new WeakMap<Uint8Array, { value: number; count: number }>();

/** Fraction of pixels equal to `value` (255: edges of an edge map; 0: of A3). */
export function fractionOf(image: Image8, value: number): number {
  const data = image.data;
  const known = counted.get(data);
  if (known && known.value === value) return known.count / data.length;
  return countEqual(data, value) / data.length;
}

/** The detector's result on one image: its blur, its own thresholds, its edges (255). */
export interface Detected {
  blurred: Image8;
  thresholds: EdgeThresholds;
  edges: Image8;
}

// A2 goes through the detector twice per entry (A3 itself, and the metrics' reference): once is
// enough. Keyed by the pixel buffer and the parameters; entries go when the buffer does.
const detected = new WeakMap<Uint8Array, { key: string; value: Detected }>();

/** Blur, thresholds from the median, Canny: the detector with its own thresholds (cached per image and parameters). */
export function detect(grey: Image8, p: Recipe['edges']): Detected {
  const key = JSON.stringify(p);
  const hit = detected.get(grey.data);
  if (hit && hit.key === key) return hit.value;
  const blurred = edgeBlur(grey, p);
  const thresholds = thresholdsFor(blurred, p);
  const value = { blurred, thresholds, edges: edgePixels(blurred, thresholds, p) };
  detected.set(grey.data, { key, value });
  return value;
}

/** A3 from A2: blur, thresholds from the median, Canny, edges → 0, else 255. */
export function edgeMap(
  a2: Image8,
  p: Recipe['edges'],
): { image: Image8; thresholds: EdgeThresholds } {
  const { thresholds, edges } = detect(a2, p);
  const out = complement(edges.data); // edges 255 → 0, the rest 0 → 255
  const known = counted.get(edges.data);
  if (known) counted.set(out, { value: 0, count: known.count });
  return { image: { ...edges, data: out }, thresholds };
}

export const edges: VariantDef = {
  code: 'A3',
  name: 'edges',
  removes: 'surfaces (Canny edges, black on white)',
  recipeKeys: ['edges'],
  run: (ctx) => {
    const { image, thresholds } = edgeMap(ctx.a2, ctx.recipe.edges);
    return { image, params: { ...ctx.recipe.edges, thresholds } };
  },
};
