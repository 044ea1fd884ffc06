/**
 * A2 grayscale (removes colour): ITU-R BT.601 luma on the encoded values, exactly
 * `Y = floor((299R + 587G + 114B + 500)/1000)` — not sharp's greyscale(), another formula.
 */
import { lumaKernel } from '../kernels/pixels.js';
import type { Image8, VariantDef } from '../types.js';

/**
 * BT.601 luma of an RGB image (a grey image is returned as it is): by the WebAssembly kernel
 * (kernels/as/pixels.ts) when built, else `lumaJs`; the same bytes either way.
 */
export function luma(image: Image8): Image8 {
  if (image.channels === 1) return image;
  const data = lumaKernel(image.data, image.width * image.height);
  return data ? { width: image.width, height: image.height, channels: 1, data } : lumaJs(image);
}

/** `luma` in TypeScript: the reference of the WebAssembly kernel. */
export function lumaJs(image: Image8): Image8 {
  if (image.channels === 1) return image;
  const n = image.width * image.height;
  const src = image.data;
  const out = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    // Integers below 2^18: the division is exact enough for floor to be exact.
    out[i] = Math.floor((299 * src[j]! + 587 * src[j + 1]! + 114 * src[j + 2]! + 500) / 1000);
  }
  return { width: image.width, height: image.height, channels: 1, data: out };
}

export const grayscale: VariantDef = {
  code: 'A2',
  name: 'grayscale',
  removes: 'colour (BT.601 luma)',
  recipeKeys: [],
  run: (ctx) => ({
    image: ctx.a2,
    params: { formula: 'floor((299R + 587G + 114B + 500)/1000)' },
  }),
};
