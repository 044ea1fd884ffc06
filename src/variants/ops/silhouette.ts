/**
 * A6 silhouette (removes internal structure): a foreground mask from the shared segmenter
 * (IS-Net by default, GrabCut as the classical fallback; src/variants/segment/), post-processed
 * exactly (largest 8-connected component, holes filled) and rendered as a black subject (0) on
 * white (255). VARIANTS.md, A6.
 */
import { StimkitError } from '../../core/errors.js';
import { fillHoles, largestComponent } from './mask.js';
import type { Recipe } from '../recipe.js';
import type { Image8, VariantDef } from '../types.js';

/** Post-process a raw mask as the recipe says and render it: foreground 0, background 255. */
export function renderSilhouette(raw: Uint8Array, width: number, height: number, p: Recipe['silhouette']): { image: Image8; rawFraction: number } {
  if (raw.length !== width * height) {
    throw new StimkitError('E_VARIANTS_SEGMENTER_MASK', `the segmenter returned ${raw.length} mask values for a ${width} × ${height} image (expected ${width * height})`);
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

export const silhouette: VariantDef = {
  code: 'A6',
  name: 'silhouette',
  removes: 'internal structure (solid subject on white)',
  recipeKeys: ['silhouette'],
  run: async (ctx) => {
    if (!ctx.segmenter) {
      const e = ctx.segmenterError ?? { code: 'E_VARIANTS_SEGMENTER', message: 'no segmenter is loaded' };
      throw new StimkitError(e.code, e.message);
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
      metrics: { raw_foreground_fraction: rawFraction },
    };
  },
};
