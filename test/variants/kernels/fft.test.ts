/**
 * The row and column DFTs of ops/fft.ts and ops/fft-band.ts: the WebAssembly kernel
 * (kernels/as/fft.ts) = the TypeScript (fft.js and the Bluestein / chirp-z plans), bit for bit, on
 * photos and on power-of-two and other lengths (Bluestein), odd heights (a dummy lane), partial
 * column counts, and through their callers (A5's Gaussian low-pass, the low-frequency metric).
 */
import { describe, expect, it } from 'vitest';
import {
  fft2Real,
  ifft2Real,
  rowsInverseReal,
  rowsInverseRealJs,
  rowsReal,
  rowsRealJs,
  sharedRows,
} from '../../../src/variants/ops/fft.js';
import {
  axisBand,
  bandEnergy,
  bandPays,
  rowsBand,
  rowsBandJs,
} from '../../../src/variants/ops/fft-band.js';
import { gaussianPlane } from '../../../src/variants/ops/lowpass-gaussian.js';
import { passedColumns } from '../../../src/variants/ops/lowpass.js';
import { lowFrequencyFraction } from '../../../src/variants/metrics/metrics.js';
import { kernel } from '../../../src/variants/kernels/load.js';
import type { Image8 } from '../../../src/variants/types.js';
import { noise, photo, sameBits } from './helpers.js';

/** `fn` with the kernels off (STIMKIT_KERNELS=js): the TypeScript path. */
function js<T>(fn: () => T): T {
  const before = process.env.STIMKIT_KERNELS;
  process.env.STIMKIT_KERNELS = 'js';
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.STIMKIT_KERNELS;
    else process.env.STIMKIT_KERNELS = before;
  }
}

const copy = (img: Image8): Image8 => ({ ...img, data: img.data.slice() });

const images: Array<[string, () => Promise<Image8> | Image8]> = [
  ['astronaut (512 × 512)', () => photo('astronaut.png')],
  ['chelsea (451 × 300)', () => photo('chelsea.png')],
  ['coffee (600 × 400)', () => photo('coffee.png')],
  ['1024 × 6', () => noise(1024, 6)],
  ['683 × 97', () => noise(683, 97)],
  ['681 × 5', () => noise(681, 5)],
  ['840 × 9', () => noise(840, 9)],
  ['97 × 13', () => noise(97, 13)],
  ['64 × 54', () => noise(64, 54)],
  ['8 × 7', () => noise(8, 7)],
  ['5 × 3', () => noise(5, 3)],
  ['3 × 2', () => noise(3, 2)],
  ['2 × 5', () => noise(2, 5)],
  ['1 × 4', () => noise(1, 4)],
  ['7 × 1', () => noise(7, 1)],
  ['1 × 1', () => noise(1, 1)],
];

describe('the fft kernel is there', () => {
  it('loads', () => expect(kernel('fft')).not.toBeNull());
});

describe('row passes: wasm = TypeScript, bit for bit', () => {
  for (const [label, make] of images) {
    it(label, async () => {
      const { width: w, height: h, data } = await make();
      const half = Math.floor(w / 2) + 1;
      const floats = Float64Array.from(data, (v, i) => v * 1.37 - 40 + (i % 3) / 7);
      for (const cols of new Set([half, Math.min(half, 4), Math.min(half, 27), 1])) {
        const ref = rowsRealJs(data, w, h, cols);
        const got = rowsReal(data, w, h, cols);
        expect(got.cols).toBe(cols);
        sameBits(got.data, ref.data);
        sameBits(rowsReal(floats, w, h, cols).data, rowsRealJs(floats, w, h, cols).data);
        // the inverse of a (partial) half spectrum, as A5 uses it
        sameBits(
          rowsInverseReal({ ...ref, data: ref.data.slice() }),
          rowsInverseRealJs({ ...ref, data: ref.data.slice() }),
        );
        if (cols > 1 && bandPays(w, 2 * cols - 1))
          sameBits(rowsBand(data, w, h, cols).data, rowsBandJs(data, w, h, cols).data);
      }
    });
  }

  it('signed zeros and a missing odd row (rowsInverseReal)', () => {
    for (const [w, h, cols] of [
      [9, 5, 5],
      [8, 3, 3],
      [683, 7, 30],
      [16, 1, 9],
      [4, 3, 3],
    ] as const) {
      for (const pattern of [[0, -0, 3.5, -2.25, -0], [-0], [-0, 0, -0]]) {
        const data = Float64Array.from(
          { length: h * cols * 2 },
          (_, i) => pattern[i % pattern.length]!,
        );
        const spec = { width: w, height: h, cols, data };
        sameBits(
          rowsInverseReal({ ...spec, data: data.slice() }),
          rowsInverseRealJs({ ...spec, data: data.slice() }),
        );
      }
    }
  });
});

