/**
 * The WebAssembly kernels: the hottest loops of the variants and their metrics, written in
 * AssemblyScript with 128-bit SIMD (kernels/as/*.ts) and compiled by `npm run build` to
 * wasm/<name>.wasm. Each kernel does, lane by lane, exactly the operations of the TypeScript loop
 * it stands for, in the same order, so results are the same bits (tests compare the two on photos
 * and odd sizes); it is only faster. The TypeScript loops stay as the reference, and run when the
 * wasm files are missing (a source tree that was not built) or when STIMKIT_KERNELS=js — except
 * for A3's detector (edges), the bilinear resize (pixels) and A5's transforms (fft), whose kernels
 * are their one implementation (`requiredKernel`: a build without them fails with a fix; their
 * tests compare them with opencv-wasm and direct DFTs).
 *
 * A module reports its interface version (`abi()`); one of another version (built from other
 * sources than this code) counts as not built: a required kernel fails with the fix, the others'
 * callers run their TypeScript loops.
 *
 * One instance per module and thread (worker threads each load their own). A call lays its
 * buffers out from the module's heap base, growing the memory when needed; nothing is kept
 * between calls.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { StimkitError } from '../../core/errors.js';
import { PACKAGE_ROOT } from '../../core/tool.js';

/** The parts of the WebAssembly API used here (the ES lib of tsconfig does not declare it). */
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
const { WebAssembly: Wasm } = globalThis as unknown as {
  WebAssembly: {
    Module: new (bytes: Uint8Array) => object;
    Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  };
};

/** A loaded kernel module. */
export interface Kernel {
  exports: Record<string, (...args: number[]) => number | void>;
  memory: WasmMemory;
  /** First byte free for the caller's buffers. */
  base: number;
}

const loaded = new Map<string, Kernel | null>();

/**
 * The interface version each module must report (`abi()` in kernels/as/<name>.ts), raised with any
 * change of an export's signature or meaning: a module built from other sources (a wasm/ folder
 * older than dist/) would otherwise be called with arguments it ignores, in silence.
 */
const ABI: Readonly<Record<string, number>> = { edges: 1, fft: 2, pixels: 1, ssim: 1 };

/** Modules found but of another interface version: name → the version they report (0: none). */
const stale = new Map<string, number>();

/** Where `npm run build` writes the modules: wasm/ at the package root. */
export function kernelFile(name: string): string {
  return path.join(PACKAGE_ROOT, 'wasm', `${name}.wasm`);
}

/** The module `name`, or null when it is not built or STIMKIT_KERNELS=js (callers then run their TypeScript loop). */
export function kernel(name: string): Kernel | null {
  if (process.env.STIMKIT_KERNELS === 'js') return null;
  return loadKernel(name);
}

/**
 * The module `name` of an operation whose one implementation it is (A5's transforms: fft),
 * whatever STIMKIT_KERNELS says; an installation without it (a source tree that was not
 * built) fails here with a fix.
 */
export function requiredKernel(name: string): Kernel {
  const k = loadKernel(name);
  if (!k) {
    const other = stale.get(name);
    throw new StimkitError(
      'E_VARIANTS_KERNEL_MISSING',
      other === undefined
        ? `the WebAssembly kernel ${name} is not built (${kernelFile(name)} is missing)`
        : `the WebAssembly kernel ${name} was built from other sources (${kernelFile(name)} has interface version ${other}, this stimkit needs ${ABI[name]})`,
      { fix: 'run `npm run build` in the stimkit folder (or reinstall stimkit), then rerun' },
    );
  }
  return k;
}

function loadKernel(name: string): Kernel | null {
  const hit = loaded.get(name);
  if (hit !== undefined) return hit;
  const file = kernelFile(name);
  let k: Kernel | null = null;
  if (existsSync(file)) {
    const instance = new Wasm.Instance(new Wasm.Module(readFileSync(file)), {
      env: {
        abort: () => {
          throw new StimkitError('E_VARIANTS_KERNEL', `the WebAssembly kernel ${name} aborted`, {
            fix: 'set STIMKIT_KERNELS=js to use the TypeScript loops where there are any, and report the image',
          });
        },
      },
    });
    const exports = instance.exports as unknown as Kernel['exports'] & {
      memory: WasmMemory;
      base: () => number;
      abi?: () => number;
    };
    const abi = typeof exports.abi === 'function' ? exports.abi() : 0;
    if (abi === ABI[name]) k = { exports, memory: exports.memory, base: exports.base() };
    else stale.set(name, abi);
  }
  loaded.set(name, k);
  return k;
}

/** Make sure `k`'s memory holds `bytes` bytes from its base; returns the base. Views made before a call to this may be detached after it. */
export function reserve(k: Kernel, bytes: number): number {
  const need = k.base + bytes;
  const have = k.memory.buffer.byteLength;
  if (need > have) {
    try {
      k.memory.grow(Math.ceil((need - have) / 65536));
    } catch (err) {
      // A 32-bit memory ends at 4 GiB; only images far above A0's usual size get here.
      throw new StimkitError(
        'E_VARIANTS_KERNEL_MEMORY',
        `the WebAssembly kernels cannot hold this image (${Math.ceil(need / 2 ** 20)} MiB needed; ${(err as Error).message})`,
        {
          cause: err,
          fix: "lower the recipe's original.max_side (STIMKIT_KERNELS=js moves only the operations that have TypeScript loops out of the kernels)",
        },
      );
    }
  }
  return k.base;
}

/** Round a byte offset up to 16 (v128 alignment). */
export const align16 = (n: number): number => (n + 15) & ~15;
