/**
 * A6 silhouette (removes internal structure): a foreground mask from the shared segmenter
 * (IS-Net by default, GrabCut as the classical fallback; src/variants/segment/), post-processed
 * exactly (largest 8-connected component, holes filled) and rendered as a black subject (0) on
 * white (255). VARIANTS.md, A6.
 */
import { cropBox } from './crop.js';
import { StimkitError } from '../../core/errors.js';
import { fillHoles, largestComponent } from './mask.js';
import type { Recipe } from '../recipe.js';
import type { Image8, VariantDef } from '../types.js';

/** Post-process a raw mask as the recipe says and render it: foreground 0, background 255. */
export function renderSilhouette(
  raw: Uint8Array,
  width: number,
  height: number,
  p: Recipe['silhouette'],
): { image: Image8; rawFraction: number } {
  if (raw.length !== width * height) {
    throw new StimkitError(
      'E_VARIANTS_SEGMENTER_MASK',
      `the segmenter returned ${raw.length} mask values for a ${width} × ${height} image (expected ${width * height})`,
      {
        fix: 'check the segmenter settings in the recipe, or rerun without A6 (--only A0,A1,A2,A3,A4,A5)',
      },
    );
  }
  let mask = raw;
  let rawCount = 0;
  for (let i = 0; i < raw.length; i++) if (raw[i]) rawCount++;
  if (p.keep_largest_component) mask = largestComponent(mask, width, height);
  if (p.fill_holes) mask = fillHoles(mask, width, height);
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = mask[i] ? 0 : 255;
  return { image: { width, height, channels: 1, data: out }, rawFraction: rawCount / raw.length };
}

/**
 * Share of a silhouette's foreground (0) pixels that A1's centre crop (of `fraction`) keeps; null
 * for an empty silhouette.
 */
function foregroundInCrop(image: Image8, fraction: number): number | null {
  const { width, data } = image;
  const box = cropBox(width, image.height, fraction);
  let all = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 0) all++;
  if (all === 0) return null;
  let inside = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let i = y * width + box.x, end = i + box.width; i < end; i++) if (data[i] === 0) inside++;
  }
  return inside / all;
}

export const silhouette: VariantDef = {
  code: 'A6',
  name: 'silhouette',
  removes: 'internal structure (solid subject on white)',
  // `crop`: A6's record measures how much of its foreground A1's centre crop keeps.
  recipeKeys: ['silhouette', 'crop'],
  run: async (ctx) => {
    if (!ctx.segmenter) {
      const e = ctx.segmenterError ?? {
        code: 'E_VARIANTS_SEGMENTER',
        message: 'no segmenter is loaded',
      };
      throw new StimkitError(e.code, e.message, {
        fix: 'install the segmenter (docs/segmentation.md), or rerun without A6 (--only A0,A1,A2,A3,A4,A5)',
      });
    }
    const { width, height, data } = ctx.a0;
    const raw = await ctx.segmenter.segment(data, width, height);
    const p = ctx.recipe.silhouette;
    const { image, rawFraction } = renderSilhouette(raw, width, height, p);
    return {
      image,
      params: {
        method: p.method,
        keep_largest_component: p.keep_largest_component,
        fill_holes: p.fill_holes,
        segmenter: ctx.segmenter.description,
      },
      metrics: {
        raw_foreground_fraction: rawFraction,
        foreground_fraction_in_crop: foregroundInCrop(image, ctx.recipe.crop.fraction),
      },
    };
  },
};
