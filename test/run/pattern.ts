/** Test images made from a fixed formula (no randomness, no files), for image-block tests. */
import { encodePng } from '../../src/variants/ops/png.js';

/** A 640 × 480 RGB test image from a fixed formula (no randomness), as a PNG. */
export async function patternPng(width = 640, height = 480, channels: 1 | 3 = 3): Promise<Buffer> {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < channels; c++)
        data[(y * width + x) * channels + c] =
          (x * (c + 1) + y * (3 - c) + ((x ^ y) & 31) * 4) & 255;
  return encodePng({ width, height, channels, data }, 6);
}
