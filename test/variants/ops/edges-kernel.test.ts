/**
 * A3's detector and the bilinear resize have one implementation, stimkit's WebAssembly kernels:
 * with STIMKIT_KERNELS=js they still run there (the same bytes) and opencv-wasm is never loaded,
 * whatever the recipe's edges parameters; without the kernel (a source tree that was not built)
 * they fail with E_VARIANTS_KERNEL_MISSING and its fix instead of switching to another
 * implementation. (This file loads no opencv-wasm of its own: each test file has its own modules.)
 */
import type { PathLike } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { kernelFile } from '../../../src/variants/kernels/load.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';
import type { Image8 } from '../../../src/variants/types.js';

const hidden = vi.hoisted(() => new Set<string>());
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const existsSync = (p: PathLike) => !hidden.has(String(p)) && fs.existsSync(p);
  return { ...fs, existsSync, default: { ...fs, existsSync } };
});

const require = createRequire(import.meta.url);
const OPENCV = require.resolve('opencv-wasm');

function image(width: number, height: number): Image8 {
  const data = Uint8Array.from(
    { length: width * height },
    (_, i) => (i * 37 + (i >> 3) * 11) % 256,
  );
  return { width, height, channels: 1, data };
}

const EDGES = [3, 5, 7].flatMap((aperture) =>
  [false, true].map((l2_gradient) => ({
    ...defaultRecipe().edges,
    aperture: aperture as 3 | 5 | 7,
    l2_gradient,
    blur_ksize: aperture === 3 ? 5 : 2 * aperture + 1,
  })),
);

afterEach(() => {
  delete process.env.STIMKIT_KERNELS;
  hidden.clear();
  vi.resetModules();
});

describe('A3 and the bilinear resize: the kernels only', () => {
  it('STIMKIT_KERNELS=js: the same bytes, and opencv-wasm is never loaded', async () => {
    const { edgeMap } = await import('../../../src/variants/ops/edges.js');
    const { resizeLinear } = await import('../../../src/variants/ops/resize-linear.js');
    const grey = image(45, 31);
    const before = EDGES.map((p) => edgeMap(grey, p).image.data);
    const resized = resizeLinear(grey, 70, 50).data;
    process.env.STIMKIT_KERNELS = 'js';
    vi.resetModules();
    const js = await import('../../../src/variants/ops/edges.js');
    const jsResize = await import('../../../src/variants/ops/resize-linear.js');
    EDGES.forEach((p, i) => {
      expect(Buffer.from(js.edgeMap(grey, p).image.data).equals(Buffer.from(before[i]!))).toBe(
        true,
      );
    });
    expect(Buffer.from(jsResize.resizeLinear(grey, 70, 50).data).equals(Buffer.from(resized))).toBe(
      true,
    );
    expect(OPENCV in require.cache, 'opencv-wasm was loaded').toBe(false);
  });

  it('without the kernel: E_VARIANTS_KERNEL_MISSING with the fix, for A3 and the resize', async () => {
    hidden.add(kernelFile('edges'));
    hidden.add(kernelFile('pixels'));
    vi.resetModules();
    const { edgeMap } = await import('../../../src/variants/ops/edges.js');
    const { resizeLinear } = await import('../../../src/variants/ops/resize-linear.js');
    const { StimkitError } = await import('../../../src/core/errors.js'); // the modules' own class
    const grey = image(20, 10);
    for (const run of [
      () => edgeMap(grey, EDGES[0]!),
      () => edgeMap(grey, EDGES[5]!),
      () => resizeLinear(grey, 30, 20),
    ]) {
      let caught: unknown;
      try {
        run();
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(StimkitError);
      expect((caught as InstanceType<typeof StimkitError>).code).toBe('E_VARIANTS_KERNEL_MISSING');
      expect((caught as InstanceType<typeof StimkitError>).fix).toMatch(/npm run build/);
    }
    expect(OPENCV in require.cache, 'opencv-wasm was loaded').toBe(false);
  });
});
