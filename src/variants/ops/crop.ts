/**
 * A1 center crop (removes context): keep the central fraction f of each side.
 * `cw = max(1, floor(f·W + 1/2))`, `x0 = floor((W − cw)/2)`, likewise for y. Not resized.
 */
import type { Image8, VariantDef } from '../types.js';

/** The crop box of VARIANTS.md A1 for a W × H image. */
export function cropBox(
  width: number,
  height: number,
  fraction: number,
): { x: number; y: number; width: number; height: number } {
  const cw = Math.max(1, Math.floor(fraction * width + 0.5));
  const ch = Math.max(1, Math.floor(fraction * height + 0.5));
  return {
    x: Math.floor((width - cw) / 2),
    y: Math.floor((height - ch) / 2),
    width: cw,
    height: ch,
  };
}

/** Copy a rectangle out of an image. */
export function cropImage(
  image: Image8,
  box: { x: number; y: number; width: number; height: number },
): Image8 {
  const c = image.channels;
  const out = new Uint8Array(box.width * box.height * c);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * image.width + box.x) * c;
    out.set(image.data.subarray(from, from + box.width * c), y * box.width * c);
  }
  return { width: box.width, height: box.height, channels: c, data: out };
}

export const crop: VariantDef = {
  code: 'A1',
  name: 'crop',
  removes: 'context (keeps the central fraction of each side)',
  recipeKeys: ['crop'],
  run: (ctx) => {
    const box = cropBox(ctx.a0.width, ctx.a0.height, ctx.recipe.crop.fraction);
    return {
      image: cropImage(ctx.a0, box),
      params: { ...ctx.recipe.crop, crop_box_xywh: [box.x, box.y, box.width, box.height] },
      metrics: {
        area_fraction_retained: (box.width * box.height) / (ctx.a0.width * ctx.a0.height),
      },
    };
  },
};
