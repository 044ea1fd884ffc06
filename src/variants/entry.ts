/**
 * One entry through the ladder: decode A0 once, derive A2, run each selected variant, write its
 * PNG, measure it. Which outputs are reused (inputs hash unchanged, file still with the recorded
 * sha256) is decided before the run starts (reuse/reuse.ts) and arrives with the job. A failing variant
 * is recorded with its error; the others go on.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, StimkitError } from '../core/errors.js';
import { sha256, writeIfChanged } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import type { Role } from '../ingest/schema.js';
import type { Libraries } from './libraries.js';
import type { EntryRecord, VariantRecord } from './lock.js';
import { lockMessage } from './messages.js';
import { metricsBase, variantMetrics, type MetricsBase } from './metrics/metrics.js';
import { decodeA0 } from './ops/original.js';
import { encodePng } from './ops/png.js';
import { luma } from './ops/grayscale.js';
import type { Recipe } from './recipe.js';
import { variantByCode, variantFileName } from './ops/registry.js';
import type {
  EntryContext,
  MetricValue,
  SharedSegmenter,
  VariantCode,
  VariantDef,
} from './types.js';

/** One entry to process, from the corpus lock. */
export interface EntryJob {
  id: string;
  roles: Role[];
  /** Absolute path of the image. */
  imagePath: string;
  /** The image path as recorded in the variants lock (relative to its folder). */
  imageRef: string;
  /** sha256 the corpus lock recorded for the image. */
  sha256: string;
  /** The variants to make for this entry (the run's selection, or the entry's own under `entryCodes`). */
  codes: VariantCode[];
  /** `inputsHash` of each code, in the order of `codes`. */
  hashes: string[];
  /** For each code, the earlier record that stands for it (verified), or null to compute it. */
  reuse: Array<VariantRecord | null>;
}

/** What every entry of a run shares. */
export interface EntryPlan {
  outDir: string;
  recipe: Recipe;
  /** Library versions (libraries.ts), part of every inputs hash. */
  libraries: Libraries;
  codes: VariantCode[];
  pixelLimit: number | false;
  segmenter?: SharedSegmenter;
  segmenterError?: { code: string; message: string };
}

/** What an inputs hash depends on besides the job: the recipe, the libraries, A6's segmenter (or why there is none). */
export interface HashContext {
  recipe: Recipe;
  libraries: Libraries;
  segmenter?: { description: Record<string, unknown> };
  segmenterError?: { code: string };
}

/** Counts of one entry's outputs. */
export interface EntryOutcome {
  record: EntryRecord;
  computed: number;
  reused: number;
}

/** The recipe sections a variant's record depends on. */
function recipeFor(v: VariantDef, recipe: Recipe): Record<string, unknown> {
  const sections: Record<string, unknown> = { original: recipe.original };
  for (const k of v.recipeKeys) sections[k] = recipe[k];
  sections.edges = recipe.edges; // every variant's edge-density metrics use A3's detector
  sections.metrics = recipe.metrics;
  sections.output = recipe.output;
  return sections;
}

/** sha256 of everything a variant's output and record depend on. */
export function inputsHash(
  v: VariantDef,
  job: Pick<EntryJob, 'sha256'>,
  plan: HashContext,
): string {
  const segmenter =
    v.code === 'A6'
      ? (plan.segmenter?.description ?? { unavailable: plan.segmenterError?.code ?? true })
      : null;
  // Every variant depends on all three libraries (libraries.ts): sharp decodes A0 and encodes each
  // PNG, and every record's metrics use A3's detector (opencv-wasm).
  return sha256(
    canonicalJson({
      tool: TOOL.version,
      libraries: plan.libraries,
      image: job.sha256,
      code: v.code,
      recipe: recipeFor(v, plan.recipe),
      segmenter,
    }),
  );
}

/** `{code, message}` of an error as the lock records it (paths relative to the output folder). */
function errorRecord(err: unknown, outDir: string): { code: string; message: string } {
  return {
    code: err instanceof StimkitError ? err.code : 'E_VARIANTS_INTERNAL',
    message: lockMessage(errorMessage(err), outDir),
  };
}

function failedRecord(
  v: VariantDef,
  hash: string,
  plan: Pick<EntryPlan, 'recipe' | 'outDir'>,
  err: unknown,
): VariantRecord {
  return {
    code: v.code,
    name: v.name,
    status: 'failed',
    file: null,
    sha256: null,
    width: null,
    height: null,
    channels: null,
    inputs_sha256: hash,
    params: recipeFor(v, plan.recipe),
    metrics: {},
    error: errorRecord(err, plan.outDir),
  };
}

