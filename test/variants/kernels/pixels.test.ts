/**
 * The `pixels` WebAssembly module (kernels/as/pixels.ts) = the TypeScript loops it stands for, bit
 * for bit: luma, A0's flattening, A4's histogram, Otsu and threshold, A5's rounding, the metrics'
 * sums and counts; the bilinear resize = opencv-wasm's (its one implementation); on the demo
 * photos, odd sizes, every input value where the input space is small enough, and whole variants with their metrics (kernels on and off).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countKernel,
  histogramKernel,
  lumaKernel,
  sumsKernel,
} from '../../../src/variants/kernels/pixels.js';
import { kernel } from '../../../src/variants/kernels/load.js';
import {
  countedFraction,
  equalBytes,
  lowFrequencyFraction,
  metricsBase,
  pixelSumsJs,
  variantMetrics,
} from '../../../src/variants/metrics/metrics.js';
import {
  byteHistogramJs,
  otsuThreshold,
  thresholdImage,
  thresholdImageJs,
} from '../../../src/variants/ops/binary.js';
import { luma, lumaJs } from '../../../src/variants/ops/grayscale.js';
import { roundClip, roundClipJs } from '../../../src/variants/ops/lowpass.js';
import { decodeA0, flattenToRgb, flattenToRgbJs } from '../../../src/variants/ops/original.js';
import { resizeLinear } from '../../../src/variants/ops/resize-linear.js';
import * as cv from '../../helpers/opencv.js';
import { VARIANTS } from '../../../src/variants/ops/registry.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';
import type { EntryContext, Image8 } from '../../../src/variants/types.js';
import { noise, photo, sameBits } from './helpers.js';

const PHOTOS = [
  'astronaut.png',
  'camera.png',
  'chelsea.png',
  'coffee.png',
  'horse.png',
  'rocket.jpg',
];
const SIZES: Array<[number, number]> = [
  [1, 1],
  [1, 7],
  [7, 1],
  [2, 3],
  [5, 3],
  [4, 4],
  [7, 6],
  [17, 3],
  [683, 97],
];

let seed = 11;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));

async function a0(file: string): Promise<Image8> {
  const { image } = await decodeA0(
    readFileSync(new URL(`../../../corpora/demo/${file}`, import.meta.url)),
    defaultRecipe().original,
  );
  return image;
}

/** `fn` with the kernels switched off (STIMKIT_KERNELS=js): the TypeScript reference. */
function inJs<T>(fn: () => T): T {
  process.env.STIMKIT_KERNELS = 'js';
  try {
    return fn();
  } finally {
    delete process.env.STIMKIT_KERNELS;
  }
}

afterEach(() => {
  delete process.env.STIMKIT_KERNELS;
});

describe('pixels kernel', () => {
  it('is built (the comparisons below would otherwise compare TypeScript with itself)', () => {
    expect(kernel('pixels')).not.toBeNull();
  });
});

describe('luma: wasm = TypeScript', () => {
  it('every RGB triple', () => {
    const n = 1 << 24;
    const rgb = new Uint8Array(3 * n);
    for (let i = 0; i < n; i++) {
      rgb[3 * i] = i >> 16;
      rgb[3 * i + 1] = (i >> 8) & 255;
      rgb[3 * i + 2] = i & 255;
    }
    const image: Image8 = { width: 4096, height: 4096, channels: 3, data: rgb };
    sameBits(lumaKernel(rgb, n)!, lumaJs(image).data);
  });
  it('odd sizes', () => {
    for (const [w, h] of SIZES) {
      const image: Image8 = { width: w, height: h, channels: 3, data: bytes(3 * w * h) };
      sameBits(luma(image).data, lumaJs(image).data);
    }
  });
  for (const file of PHOTOS) {
    it(file, async () => {
      const image = await a0(file);
      sameBits(luma(image).data, lumaJs(image).data);
    });
  }
});

