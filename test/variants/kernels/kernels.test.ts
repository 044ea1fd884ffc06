/**
 * Every WebAssembly kernel module (one per file of src/variants/kernels/as/) is built and loads.
 * Fails, not skips, when `npm run build` has not run. Each module's own test compares it with the
 * TypeScript it stands for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../../src/core/errors.js';
import { kernel, kernelFile, requiredKernel, reserve } from '../../../src/variants/kernels/load.js';
import { lowpass } from '../../../src/variants/ops/lowpass.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';

const MODULES = readdirSync(new URL('../../../src/variants/kernels/as/', import.meta.url))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''));

describe('the kernels are built and load', () => {
  it('there are kernels', () => expect(MODULES.length).toBeGreaterThan(0));
  for (const name of MODULES) {
    it(name, () => {
      expect(kernel(name), `${kernelFile(name)} is missing: run \`npm run build\``).not.toBeNull();
    });
  }
});

describe('memory', () => {
  it('grows to what a call needs, and says what to do when it cannot', () => {
    const k = kernel('fft')!;
    const base = reserve(k, 3 * 2 ** 20);
    expect(k.memory.buffer.byteLength).toBeGreaterThanOrEqual(base + 3 * 2 ** 20);
    let caught: unknown;
    try {
      reserve(k, 5 * 2 ** 30);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StimkitError);
    const e = caught as StimkitError;
    expect(e.code).toBe('E_VARIANTS_KERNEL_MEMORY');
    expect(e.message).toMatch(/cannot hold this image \(5121 MiB needed/);
    expect(e.fix).toMatch(/original\.max_side.*STIMKIT_KERNELS=js/);
  });
});

describe("A5's transforms have one implementation: their kernels", () => {
  it('run with STIMKIT_KERNELS=js too (no TypeScript FFT, no fft.js): the same bytes', () => {
    const width = 97;
    const height = 61;
    const data = Uint8Array.from({ length: width * height }, (_, i) => (i * 37 + i * i * 11) % 256);
    const image = { width, height, channels: 1 as const, data };
    for (const filter of ['gaussian', 'ideal'] as const) {
      const p = { ...defaultRecipe().lowpass, filter };
      const fast = lowpass(image, p);
      process.env.STIMKIT_KERNELS = 'js';
      try {
        const off = lowpass(image, p);
        expect(Buffer.from(off.image.data).equals(Buffer.from(fast.image.data)), filter).toBe(true);
        expect(off.retained).toBe(fast.retained);
      } finally {
        delete process.env.STIMKIT_KERNELS;
      }
    }
  });
  it('no source file imports fft.js', () => {
    const src = fileURLToPath(new URL('../../../src/', import.meta.url));
    const importers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .filter((f) =>
        /from 'fft\.js'|import\('fft\.js'\)/.test(readFileSync(path.join(src, f), 'utf8')),
      );
    expect(importers).toEqual([]);
  });
  it('a kernel that is not built: E_VARIANTS_KERNEL_MISSING, with the fix', () => {
    let caught: unknown;
    try {
      requiredKernel('no-such-kernel');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StimkitError);
    const e = caught as StimkitError;
    expect(e.code).toBe('E_VARIANTS_KERNEL_MISSING');
    expect(e.message).toMatch(/no-such-kernel is not built/);
    expect(e.fix).toMatch(/npm run build/);
  });
});
