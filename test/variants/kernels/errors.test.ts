/**
 * A kernel that cannot hold an image fails as a StimkitError with a fix, which the CLI prints as
 * an error of the input (exit 1), not as an internal error with a stack.
 */
import { describe, expect, it } from 'vitest';
import { emitError } from '../../../src/cli/output.js';
import { StimkitError } from '../../../src/core/errors.js';
import { reserve, type Kernel } from '../../../src/variants/kernels/load.js';

describe('kernel memory errors', () => {
  it('reserve beyond what the memory can grow to: E_VARIANTS_KERNEL_MEMORY with the fix', () => {
    // A real WebAssembly memory capped at one page: growing it throws, as a 4 GiB memory would.
    const { WebAssembly: Wasm } = globalThis as unknown as {
      WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => Kernel['memory'] };
    };
    const k: Kernel = { exports: {}, memory: new Wasm.Memory({ initial: 1, maximum: 1 }), base: 0 };
    let err: unknown;
    try {
      reserve(k, 2 * 65536);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StimkitError);
    expect((err as StimkitError).code).toBe('E_VARIANTS_KERNEL_MEMORY');
    expect((err as StimkitError).fix).toMatch(/STIMKIT_KERNELS=js/);
    let stderr = '';
    const exit = emitError({ stdout: () => undefined, stderr: (t) => (stderr += t) }, false, err);
    expect(exit).toBe(1);
    expect(stderr).not.toMatch(/internal error/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).toMatch(
      /^stimkit: error E_VARIANTS_KERNEL_MEMORY: the WebAssembly kernels cannot hold this image .*\. Fix: lower the recipe's original\.max_side/,
    );
  });
});
