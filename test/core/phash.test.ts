import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hamming, lowDct, phashFromGrey32, phashOf } from '../../src/core/phash.js';

const vectors = JSON.parse(
  readFileSync(new URL('../ingest/vectors/phash_vectors.json', import.meta.url), 'utf8'),
) as {
  cases: Array<{ name: string; grey: number[]; phash: string }>;
};
const demo = (f: string) => new URL(`../../corpora/demo/${f}`, import.meta.url).pathname;

describe('perceptual hash', () => {
  it('matches the independent scipy implementation of imagehash.phash bit for bit', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(8);
    for (const c of vectors.cases) expect(phashFromGrey32(c.grey), c.name).toBe(c.phash);
  });

  it('computes the DCT-II block exactly as the direct quadruple sum', () => {
    const grey = vectors.cases[0]!.grey;
    const fast = lowDct(grey);
    for (const [u, v] of [
      [0, 0],
      [1, 3],
      [7, 7],
      [5, 2],
    ] as const) {
      let s = 0;
      for (let y = 0; y < 32; y++) {
        for (let x = 0; x < 32; x++) {
          s +=
            grey[y * 32 + x]! *
            Math.cos(((2 * y + 1) * u * Math.PI) / 64) *
            Math.cos(((2 * x + 1) * v * Math.PI) / 64);
        }
      }
      expect(fast[u * 8 + v]).toBeCloseTo(s, 6);
    }
  });

  it('counts differing bits', () => {
    expect(hamming('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hamming('8000000000000001', '0000000000000000')).toBe(2);
    expect(hamming('c82713ec1be6126f', 'c82713ec1be6126f')).toBe(0);
  });

  it('is stable under re-encoding and resizing but separates different photos', async () => {
    const hashOf = (input: Buffer | string) =>
      phashOf(sharp(input).rotate().flatten({ background: '#ffffff' }));
    const original = await hashOf(demo('coffee.png'));
    const jpeg = await sharp(demo('coffee.png')).jpeg({ quality: 70 }).toBuffer();
    const smaller = await sharp(demo('coffee.png')).resize(300).png().toBuffer();
    expect(hamming(original, await hashOf(jpeg))).toBeLessThanOrEqual(4);
    expect(hamming(original, await hashOf(smaller))).toBeLessThanOrEqual(4);
    for (const other of ['astronaut.png', 'chelsea.png', 'rocket.jpg', 'camera.png']) {
      expect(hamming(original, await hashOf(demo(other))), other).toBeGreaterThan(14);
    }
  });
});