/** The source image's bytes; a missing or unreadable file is this entry's error, with a fix. */
async function readImage(job: EntryJob): Promise<Buffer> {
  try {
    return await readFile(job.imagePath);
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw StimkitError.fromProblem(
      {
        code: missing ? 'E_VARIANTS_IMAGE_MISSING' : 'E_VARIANTS_IMAGE_UNREADABLE',
        file: job.imageRef,
        entry: job.id,
        message: missing
          ? 'the image the corpus lock lists is not there'
          : `the image cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        expected: `the file with sha256 ${job.sha256}`,
        got: missing ? 'no file' : 'an unreadable file',
        fix: missing
          ? 'restore the image at that path (relative to the output folder), or correct the entries manifest and rerun `stimkit ingest`'
          : 'check the permissions of the image file',
      },
      err,
    );
  }
}

/** The source image's bytes, checked against the sha256 the corpus lock recorded. */
async function lockedImage(job: EntryJob): Promise<Buffer> {
  const bytes = await readImage(job);
  const digest = sha256(bytes);
  if (digest !== job.sha256)
    throw StimkitError.fromProblem({
      code: 'E_VARIANTS_IMAGE_CHANGED',
      file: job.imageRef,
      entry: job.id,
      message: 'the image is not the one the corpus lock recorded',
      expected: job.sha256,
      got: digest,
      fix: 'rerun `stimkit ingest` (or pass the entries manifest to `stimkit variants`) to lock the current image',
    });
  return bytes;
}

/**
 * Make one variant and measure it; its PNG is encoded by sharp on its own thread meanwhile and
 * written by the returned `finish`, which the caller awaits after starting the next variants (so
 * that encoding overlaps the next variant's work instead of leaving this thread idle).
 */
async function startOne(
  v: VariantDef,
  ctx: EntryContext,
  base: MetricsBase,
  job: EntryJob,
  plan: EntryPlan,
  hash: string,
): Promise<() => Promise<VariantRecord>> {
  const result = await v.run(ctx);
  const encoding = encodePng(result.image, plan.recipe.output.png_compression);
  encoding.catch(() => undefined); // awaited in finish; never an unhandled rejection meanwhile
  const metrics: Record<string, MetricValue> = {
    ...result.metrics,
    ...variantMetrics(v.code, result.image, result.params, base, plan.recipe),
  };
  return async () => {
    const png = await encoding;
    const rel = `${job.id}/${variantFileName(v)}`;
    await writeIfChanged(path.join(plan.outDir, rel), png);
    return {
      code: v.code,
      name: v.name,
      status: 'ok',
      file: rel,
      sha256: sha256(png),
      width: result.image.width,
      height: result.image.height,
      channels: result.image.channels,
      inputs_sha256: hash,
      params: result.params,
      metrics,
      error: null,
    };
  };
}

/**
 * A turn of the event loop between two variants, so that a thread running entries beside worker
 * threads (run.ts) hands the next entry to a worker that finished without waiting for this entry.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Run the selected variants of one entry. Never throws for a problem of this entry's own. */
export async function processEntry(job: EntryJob, plan: EntryPlan): Promise<EntryOutcome> {
  const defs = job.codes.map(variantByCode);
  const { hashes, reuse } = job;
  const entry = (variants: VariantRecord[], error: EntryRecord['error'] = null): EntryRecord => ({
    id: job.id,
    status: error || variants.some((r) => r.status === 'failed') ? 'failed' : 'ok',
    roles: job.roles,
    image: { file: job.imageRef, sha256: job.sha256 },
    error,
    variants,
  });
  const failAll = (err: unknown): EntryOutcome => {
    const failed = defs.map((v, i) => failedRecord(v, hashes[i]!, plan, err));
    return { record: entry(failed, errorRecord(err, plan.outDir)), computed: 0, reused: 0 };
  };
  if (reuse.every(Boolean)) {
    // Nothing to compute, but the image is still the one locked: a swapped or deleted source
    // fails here as it would in a new folder, never reuses its old outputs.
    try {
      await lockedImage(job);
    } catch (err) {
      return failAll(err);
    }
    return { record: entry(reuse as VariantRecord[]), computed: 0, reused: defs.length };
  }

  let ctx: EntryContext;
  let base: MetricsBase;
  try {
    const bytes = await lockedImage(job);
    const { image: a0, facts } = await decodeA0(bytes, plan.recipe.original, plan.pixelLimit);
    const a2 = luma(a0);
    ctx = {
      recipe: plan.recipe,
      a0,
      a2,
      a0Params: { ...facts },
      segmenter: plan.segmenter,
      segmenterError: plan.segmenterError,
    };
    base = metricsBase(a2, plan.recipe);
  } catch (err) {
    return failAll(err);
  }

  // Each slot: a record already known (reused or failed), or the finishing step of a variant
  // whose PNG is still being encoded.
  const slots: Array<VariantRecord | (() => Promise<VariantRecord>)> = [];
  let reused = 0;
  for (let i = 0; i < defs.length; i++) {
    const v = defs[i]!;
    const kept = reuse[i];
    if (kept) {
      slots.push(kept);
      reused++;
      continue;
    }
    try {
      slots.push(await startOne(v, ctx, base, job, plan, hashes[i]!));
    } catch (err) {
      slots.push(failedRecord(v, hashes[i]!, plan, err));
    }
    await nextTurn();
  }
  const records: VariantRecord[] = [];
  let computed = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if (typeof slot !== 'function') {
      records.push(slot);
      continue;
    }
    try {
      records.push(await slot());
      computed++;
    } catch (err) {
      records.push(failedRecord(defs[i]!, hashes[i]!, plan, err));
    }
  }
  return { record: entry(records), computed, reused };
}

/** The outcome of an entry that could not be processed at all (e.g. its worker thread died). */
export function failedOutcome(job: EntryJob, plan: EntryPlan, err: unknown): EntryOutcome {
  const defs = job.codes.map(variantByCode);
  return {
    record: {
      id: job.id,
      status: 'failed',
      roles: job.roles,
      image: { file: job.imageRef, sha256: job.sha256 },
      error: errorRecord(err, plan.outDir),
      variants: defs.map((v, i) => failedRecord(v, job.hashes[i]!, plan, err)),
    },
    computed: 0,
    reused: 0,
  };
}