describe('flattenToRgb: wasm = TypeScript', () => {
  it('every grey + alpha pair, and every value of grey', () => {
    const ga = new Uint8Array(2 * 65536);
    for (let i = 0; i < 65536; i++) {
      ga[2 * i] = i >> 8;
      ga[2 * i + 1] = i & 255;
    }
    sameBits(flattenToRgb(ga, 65536, 2), flattenToRgbJs(ga, 65536, 2));
    const g = Uint8Array.from({ length: 256 }, (_, i) => i);
    sameBits(flattenToRgb(g, 256, 1), flattenToRgbJs(g, 256, 1));
  });
  it('every colour + alpha pair in RGBA, odd sizes of 1, 2, 3 and 4 channels', () => {
    const rgba = new Uint8Array(4 * 65536);
    for (let i = 0; i < 65536; i++) {
      rgba[4 * i] = i >> 8;
      rgba[4 * i + 1] = 255 - (i >> 8);
      rgba[4 * i + 2] = (i * 7) & 255;
      rgba[4 * i + 3] = i & 255;
    }
    sameBits(flattenToRgb(rgba, 65536, 4), flattenToRgbJs(rgba, 65536, 4));
    for (const [w, h] of SIZES) {
      for (const c of [1, 2, 3, 4]) {
        const data = bytes(c * w * h);
        sameBits(flattenToRgb(data, w * h, c), flattenToRgbJs(data, w * h, c));
      }
    }
  });
  it('decodeA0 with and without the kernels', async () => {
    for (const file of ['camera.png', 'astronaut.png']) {
      const buf = readFileSync(new URL(`../../../corpora/demo/${file}`, import.meta.url));
      const fast = await decodeA0(buf, defaultRecipe().original);
      process.env.STIMKIT_KERNELS = 'js';
      const ref = await decodeA0(buf, defaultRecipe().original);
      delete process.env.STIMKIT_KERNELS;
      expect(fast.facts).toEqual(ref.facts);
      sameBits(fast.image.data, ref.image.data);
    }
  });
});

describe('A4: histogram, Otsu, threshold: wasm = TypeScript', () => {
  const images: Array<[string, () => Promise<Image8> | Image8]> = [
    ...PHOTOS.map((f): [string, () => Promise<Image8>] => [f, () => photo(f)]),
    ...SIZES.map(([w, h]): [string, () => Image8] => [`${w} × ${h}`, () => noise(w, h)]),
    ['constant', () => ({ width: 33, height: 5, channels: 1, data: new Uint8Array(165).fill(77) })],
    [
      'two values',
      () => ({
        width: 31,
        height: 3,
        channels: 1,
        data: Uint8Array.from({ length: 93 }, (_, i) => (i % 3 ? 0 : 255)),
      }),
    ],
  ];
  for (const [label, make] of images) {
    it(label, async () => {
      const img = await make();
      sameBits(histogramKernel(img.data)!, byteHistogramJs(img.data));
      expect(otsuThreshold(img.data)).toBe(inJs(() => otsuThreshold(img.data)));
      for (const t of [0, 1, 77, 127, 128, 200, 254, 255])
        sameBits(thresholdImage(img, t).data, thresholdImageJs(img, t).data);
    });
  }
  it('thresholds outside 0…255 or not integers (the TypeScript loop)', () => {
    const img = noise(37, 11);
    for (const t of [-1, 127.5, 256, 1000])
      sameBits(thresholdImage(img, t).data, thresholdImageJs(img, t).data);
  });
});

describe('A5 rounding: wasm = TypeScript', () => {
  it('halves, edges, NaN, infinities, odd lengths', () => {
    const special = [
      -0.5,
      -0.4999999999999999,
      0.5,
      0.49999999999999994,
      -0,
      0,
      254.5,
      254.49999999999997,
      255.5,
      255.49999999999997,
      256,
      -1e300,
      1e300,
      NaN,
      Infinity,
      -Infinity,
    ];
    for (let k = -3; k < 260; k++) special.push(k + 0.5, k, k - 1e-9, k + 0.5 - 1e-12);
    const all = Float64Array.from(special);
    sameBits(roundClip(all), roundClipJs(all));
    for (const n of [1, 2, 3, 15, 16, 17, 31, 33, 1001]) {
      const v = Float64Array.from({ length: n }, () => rand() * 600 - 300);
      sameBits(roundClip(v), roundClipJs(v));
    }
  });
});

describe('bilinear resize: wasm = opencv-wasm', () => {
  const cases: Array<[number, number, number, number]> = [
    [1, 1, 7, 5],
    [3, 2, 683, 97],
    [683, 97, 1024, 768],
    [100, 100, 37, 41],
    [5, 9, 5, 9],
    [2, 3, 1, 1], // not an exact 2× reduction on both axes: the kernel
    [2, 2, 1, 1], // exact 2× reductions: OpenCV's area path
    [64, 34, 32, 17],
    [17, 13, 18, 14],
  ];
  for (const [sw, sh, w, h] of cases) {
    it(`${sw} × ${sh} → ${w} × ${h}`, () => {
      const img = noise(sw, sh);
      sameBits(resizeLinear(img, w, h).data, cv.resizeLinear(img, w, h).data);
    });
  }
  it('A1-like crops of a photo upscaled to its size', async () => {
    const a2 = await photo('chelsea.png');
    for (const [x, y, w, h] of [
      [10, 20, 300, 200],
      [0, 0, 451, 300],
      [7, 3, 1, 1],
      [100, 100, 33, 17],
    ] as const) {
      const data = new Uint8Array(w * h);
      for (let r = 0; r < h; r++)
        data.set(a2.data.subarray((y + r) * a2.width + x, (y + r) * a2.width + x + w), r * w);
      const crop: Image8 = { width: w, height: h, channels: 1, data };
      sameBits(
        resizeLinear(crop, a2.width, a2.height).data,
        cv.resizeLinear(crop, a2.width, a2.height).data,
      );
    }
  });
});

