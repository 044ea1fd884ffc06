/** Shared by the kernel tests: test images and a bit-for-bit comparison. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { decodeA0 } from '../../../src/variants/ops/original.js';
import { luma } from '../../../src/variants/ops/grayscale.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';
import type { Image8 } from '../../../src/variants/types.js';

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

/** A noisy grey image of any size (smooth ramps plus noise, so that every code path sees variety). */
export function noise(width: number, height: number): Image8 {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      data[y * width + x] = Math.min(255, Math.floor(((x * 7 + y * 3) % 200) + rand() * 56));
  return { width, height, channels: 1, data };
}

/** A2 of a demo photo. */
export async function photo(file: string): Promise<Image8> {
  const { image } = await decodeA0(
    readFileSync(new URL(`../../../corpora/demo/${file}`, import.meta.url)),
    defaultRecipe().original,
  );
  return luma(image);
}

export function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length);
  let first = -1;
  for (let i = 0; i < a.length && first < 0; i++) if (!Object.is(a[i], b[i])) first = i;
  expect(first, first < 0 ? '' : `first difference at ${first}: ${a[first]} vs ${b[first]}`).toBe(
    -1,
  );
}
