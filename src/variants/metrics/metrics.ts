/**
 * The information-loss metrics of VARIANTS.md, per variant: SSIM against A2, edge density with
 * A3's detector (A2's thresholds, and the variant's own), spectral energy retained, low-frequency
 * AC energy fraction, foreground fraction (A3, A4, A6), area fraction kept (A1). RGB variants are
 * measured on their BT.601 luma. Key names follow the reference implementation's vectors.
 */
import { detect, edgeFractionsOwnAnd, fractionOf, type EdgeThresholds } from '../ops/edges.js';
import { fftfreq, sharedRows } from '../ops/fft.js';
import { axisBand, bandEnergy, rowsBand } from '../ops/fft-band.js';
import { passedColumns } from '../ops/lowpass.js';
import { luma } from '../ops/grayscale.js';
import { resizeLinear } from '../ops/resize-linear.js';
import { countKernel, sumsKernel } from '../kernels/pixels.js';
import type { Recipe } from '../recipe.js';
import { ssim, ssimReference, type SsimReference } from './ssim.js';
import type { Image8, MetricValue, VariantCode } from '../types.js';

/** What every variant's metrics compare against: A2, prepared once per entry. */
export interface MetricsBase {
  a2: Image8;
  ref: SsimReference;
  /** A2's Canny thresholds (A3's, used for `edge_density_fixedA2`) and edge density; computed on first use. */
  a2Edges(): { thresholds: EdgeThresholds; density: number };
  /** A2's low-frequency AC energy fraction (A0 and A2 share it), computed on first use. */
  a2LowFrequency?: number | null;
}

/** Prepare A2's side of the metrics. */
export function metricsBase(a2: Image8, recipe: Recipe): MetricsBase {
  let a2Edges: { thresholds: EdgeThresholds; density: number } | undefined;
  return {
    a2,
    ref: ssimReference(a2),
    a2Edges: () => {
      if (!a2Edges) {
        const { thresholds, edges } = detect(a2, recipe.edges);
        a2Edges = { thresholds, density: fractionOf(edges, 255) };
      }
      return a2Edges;
    },
  };
}

/**
 * Fraction of the AC energy (DC excluded) within radius `cutoff` (ρ ≤ c); null for a constant
 * image. The total comes from Parseval's identity, exactly in integers (`N·Σx² − (Σx)²`), so only
 * the low-frequency band of the spectrum is computed (ops/fft-band.ts).
 */
export function lowFrequencyFraction(
  grey: Image8,
  cutoff: number,
  shareCols?: number,
): number | null {
  const { width, height, data } = grey;
  // By the WebAssembly kernel (kernels/as/pixels.ts) when built: the same exact sums. N·Σx² − (Σx)²
  // is Σ over pairs of (xᵢ − xⱼ)², zero exactly when the image is constant.
  const fast = sumsKernel(data);
  if (
    fast
      ? BigInt(data.length) * fast.squares === BigInt(fast.sum) * BigInt(fast.sum)
      : isConstant(data)
  )
    return null;
  const { sum, squares: sumSq } = fast ?? pixelSumsJs(grey);
  const ac = Number(BigInt(data.length) * sumSq - BigInt(sum) * BigInt(sum));
  let keep = 1;
  while (keep < Math.floor(width / 2) + 1 && Math.abs(fftfreq(keep, width)) <= cutoff) keep++;
  // With `shareCols`, the row pass is computed with that many columns and kept for A5 (ops/fft.ts);
  // else only the kept columns (ops/fft-band.ts). The column pass computes only the band of row
  // frequencies the disc reaches.
  const rows =
    shareCols === undefined
      ? rowsBand(data, width, height, keep)
      : sharedRows(data, width, height, Math.max(keep, shareCols));
  const { below, above } = axisBand(height, cutoff);
  const low = bandEnergy(rows, Math.min(keep, rows.cols), below, above, cutoff);
  return low / ac;
}

function isConstant(data: Uint8Array): boolean {
  let constant = true;
  for (let i = 1; i < data.length && constant; i++) constant = data[i] === data[0];
  return constant;
}

/** Σx (in doubles: exact) and Σx² (per row, then exactly) of a grey image: the reference of the WebAssembly kernel's sums. */
export function pixelSumsJs(grey: Image8): { sum: number; squares: bigint } {
  const { width, height, data } = grey;
  let sum = 0;
  let sumSq = 0n;
  for (let y = 0; y < height; y++) {
    let rowSq = 0; // < 2^53 for any row of 8-bit values shorter than 2^37
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x]!;
      sum += v;
      rowSq += v * v;
    }
    sumSq += BigInt(rowSq);
  }
  return { sum, squares: sumSq };
}

