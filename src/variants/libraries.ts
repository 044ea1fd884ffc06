/**
 * The versions of the libraries the ladder's bytes and numbers depend on, recorded in the variants
 * lock (`libraries`) and part of every variant's `inputs_sha256`, so that a dependency bump
 * recomputes rather than silently reusing outputs made by other code:
 *
 * - sharp with its libvips and the libraries libvips bundles (`sharp.versions`: lcms for ICC → sRGB,
 *   the PNG/JPEG decoders, zlib for the PNG encoder …): every variant, since A0 is decoded and
 *   every output PNG-encoded by it;
 * - opencv-wasm: A6's grabcut; A3's blur and Canny and the edge-density metrics of every variant
 *   run in stimkit's own kernel (ops/blur.ts, ops/canny.ts), byte for byte what this opencv-wasm
 *   gives, so its version stays recorded (and earlier locks stay reusable).
 *
 * A5's transforms and the low-frequency energy metric run in stimkit's own WebAssembly kernel
 * (ops/fft-kernel.ts), covered by the tool version; no library of their own.
 *
 * A6's own runtime (onnxruntime-node, or opencv-wasm for grabcut) is in the segmenter description.
 */
import { createRequire } from 'node:module';
import sharp from '../core/sharp.js';
import { z } from 'zod';
import { StimkitError } from '../core/errors.js';

export const Libraries = z.strictObject({
  /** `sharp.versions`: sharp, vips and the libraries its libvips was built with. */
  sharp: z.record(z.string(), z.string()),
  'opencv-wasm': z.string(),
  /**
   * Read, never written: the FFT library of locks written before the transforms became stimkit's
   * own kernel. A lock that has it differs from this installation's libraries, so its outputs are
   * recomputed once.
   */
  'fft.js': z.string().optional(),
});
export type Libraries = z.output<typeof Libraries>;

/** The `version` of an installed package's package.json. */
function packageVersion(name: string): string {
  const manifest = createRequire(import.meta.url)(`${name}/package.json`) as { version?: unknown };
  if (typeof manifest.version !== 'string')
    throw new StimkitError('E_VARIANTS_LIBRARY', `${name}/package.json has no version`, {
      fix: 'reinstall stimkit (`npm ci` in a clone) so that its libraries are installed whole',
    });
  return manifest.version;
}

let cached: Libraries | undefined;

/** The library versions of this installation (read once per process). */
export function libraryVersions(): Libraries {
  cached ??= {
    sharp: Object.fromEntries(
      Object.entries(sharp.versions as Record<string, string | undefined>).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    ),
    'opencv-wasm': packageVersion('opencv-wasm'),
  };
  return cached;
}
