/**
 * The models file's `image` block: how stimkit makes the image bytes a model is sent. Hosted APIs
 * resize and recompress what they receive, and a VLM audit's abstraction ladder depends on the
 * pixels, so an audit that wants to know what a model saw makes those bytes itself
 * (src/client/send-image.ts) and records their sha256 per result. Without a block the bundle's PNG
 * is sent unchanged.
 */
import { z } from 'zod';

/** The image formats stimkit can send. */
const IMAGE_FORMATS = ['png', 'jpeg'] as const;

/** JPEG quality when the block names `format: jpeg` without `quality`. */
export const DEFAULT_JPEG_QUALITY = 85;

/** One model's `image` block. */
export const ImageBlock = z
  .strictObject({
    max_side: z
      .number()
      .int()
      .min(16)
      .max(16_384)
      .optional()
      .describe(
        'Longest side in pixels: a larger image is downscaled (Lanczos-3, aspect kept, never upscaled).',
      ),
    format: z
      .enum(IMAGE_FORMATS)
      .default('png')
      .describe(
        'png: lossless; jpeg: baseline JPEG at `quality` (4:2:0, no metadata). A PNG that needs no resizing is sent as the bundle holds it.',
      ),
    quality: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(`JPEG quality 1–100 (format jpeg only; default ${DEFAULT_JPEG_QUALITY}).`),
    detail: z
      .enum(['auto', 'low', 'high'])
      .optional()
      .describe(
        'OpenAI image detail (`image_url.detail`): sent with each image part by providers whose API takes it.',
      ),
  })
  .superRefine((b, ctx) => {
    if (b.quality !== undefined && b.format !== 'jpeg')
      ctx.addIssue({
        code: 'custom',
        path: ['quality'],
        message: 'quality applies to format: jpeg only (PNG is lossless)',
      });
  })
  .describe('How the image bytes sent to this model are made (default: the bundle PNG as is).');
export type ImageBlock = z.output<typeof ImageBlock>;

/** The block as recorded in the request profile: defaults filled in, so that a change shows. */
export function imageProfile(block: ImageBlock): Record<string, unknown> {
  return {
    max_side: block.max_side ?? null,
    format: block.format,
    quality: block.format === 'jpeg' ? (block.quality ?? DEFAULT_JPEG_QUALITY) : null,
    detail: block.detail ?? null,
  };
}