/** Edge density of a grey image with A3's detector: with its own thresholds and with A2's. */
function edgeDensities(
  grey: Image8,
  base: MetricsBase,
  recipe: Recipe,
): { auto: number; fixed: number } {
  const a2 = base.a2Edges();
  if (grey === base.a2) return { auto: a2.density, fixed: a2.density };
  return edgeFractionsOwnAnd(grey, a2.thresholds, recipe.edges);
}

/**
 * The metrics of one variant's output. `params` is the variant's resolved parameters (A1's crop
 * box is read from it).
 */
export function variantMetrics(
  code: VariantCode,
  output: Image8,
  params: Record<string, unknown>,
  base: MetricsBase,
  recipe: Recipe,
): Record<string, MetricValue> {
  if (recipe.metrics.level === 'basic') return basicMetrics(code, output);
  const grey = code === 'A0' || code === 'A2' ? base.a2 : luma(output);
  const m: Record<string, MetricValue> = {};
  if (code === 'A1') {
    const [x, y, w, h] = params.crop_box_xywh as number[];
    const region = cropGrey(base.a2, x!, y!, w!, h!);
    // A1 is a copy of A0's pixels, so its luma equals A2's region and SSIM is 1 by definition;
    // computed only if they differ (they cannot, unless A1 is made another way).
    m.ssim_vs_A2_region =
      Math.min(w!, h!) >= 7 && equalBytes(region.data, grey.data) ? 1 : ssim(region, grey);
    m.ssim_vs_A2_upscaled_linear = ssim(
      base.ref,
      resizeLinear(grey, base.a2.width, base.a2.height),
    );
  } else {
    m.ssim_vs_A2 = ssim(base.ref, grey);
  }
  if (code === 'A3') {
    m.edge_density = fractionOf(output, 0);
    m.foreground_fraction = m.edge_density; // the same count: edges are the black pixels
  } else {
    const d = edgeDensities(grey, base, recipe);
    m.edge_density_auto = d.auto;
    m.edge_density_fixedA2 = d.fixed;
  }
  if (code === 'A4' || code === 'A6') m.foreground_fraction = countedFraction(output, 0);
  if (code === 'A0' || code === 'A2') {
    // No spectral filter is applied: all of the energy is retained by definition.
    m.spectral_energy_retained = 1;
    m.spectral_energy_retained_ac = 1;
  }
  if (grey === base.a2) {
    // A5's Gaussian low-pass of A2 transforms the same rows: share that pass.
    const p = recipe.lowpass;
    const share =
      p.filter === 'gaussian' && p.channels !== 'rgb' ? passedColumns(grey.width, p) : undefined;
    if (base.a2LowFrequency === undefined)
      base.a2LowFrequency = lowFrequencyFraction(grey, recipe.metrics.lowfreq_cutoff, share);
    m.lowfreq_energy_fraction_ac = base.a2LowFrequency;
  } else {
    m.lowfreq_energy_fraction_ac = lowFrequencyFraction(grey, recipe.metrics.lowfreq_cutoff);
  }
  return m;
}

/**
 * `metrics.level: basic`: the figures that cost no extra pass (A3's edge density, the foreground
 * fractions); the variants add their own (A1's area, A5's spectral energy, A6's raw foreground).
 * The quality warnings need no more than these.
 */
function basicMetrics(code: VariantCode, output: Image8): Record<string, MetricValue> {
  const m: Record<string, MetricValue> = {};
  if (code === 'A3') m.edge_density = fractionOf(output, 0);
  if (code === 'A3') m.foreground_fraction = fractionOf(output, 0);
  if (code === 'A4' || code === 'A6') m.foreground_fraction = countedFraction(output, 0);
  return m;
}

function cropGrey(image: Image8, x: number, y: number, w: number, h: number): Image8 {
  const out = new Uint8Array(w * h);
  for (let r = 0; r < h; r++)
    out.set(image.data.subarray((y + r) * image.width + x, (y + r) * image.width + x + w), r * w);
  return { width: w, height: h, channels: 1, data: out };
}

/** Whether two pixel buffers hold the same bytes (memcmp, by Node's Buffer). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.length === b.length &&
    Buffer.from(a.buffer, a.byteOffset, a.length).equals(
      Buffer.from(b.buffer, b.byteOffset, b.length),
    )
  );
}

/**
 * `fractionOf(image, value)` (ops/edges.ts) for images whose count no earlier pass knows (A4, A6):
 * counted by the WebAssembly kernel (kernels/as/pixels.ts) when built; the same value.
 */
export function countedFraction(image: Image8, value: number): number {
  const n = countKernel(image.data, value);
  return n === null ? fractionOf(image, value) : n / image.data.length;
}
