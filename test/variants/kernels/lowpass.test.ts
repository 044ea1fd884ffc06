/** A5's column convolution: the WebAssembly kernel (kernels/as/lowpass.ts) = the TypeScript loop, bit for bit. */
import { describe, it } from 'vitest';
import {
  columnConvolve,
  columnConvolveJs,
  columnKernel,
} from '../../../src/variants/ops/lowpass-gaussian.js';
import { sharedRows } from '../../../src/variants/ops/fft.js';
import { passedColumns } from '../../../src/variants/ops/lowpass.js';
import type { Image8 } from '../../../src/variants/types.js';
import { noise, photo, sameBits } from './helpers.js';

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
        sameBits(
          columnConvolve(rows.data, img.height, rows.cols * 2, taps),
          columnConvolveJs(rows.data, img.height, rows.cols * 2, taps),
        );
      }
    });
  }
});
