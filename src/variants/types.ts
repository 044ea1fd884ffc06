/**
 * Shared types of the abstraction ladder: an 8-bit image, what a variant computes, and the
 * context one entry's variants share (A0 pixels, A2 luma, the recipe, the shared segmenter).
 */
import type { Recipe } from './recipe.js';

/** The seven variant codes, in ladder order. */
export const VARIANT_CODES = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'] as const;
export type VariantCode = (typeof VARIANT_CODES)[number];

/** An 8-bit image: row-major, channels interleaved (RGB when 3). */
export interface Image8 {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Uint8Array;
}

/** A metric value: a number, null when undefined for this image (e.g. SSIM below 7 px), or a list. */
export type MetricValue = number | null | number[];

/** What one variant produced: its pixels and its resolved parameters (recorded in the lock). */
interface VariantResult {
  image: Image8;
  params: Record<string, unknown>;
  /** Values the variant itself measured (e.g. A5's spectral energy), merged into its metrics. */
  metrics?: Record<string, MetricValue>;
}

/** Runs one segmentation at a time on the shared segmenter (one model session per run). */
export interface SharedSegmenter {
  /** `segmenter.describe()`, recorded with every A6 output and part of its inputs hash. */
  description: Record<string, unknown>;
  segment(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array>;
}

/** What an entry's variants share. A0 and A2 are computed once per entry. */
export interface EntryContext {
  recipe: Recipe;
  a0: Image8;
  a2: Image8;
  /** A0's resolved parameters (decode facts), recorded with A0. */
  a0Params: Record<string, unknown>;
  /** Present when A6 is selected and a segmenter could be loaded. */
  segmenter?: SharedSegmenter;
  /** Why there is no segmenter, when A6 is selected but none could be loaded. */
  segmenterError?: { code: string; message: string };
}

/** One rung of the ladder. */
export interface VariantDef {
  code: VariantCode;
  /** File-name part and lock name: `A3-edges.png`. */
  name: string;
  /** What the variant removes, for docs and the contact sheet. */
  removes: string;
  /** Recipe sections the output depends on (besides `original`, which every variant does). */
  recipeKeys: ReadonlyArray<keyof Recipe>;
  /** Make the variant (synchronously for the pure-pixel rungs, asynchronously for segmentation). */
  run(ctx: EntryContext): VariantResult | Promise<VariantResult>;
}
