/**
 * A0 original: decode; EXIF orientation; 16-bit → high byte; palette/grey → RGB; embedded ICC →
 * sRGB; alpha over white with `floor((c·a + 255·(255 − a))/255 + 1/2)`; Lanczos-3 downscale when
 * the long side exceeds `max_side` (never upscale). VARIANTS.md, A0.
 *
 * sharp decodes at full resolution (so no JPEG shrink-on-load), converts ICC to sRGB and keeps the
 * high byte of 16-bit samples; the alpha composite is done here in integers, and the downscale is
 * Pillow's Lanczos-3 reproduced exactly (resample.ts: libvips pre-shrinks at 4× and more).
 */
import sharp from '../../core/sharp.js';
import type { OutputInfo } from 'sharp';
import { StimkitError, type Problem } from '../../core/errors.js';
import { classifyImageFailure, isolatedDetail } from '../../core/sharp-errors.js';
import type { Recipe } from '../recipe.js';
import { flattenKernel } from '../kernels/pixels.js';
import { resample } from './resample.js';
import type { Image8, VariantDef } from '../types.js';

/** The A0 size rule: long side → max_side, short side → max(1, floor(short·max/long + 1/2)). */
export function targetSize(
  width: number,
  height: number,
  maxSide: number,
): { width: number; height: number; resized: boolean } {
  const long = Math.max(width, height);
  if (long <= maxSide) return { width, height, resized: false };
  const short = Math.min(width, height);
  // floor(short·max/long + 1/2) = floor((2·short·max + long) / (2·long)), exactly in integers.
  const scaled = Math.max(
    1,
    Number((2n * BigInt(short) * BigInt(maxSide) + BigInt(long)) / (2n * BigInt(long))),
  );
  return width >= height
    ? { width: maxSide, height: scaled, resized: true }
    : { width: scaled, height: maxSide, resized: true };
}

/**
 * Composite interleaved 8-bit pixels with `channels` (1–4) over white into RGB (a new array): by
 * the WebAssembly kernel (kernels/as/pixels.ts) when built, else `flattenToRgbJs`; the same bytes.
 */
export function flattenToRgb(data: Uint8Array, pixels: number, channels: number): Uint8Array {
  if (channels === 3) return data.slice(0, pixels * 3); // already RGB, opaque: a copy
  return flattenKernel(data, pixels, channels) ?? flattenToRgbJs(data, pixels, channels);
}

/** `flattenToRgb` in TypeScript: the reference of the WebAssembly kernel. */
export function flattenToRgbJs(data: Uint8Array, pixels: number, channels: number): Uint8Array {
  if (channels === 3) return data.slice(0, pixels * 3); // already RGB, opaque: a copy
  const out = new Uint8Array(pixels * 3);
  const hasAlpha = channels === 2 || channels === 4;
  const colour = hasAlpha ? channels - 1 : channels;
  for (let i = 0; i < pixels; i++) {
    const a = hasAlpha ? data[i * channels + colour]! : 255;
    for (let k = 0; k < 3; k++) {
      const c = data[i * channels + (colour === 1 ? 0 : k)]!;
      // floor((c·a + 255·(255 − a))/255 + 1/2) = floor((2·(c·a + 255·(255 − a)) + 255) / 510)
      out[i * 3 + k] = a === 255 ? c : Math.floor((2 * (c * a + 255 * (255 - a)) + 255) / 510);
    }
  }
  return out;
}

/** Facts about the decode, recorded as A0's resolved parameters. */
export interface A0Facts {
  source_width: number;
  source_height: number;
  resized: boolean;
  alpha_flattened: boolean;
  input_channels: number;
}

/**
 * Why `bytes` did not decode, from the bytes alone (libvips' error text is shared by all threads):
 * over the pixel limit by its header, else truncated or corrupt by its structure.
 */
async function decodeFailure(
  bytes: Uint8Array,
  pixelLimit: number | false,
  again: () => Promise<unknown>,
): Promise<Omit<Problem, 'severity'>> {
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (pixelLimit !== false && meta?.width && meta.height && meta.width * meta.height > pixelLimit)
    return {
      code: 'E_IMAGE_TOO_LARGE',
      message: `the image is ${meta.width} × ${meta.height}, over the pixel limit of ${pixelLimit} pixels (possible decompression bomb)`,
      fix: 'downscale the image, or raise --pixel-limit if it is genuine',
    };
  const f = classifyImageFailure(bytes, meta ? 'decode' : 'header', await isolatedDetail(again));
  return { code: f.code, message: f.message, fix: f.fix };
}

/**
 * Decode image bytes to A0 pixels. Throws a StimkitError with the decoder's classified code when
 * sharp cannot decode the image.
 */
export async function decodeA0(
  bytes: Uint8Array,
  params: Recipe['original'],
  pixelLimit: number | false = false,
): Promise<{ image: Image8; facts: A0Facts }> {
  let data: Buffer;
  let info: OutputInfo;
  const decode = () =>
    sharp(bytes, { limitInputPixels: pixelLimit })
      .rotate()
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  try {
    ({ data, info } = await decode());
  } catch (err) {
    throw StimkitError.fromProblem(await decodeFailure(bytes, pixelLimit, decode), err);
  }
  const { width, height, channels } = info;
  // sharp's buffer is this call's own: RGB is used in place (a view, not a copy).
  let rgb =
    channels === 3
      ? new Uint8Array(data.buffer, data.byteOffset, width * height * 3)
      : flattenToRgb(data, width * height, channels);
  const size = targetSize(width, height, params.max_side);
  if (size.resized) rgb = resample(rgb, width, height, 3, size.width, size.height, params.kernel);
  return {
    image: { width: size.width, height: size.height, channels: 3, data: rgb },
    facts: {
      source_width: width,
      source_height: height,
      resized: size.resized,
      alpha_flattened: channels === 2 || channels === 4,
      input_channels: channels,
    },
  };
}

export const original: VariantDef = {
  code: 'A0',
  name: 'original',
  removes: 'nothing (normalised: oriented, sRGB, 8-bit, flattened on white, long side ≤ max_side)',
  recipeKeys: [],
  run: (ctx) => ({ image: ctx.a0, params: { ...ctx.recipe.original, ...ctx.a0Params } }),
};
