/**
 * A WebAssembly module built from other sources than the code that calls it (a wasm/ folder older
 * than dist/) is refused, never called with arguments it would ignore: each module reports its
 * interface version (`abi()`), and kernels/load.ts checks it.
 */
import { describe, expect, it, vi } from 'vitest';

// fft.wasm read as pixels.wasm's bytes: a module of another interface version under fft's name.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((file: string, ...rest: unknown[]) =>
    (fs.readFileSync as (...a: unknown[]) => unknown)(
      typeof file === 'string' && file.endsWith('/fft.wasm')
        ? file.replace(/fft\.wasm$/, 'pixels.wasm')
        : file,
      ...rest,
    )) as typeof fs.readFileSync;
  return { ...fs, readFileSync, default: { ...fs, readFileSync } };
});

describe('kernels of another interface version', () => {
  it('are refused with the versions and the fix; the others load', async () => {
    const { kernel, requiredKernel } = await import('../../../src/variants/kernels/load.js');
    expect(() => requiredKernel('fft')).toThrow(
      /the WebAssembly kernel fft was built from other sources \(.*fft\.wasm has interface version 1, this stimkit needs 2\)/,
    );
    expect(kernel('fft')).toBeNull();
    for (const name of ['edges', 'pixels', 'ssim']) expect(requiredKernel(name)).not.toBeNull();
  });
});
