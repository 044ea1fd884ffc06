/**
 * The last phase of `runVariants`: quality metrics and warnings, the variants lock, the contact
 * sheet and review pages, and writing the lock (only when its bytes change).
 */
import path from 'node:path';
import { relPosix, sha256, writeIfChanged } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import type { LockEntry } from '../ingest/lock.js';
import type { Role } from '../ingest/schema.js';
import type { Libraries } from './libraries.js';
import { fileRef, type Shard, type VariantsInput } from './input.js';
import {
  LOCK_NAME,
  shardLockName,
  VARIANTS_FORMAT,
  VARIANTS_VERSION,
  type EntryRecord,
  type VariantsLock,
} from './lock.js';
import { qualityThresholds, type Recipe } from './recipe.js';
import { applyWarnings } from './quality/apply.js';
import { addShapeMetrics } from './quality/shape.js';
import type { VariantCode } from './types.js';
import type { SegmenterIdentity } from './segment/segmenter.js';
import type { LockGuard } from './reuse/stale.js';

/** What a run works on, resolved before any work. */
export interface RunSetup {
  entryCodes: Record<string, VariantCode[]> | null;
  codes: VariantCode[];
  recipe: Recipe;
  resolved: VariantsInput;
  shard: Shard | null;
  selected: LockEntry[];
  libraries: Libraries;
  warnings: string[];
}

/** The records of the processed entries, and what was computed and reused. */
export interface Processed {
  records: EntryRecord[];
  computed: number;
  reused: number;
  identity: SegmenterIdentity;
}

/** What `writeRunOutputs` wrote. */
export interface RunOutputs {
  outDir: string;
  lockFile: string;
  lockSha256: string;
  lockWritten: boolean;
  lock: VariantsLock;
  failed: number;
  reviewPages: string[];
}

function countOutputs(entries: EntryRecord[]): number {
  return entries.reduce((n, e) => n + e.variants.filter((v) => v.status === 'ok').length, 0);
}

/**
 * Add the quality metrics and warnings to the records, then write the contact sheet (unless a
 * shard or turned off), the review pages (when asked) and the lock.
 */
export async function writeRunOutputs(
  setup: RunSetup,
  options: { roles?: Role[]; contactSheet?: boolean; review?: boolean },
  processed: Processed,
  guard: LockGuard,
): Promise<RunOutputs> {
  const { records } = processed;
  const { outDir } = setup.resolved;
  await addShapeMetrics(records, outDir);
  const lock = await assembleLock(setup, options, processed);
  if (!setup.shard && options.contactSheet !== false && records.length > 0) {
    const { currentSheets, writeContactSheet } = await import('./sheet/contact-sheet.js');
    lock.contact_sheets =
      (await currentSheets(lock, path.join(outDir, LOCK_NAME), outDir)) ??
      (await writeContactSheet(records, setup.codes, outDir, {
        cell: setup.recipe.contact_sheet.cell,
        title: `stimkit variants - ${setup.resolved.corpusLock.corpus}`,
        compression: setup.recipe.output.png_compression,
        beforeWrite: (file, digest) => guard.beforeWrite(new Map([[file, digest]])),
      }));
  }
  let reviewPages: string[] = [];
  if (options.review) {
    const { writeReview } = await import('./sheet/review.js');
    const pages = await writeReview(records, outDir, {
      cell: setup.recipe.contact_sheet.cell,
      title: `stimkit variants review - ${setup.resolved.corpusLock.corpus}`,
      compression: setup.recipe.output.png_compression,
    });
    reviewPages = pages.map((p) => p.file);
  }
  const lockName = setup.shard ? shardLockName(setup.shard.index, setup.shard.count) : LOCK_NAME;
  const lockFile = path.join(outDir, lockName);
  const text = artifactJson(lock);
  const lockWritten = await writeIfChanged(lockFile, text);
  await guard.written(lockName);
  const failed = lock.summary.failed;
  return { outDir, lockFile, lockSha256: sha256(text), lockWritten, lock, failed, reviewPages };
}

/** The variants lock of the run, before its contact sheets are known. */
async function assembleLock(
  setup: RunSetup,
  options: { roles?: Role[] },
  processed: Processed,
): Promise<VariantsLock> {
  const { records } = processed;
  const { resolved, recipe, codes } = setup;
  const { outDir, corpusLock } = resolved;
  const quality = applyWarnings(records, qualityThresholds(recipe));
  const manifest = resolved.manifestFile
    ? { file: relPosix(outDir, resolved.manifestFile), sha256: corpusLock.manifest.sha256 }
    : null;
  const failed = records.filter((r) => r.status === 'failed').length;
  const skipped = records.filter((r) => r.status === 'skipped').length;
  return {
    format: VARIANTS_FORMAT,
    version: VARIANTS_VERSION,
    tool: { name: TOOL.name, version: TOOL.version },
    corpus: corpusLock.corpus,
    inputs: { corpus_lock: await fileRef(resolved.corpusLockFile, outDir), manifest },
    selection: {
      variants: codes,
      roles: options.roles ?? null,
      shard: setup.shard,
      entry_codes: setup.entryCodes,
    },
    recipe,
    libraries: setup.libraries,
    segmenter: processed.identity.description ?? null,
    entries: records,
    contact_sheets: [],
    summary: {
      entries: records.length,
      ok: records.length - failed - skipped,
      failed,
      skipped,
      outputs: countOutputs(records),
    },
    quality,
  };
}
