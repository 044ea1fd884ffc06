/**
 * The WebAssembly kernels (src/variants/kernels/) against the TypeScript loops they stand for:
 * the same bits on photos and odd sizes. Fails, not skips, when the modules are not built.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kernel, kernelFile } from '../../../src/variants/kernels/load.js';
import { columnConvolve, columnConvolveJs, columnKernel } from '../../../src/variants/ops/lowpass-gaussian.js';
import { sharedRows } from '../../../src/variants/ops/fft.js';
import { passedColumns } from '../../../src/variants/ops/lowpass.js';
import { decodeA0 } from '../../../src/variants/ops/original.js';
import { luma } from '../../../src/variants/ops/grayscale.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';
import type { Image8 } from '../../../src/variants/types.js';

export const MODULES = ['lowpass'];

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

/** A noisy grey image of any size (smooth ramps plus noise, so that every code path sees variety). */
export function noise(width: number, height: number): Image8 {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = Math.min(255, Math.floor((x * 7 + y * 3) % 200 + rand() * 56));
  return { width, height, channels: 1, data };
}

/** A2 of a demo photo. */
export async function photo(file: string): Promise<Image8> {
  const { image } = await decodeA0(readFileSync(new URL(`../../../corpora/demo/${file}`, import.meta.url)), defaultRecipe().original);
  return luma(image);
}

export function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length);
  let first = -1;
  for (let i = 0; i < a.length && first < 0; i++) if (!Object.is(a[i], b[i])) first = i;
  expect(first, first < 0 ? '' : `first difference at ${first}: ${a[first]} vs ${b[first]}`).toBe(-1);
}

describe('the kernels are built and load', () => {
  for (const name of MODULES) {
    it(name, () => {
      expect(kernel(name), `${kernelFile(name)} is missing: run \`npm run build\``).not.toBeNull();
    });
  }
});

describe('A5 column convolution: wasm = TypeScript, bit for bit', () => {
  const cases: Array<[string, () => Promise<Image8> | Image8]> = [
    ['astronaut', () => photo('astronaut.png')],
    ['683 × 97', () => noise(683, 97)],
    ['64 × 54 (kernel spans the column)', () => noise(64, 54)],
    ['5 × 3', () => noise(5, 3)],
  ];
  for (const [label, make] of cases) {
    it(label, async () => {
      const img = await make();
      const cols = passedColumns(img.width, { filter: 'gaussian', cutoff: 0.05 });
      const rows = sharedRows(img.data, img.width, img.height, cols);
      for (const c of [0.05, 0.01, 0.3]) {
        const taps = columnKernel(img.height, c);
        sameBits(columnConvolve(rows.data, img.height, rows.cols * 2, taps), columnConvolveJs(rows.data, img.height, rows.cols * 2, taps));
      }
    });
  }
});
