/**
 * The conversion behind send-image.ts's `prepareImage`: a bundle PNG downscaled and re-encoded
 * as a model's `image` block asks. Kept apart so that a run whose models have no image block
 * never loads sharp or the resampler.
 */
import sharp from '../core/sharp.js';
import { DEFAULT_JPEG_QUALITY, type ImageBlock } from '../models/image.js';
import { decodePng, encodePng } from '../variants/ops/png.js';
import { targetSize } from '../variants/ops/original.js';
import { resample } from '../variants/ops/resample.js';
import type { Image8 } from '../variants/types.js';

/** The bytes a converted image is sent as, with their pixel size and MIME type. */
interface Converted {
  data: Buffer;
  width: number;
  height: number;
  mime: 'image/png' | 'image/jpeg';
}

/** The pixel size an image of `width` × `height` is sent at under `block`. */
function sentSize(
  width: number,
  height: number,
  block: ImageBlock,
): { width: number; height: number; resized: boolean } {
  if (!block.max_side) return { width, height, resized: false };
  return targetSize(width, height, block.max_side);
}

async function encodeJpeg(image: Image8, quality: number): Promise<Buffer> {
  const { width, height, channels, data } = image;
  let pipeline = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    raw: { width, height, channels },
    limitInputPixels: false,
  });
  if (channels === 1) pipeline = pipeline.toColourspace('b-w');
  return pipeline
    .jpeg({
      quality,
      chromaSubsampling: '4:2:0',
      progressive: false,
      optimiseCoding: true,
      mozjpeg: false,
      trellisQuantisation: false,
      overshootDeringing: false,
      optimiseScans: false,
    })
    .toBuffer();
}

/**
 * The PNG `png` (of pixel size `size`) as `block` makes it; null when the block leaves it as it
 * is (a PNG that needs no resizing is sent unchanged).
 */
export async function convertImage(
  png: Uint8Array,
  size: { width: number; height: number },
  block: ImageBlock,
): Promise<Converted | null> {
  const target = sentSize(size.width, size.height, block);
  const format = block.format;
  if (format === 'png' && !target.resized) return null;
  let image = await decodePng(png);
  if (target.resized) {
    image = {
      width: target.width,
      height: target.height,
      channels: image.channels,
      data: resample(
        image.data,
        image.width,
        image.height,
        image.channels,
        target.width,
        target.height,
        'lanczos3',
      ),
    };
  }
  const out = { width: image.width, height: image.height };
  return format === 'jpeg'
    ? {
        data: await encodeJpeg(image, block.quality ?? DEFAULT_JPEG_QUALITY),
        ...out,
        mime: 'image/jpeg',
      }
    : { data: await encodePng(image, 9), ...out, mime: 'image/png' };
}
