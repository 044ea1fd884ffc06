/**
 * A4 binary two-tone (removes tones): Otsu's threshold on A2, computed exactly in integers. t in
 * 0..255 maximises `(N·S0 − n0·S)² / (n0·(N − n0))` over 0 < n0 < N (class 0 = values ≤ t; ties
 * to the smallest t; a constant image gives t = 0); `v > t` → 255, else 0. VARIANTS.md, A4.
 */
import { histogramKernel, thresholdKernel } from '../kernels/pixels.js';
import type { Image8, VariantDef } from '../types.js';

/** Otsu's threshold of 8-bit values, exact (BigInt comparisons of the fractions). */
export function otsuThreshold(values: Uint8Array): number {
  const hist = histogramKernel(values) ?? byteHistogramJs(values);
  const N = BigInt(values.length);
  let S = 0n;
  for (let v = 0; v < 256; v++) S += BigInt(v) * BigInt(hist[v]!);
  let bestT = 0;
  let bestNum = -1n;
  let bestDen = 1n;
  let n0 = 0n;
  let S0 = 0n;
  for (let t = 0; t < 256; t++) {
    n0 += BigInt(hist[t]!);
    S0 += BigInt(t) * BigInt(hist[t]!);
    if (n0 === 0n || n0 === N) continue;
    const d = N * S0 - n0 * S;
    const num = d * d;
    const den = n0 * (N - n0);
    // num/den > bestNum/bestDen, strictly: ties keep the smaller t.
    if (bestNum < 0n || num * bestDen > bestNum * den) {
      bestT = t;
      bestNum = num;
      bestDen = den;
    }
  }
  return bestT;
}

/** Counts of each byte value (256 entries), in TypeScript: the reference of the WebAssembly kernel. */
export function byteHistogramJs(values: Uint8Array): Uint32Array {
  const hist = new Uint32Array(256);
  for (let i = 0; i < values.length; i++) hist[values[i]!]!++;
  return hist;
}

/** `v > t` → 255, else 0: by the WebAssembly kernel (kernels/as/pixels.ts) when built, else `thresholdImageJs`. */
export function thresholdImage(grey: Image8, t: number): Image8 {
  const data = thresholdKernel(grey.data, t);
  return data
    ? { width: grey.width, height: grey.height, channels: 1, data }
    : thresholdImageJs(grey, t);
}

/** `thresholdImage` in TypeScript: the reference of the WebAssembly kernel. */
export function thresholdImageJs(grey: Image8, t: number): Image8 {
  const out = new Uint8Array(grey.data.length);
  for (let i = 0; i < out.length; i++) out[i] = grey.data[i]! > t ? 255 : 0;
  return { width: grey.width, height: grey.height, channels: 1, data: out };
}

export const binary: VariantDef = {
  code: 'A4',
  name: 'binary',
  removes: 'tones (Otsu two-tone)',
  recipeKeys: ['binary'],
  run: (ctx) => {
    const setting = ctx.recipe.binary.threshold;
    const t = setting === 'otsu' ? otsuThreshold(ctx.a2.data) : setting;
    return { image: thresholdImage(ctx.a2, t), params: { ...ctx.recipe.binary, t } };
  },
};
