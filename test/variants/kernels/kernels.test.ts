/**
 * Every WebAssembly kernel module (one per file of src/variants/kernels/as/) is built and loads.
 * Fails, not skips, when `npm run build` has not run. Each module's own test compares it with the
 * TypeScript it stands for.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../../src/core/errors.js';
import { kernel, kernelFile, reserve } from '../../../src/variants/kernels/load.js';

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
    const k = kernel('lowpass')!;
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
