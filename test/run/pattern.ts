/** Test images made from a fixed formula (no randomness, no files), for image-block tests. */
import { imagePayloadPath, type Trial } from '../../src/bundle/format.js';
import { trialId } from '../../src/bundle/trial-id.js';
import { sha256 } from '../../src/core/fsio.js';
import { encodePng } from '../../src/variants/ops/png.js';
import { promptOf } from './fixture.js';

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

/**
 * Image trials (describe, one image each) over real PNGs, for a bag written with
 * `writeFixtureBag(dir, trials, images)`; trial k's prompt is `promptOf(k)`.
 */
export function imageTrials(images: Buffer[]): Trial[] {
  return images.map((png, k) => {
    const digest = sha256(png);
    const t: Omit<Trial, 'id'> = {
      arm: null,
      item: null,
      topic: null,
      framing: null,
      iteration: null,
      wrappers: null,
      models: null,
      prompt: 'describe',
      paradigm: 'describe',
      lang: 'en',
      entry: `e${k}`,
      variant: 'A0',
      seed: 42,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'image',
              sha256: digest,
              file: imagePayloadPath(digest),
              media_type: 'image/png',
            },
            { type: 'text', text: promptOf(k) },
          ],
        },
      ],
      images: [digest],
      sampling: { temperature: 0.7, max_tokens: 64 },
    };
    return { id: trialId(t), ...t };
  });
}