describe('metrics sums and counts: wasm = TypeScript', () => {
  it('Σx and Σx² of photos, odd sizes, white images of a million pixels', async () => {
    const images = [
      await photo('astronaut.png'),
      await photo('rocket.jpg'),
      ...SIZES.map(([w, h]) => noise(w, h)),
    ];
    images.push({
      width: 1031,
      height: 1021,
      channels: 1,
      data: new Uint8Array(1031 * 1021).fill(255),
    });
    for (const img of images) {
      const fast = sumsKernel(img.data)!;
      const ref = pixelSumsJs(img);
      expect(fast.sum).toBe(ref.sum);
      expect(fast.squares).toBe(ref.squares);
    }
  });
  it('lowFrequencyFraction, constant and varying images', async () => {
    const images = [await photo('camera.png'), noise(683, 97), noise(1, 1), noise(5, 3)];
    images.push({ width: 9, height: 4, channels: 1, data: new Uint8Array(36).fill(3) });
    images.push({
      width: 9,
      height: 4,
      channels: 1,
      data: Uint8Array.from({ length: 36 }, (_, i) => (i === 35 ? 4 : 3)),
    });
    for (const img of images) {
      for (const c of [0.05, 0.2])
        expect(
          Object.is(
            lowFrequencyFraction(img, c),
            inJs(() => lowFrequencyFraction(img, c)),
          ),
        ).toBe(true);
    }
    expect(lowFrequencyFraction(images[4]!, 0.05)).toBeNull();
  });
  it('equalBytes (memcmp): views at offsets, one byte apart, lengths apart', () => {
    const a = bytes(1000);
    const b = new Uint8Array(1003);
    b.set(a, 3);
    expect(equalBytes(a, b.subarray(3))).toBe(true);
    expect(equalBytes(a.subarray(1), b.subarray(4))).toBe(true);
    expect(equalBytes(a, b.subarray(3, 1002))).toBe(false);
    b[900] = b[900]! ^ 1;
    expect(equalBytes(a, b.subarray(3))).toBe(false);
    expect(equalBytes(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
  it('foreground fractions: the count = fractionOf', () => {
    const img = noise(683, 97);
    for (const v of [0, 100, 255])
      expect(countedFraction(img, v)).toBe(inJs(() => countedFraction(img, v)));
  });
  it('counts of each value, lengths across the kernel chunk (255 × 16 bytes)', () => {
    for (const n of [0, 1, 15, 16, 17, 4079, 4080, 4081, 4096, 70001]) {
      const data = bytes(n);
      for (const v of [0, 1, 128, 255]) {
        let want = 0;
        for (let i = 0; i < n; i++) if (data[i] === v) want++;
        expect(countKernel(data, v)).toBe(want);
      }
    }
    const zeros = new Uint8Array(1 << 20);
    expect(countKernel(zeros, 0)).toBe(1 << 20);
    expect(countKernel(zeros, 255)).toBe(0);
  });
});

describe('variants A0–A5 and their metrics: kernels on = off', () => {
  for (const file of ['astronaut.png', 'camera.png']) {
    it(file, async () => {
      const recipe = defaultRecipe();
      const run = async () => {
        const buf = readFileSync(new URL(`../../../corpora/demo/${file}`, import.meta.url));
        const { image, facts } = await decodeA0(buf, recipe.original);
        const a2 = luma(image);
        const base = metricsBase(a2, recipe);
        const ctx: EntryContext = { recipe, a0: image, a2, a0Params: { ...facts } };
        const out: Array<{ data: Uint8Array; params: unknown; metrics: unknown }> = [];
        for (const def of VARIANTS.slice(0, 6)) {
          const r = await def.run(ctx);
          out.push({
            data: r.image.data,
            params: r.params,
            metrics: { ...r.metrics, ...variantMetrics(def.code, r.image, r.params, base, recipe) },
          });
        }
        return out;
      };
      const fast = await run();
      process.env.STIMKIT_KERNELS = 'js';
      const ref = await run();
      delete process.env.STIMKIT_KERNELS;
      for (let i = 0; i < fast.length; i++) {
        sameBits(fast[i]!.data, ref[i]!.data);
        expect(fast[i]!.params).toEqual(ref[i]!.params);
        expect(fast[i]!.metrics).toEqual(ref[i]!.metrics);
      }
    });
  }
});
