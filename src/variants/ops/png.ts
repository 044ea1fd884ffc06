/**
 * PNG encoding of variant outputs with sharp: no ICC, EXIF or other metadata chunks, fixed zlib
 * level, grey images written as 1-channel PNGs (sharp writes 3 channels from 1-channel raw input
 * unless told `toColourspace('b-w')`). Same pixels and level → same bytes.
 */
import sharp from '../../core/sharp.js';
import type { Image8 } from '../types.js';

/** Encode an 8-bit grey or RGB image as PNG. */
export async function encodePng(image: Image8, compressionLevel: number): Promise<Buffer> {
  const { width, height, channels, data } = image;
  let pipeline = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    raw: { width, height, channels },
    limitInputPixels: false,
  });
  if (channels === 1) pipeline = pipeline.toColourspace('b-w');
  return pipeline.png({ compressionLevel, adaptiveFiltering: false, palette: false }).toBuffer();
}

/** Decode a PNG written by `encodePng` back to its pixels (grey stays 1-channel). */
export async function decodePng(bytes: Uint8Array): Promise<Image8> {
  const meta = await sharp(bytes).metadata();
  const grey = meta.channels === 1;
  const pipeline = grey ? sharp(bytes).toColourspace('b-w') : sharp(bytes).removeAlpha();
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: grey ? 1 : 3,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}