describe('2-D transforms and the band energy: wasm = TypeScript, bit for bit', () => {
  for (const [label, make] of images) {
    it(label, async () => {
      const img = await make();
      const { width: w, height: h } = img;
      const values = Float64Array.from(img.data);
      for (const keep of [undefined, 3]) {
        const a = fft2Real(values, w, h, keep);
        const b = js(() => fft2Real(values, w, h, keep));
        sameBits(a.data, b.data);
        sameBits(
          ifft2Real(a),
          js(() => ifft2Real(b)),
        );
      }
      const rows = rowsRealJs(img.data, w, h, Math.min(Math.floor(w / 2) + 1, 40));
      for (const cutoff of [0.05, 0.2]) {
        const { below, above } = axisBand(h, cutoff);
        const keepBin = (ky: number, kx: number) =>
          (ky !== 0 || kx !== 0) && (ky * 7 + kx) % 5 !== 0;
        const cols = Math.min(rows.cols, 9);
        expect(
          Object.is(
            bandEnergy(rows, cols, below, above, keepBin),
            js(() => bandEnergy(rows, cols, below, above, keepBin)),
          ),
        ).toBe(true);
      }
    });
  }
});

describe('through the callers: wasm = TypeScript, bit for bit', () => {
  const callers: Array<[string, () => Promise<Image8> | Image8]> = [
    ['astronaut', () => photo('astronaut.png')],
    ['camera', () => photo('camera.png')],
    ['chelsea', () => photo('chelsea.png')],
    ['horse', () => photo('horse.png')],
    ['683 × 97', () => noise(683, 97)],
    ['97 × 683', () => noise(97, 683)],
    ['5 × 3', () => noise(5, 3)],
  ];
  for (const [label, make] of callers) {
    it(`${label}: lowfreq_energy_fraction_ac and A5's Gaussian low-pass`, async () => {
      const img = await make();
      for (const cutoff of [0.05, 0.1]) {
        const cols = passedColumns(img.width, { filter: 'gaussian', cutoff });
        for (const share of [undefined, cols]) {
          const wasm = lowFrequencyFraction(copy(img), cutoff, share);
          const ts = js(() => lowFrequencyFraction(copy(img), cutoff, share));
          expect(Object.is(wasm, ts), `${wasm} vs ${ts}`).toBe(true);
        }
        const a = copy(img);
        const b = copy(img);
        // the row pass shared with the metric first, as the variants run it
        lowFrequencyFraction(a, 0.05, cols);
        js(() => lowFrequencyFraction(b, 0.05, cols));
        expect(sharedRows(a.data, a.width, a.height, cols).cols).toBeGreaterThanOrEqual(cols);
        const ga = gaussianPlane(a.data, a.width, a.height, cutoff, cols);
        const gb = js(() => gaussianPlane(b.data, b.width, b.height, cutoff, cols));
        sameBits(ga.filtered, gb.filtered);
        sameBits(Object.values(ga.energy), Object.values(gb.energy));
      }
    });
  }
});
