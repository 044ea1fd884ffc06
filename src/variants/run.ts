/**
 * `runVariants(input, options)`: the abstraction ladder over a corpus. Resolves the input (corpus
 * lock, or an entries manifest ingested first), the recipe and the selection; decides which
 * outputs earlier locks already vouch for (reuse/reuse.ts); loads one segmenter for the whole run only
 * when some A6 output must be computed; moves aside every lock that vouches for a file about to
 * be rewritten (reuse/stale.ts); processes entries concurrently (p-map; a failing entry does not stop
 * the others); writes the contact sheet and the variants lock.
 */
import os from 'node:os';
import path from 'node:path';
import pMap from 'p-map';
import { relPosix, sha256, writeIfChanged } from '../core/fsio.js';
import { artifactJson, canonicalJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import type { Role } from '../ingest/schema.js';
import { currentSheets, writeContactSheet } from './sheet/contact-sheet.js';
import { writeReview } from './sheet/review.js';
import {
  failedOutcome,
  processEntry,
  type EntryJob,
  type EntryOutcome,
  type EntryPlan,
} from './entry.js';
import { libraryVersions } from './libraries.js';
import { fileRef, resolveInput, selectEntries, type Shard } from './input.js';
import {
  LOCK_NAME,
  readPriorLocks,
  shardLockName,
  VARIANTS_FORMAT,
  VARIANTS_VERSION,
  type EntryRecord,
  type VariantRecord,
  type VariantsLock,
} from './lock.js';
import { EntryPool } from './pool/pool.js';
import type { Progress } from './progress.js';
import { qualityThresholds, resolveRecipe, type Recipe, type RecipeOverrides } from './recipe.js';
import { applyWarnings } from './quality/apply.js';
import { addShapeMetrics } from './quality/shape.js';
import { parseOnly } from './ops/registry.js';
import { ReusePlanner, type EntryTask } from './reuse/reuse.js';
import { VARIANT_CODES, type VariantCode } from './types.js';
import {
  defaultSegmenterFactory,
  identifySegmenter,
  loadSegmenter,
  type LoadedSegmenter,
  type SegmenterFactory,
  type SegmenterIdentity,
} from './segment/segmenter.js';
import type { Segmenter } from './segment/index.js';
import { LockGuard } from './reuse/stale.js';

/** Options of `runVariants`; every field is optional. */
export interface VariantsOptions {
  /** Output folder (default `variants/<corpus>` under the working directory). */
  out?: string;
  /** Variant codes to produce (`A3`, `edges`, …); default all seven. */
  only?: string[];
  /** Recipe file (YAML/JSON) overriding the defaults of VARIANTS.md. */
  recipeFile?: string;
  /** Flag overrides, applied over the recipe file. */
  overrides?: RecipeOverrides;
  /** An already resolved recipe (wins over `recipeFile` and `overrides`). */
  recipe?: Recipe;
  /** Entries processed at once, each in its own worker thread when more than one (default: number of cores). */
  jobs?: number;
  /** Only this share of the entries; writes `variants.shard-I-of-N.lock.json` and no contact sheet. */
  shard?: Shard;
  /** Only entries with at least one of these roles (default: every entry with an image). */
  roles?: Role[];
  /**
   * Variants per entry id: only these entries are processed, each with its own codes (`only` is
   * then ignored). The bundle uses it to make just the images its trials show.
   */
  entryCodes?: Record<string, VariantCode[]>;
  /** Write the contact sheet (default true; never for a shard). */
  contactSheet?: boolean;
  /** Write the review page (`review.png`): only the entries with quality warnings, beside their A0. */
  review?: boolean;
  /** A segmenter to use for A6 instead of loading one (not disposed by runVariants). */
  segmenter?: Segmenter;
  /** How to load a segmenter (default: `createSegmenter` of src/variants/segment). */
  segmenterFactory?: SegmenterFactory;
  progress?: Progress;
}

/** What a run did. */
export interface VariantsResult {
  outDir: string;
  lockFile: string;
  lockSha256: string;
  lockWritten: boolean;
  lock: VariantsLock;
  /** Outputs computed in this run, and reused from an earlier run's lock. */
  computed: number;
  reused: number;
  failed: number;
  /** Locks moved aside (renamed `<name>.stale`) because files they vouched for were rewritten. */
  retiredLocks: string[];
  /** Whether the segmenter was loaded (only when some A6 output had to be computed). */
  segmenterLoaded: boolean;
  /** Notes for the user (unreadable earlier locks, unavailable segmenter, …). */
  warnings: string[];
  /** Review pages written (`--review`), file names in `outDir`; empty when none was asked for or nothing warned. */
  reviewPages: string[];
}

/** Entry codes validated (as `--only` values) and put in registry order, entries sorted by id. */
function normaliseEntryCodes(map: Record<string, VariantCode[]>): Record<string, VariantCode[]> {
  return Object.fromEntries(
    Object.keys(map)
      .filter((id) => (map[id] ?? []).length > 0)
      .sort()
      .map((id) => [id, parseOnly(map[id])]),
  );
}

/** Every code any entry asks for, in registry order. */
function unionCodes(map: Record<string, VariantCode[]>): VariantCode[] {
  const all = new Set(Object.values(map).flat());
  return VARIANT_CODES.filter((c) => all.has(c));
}

function identityOf(seg: LoadedSegmenter): SegmenterIdentity {
  return seg.shared ? { description: seg.shared.description } : { error: seg.error };
}

function countOutputs(entries: EntryRecord[]): number {
  return entries.reduce((n, e) => n + e.variants.filter((v) => v.status === 'ok').length, 0);
}

/**
 * Produce the selected variants of every selected entry of `input` (an entries manifest or a
 * corpus lock) and write `variants.lock.json` (or a shard lock) and the contact sheet.
 *
 * @example
 * const r = await runVariants('corpora/demo/corpus.lock.json', { out: 'variants/demo', only: ['A3', 'A5'] });
 * if (r.failed > 0) process.exitCode = 1;
 */
export async function runVariants(
  input: string,
  options: VariantsOptions = {},
): Promise<VariantsResult> {
  const entryCodes = options.entryCodes ? normaliseEntryCodes(options.entryCodes) : null;
  const codes = entryCodes ? unionCodes(entryCodes) : parseOnly(options.only);
  const recipe = options.recipe ?? (await resolveRecipe(options.recipeFile, options.overrides));
  const resolved = await resolveInput(input, options.out);
  const { outDir, corpusLock } = resolved;
  const shard = options.shard ?? null;
  const selected = selectEntries(corpusLock, options.roles ?? null, shard).filter(
    (e) => !entryCodes || e.id in entryCodes,
  );
  const warnings: string[] = [];

  const priors = await readPriorLocks(outDir);
  for (const u of priors.unreadable)
    warnings.push(`ignored ${u.file} (cannot reuse its outputs): ${u.message}`);
  const prior = new Map<string, VariantRecord[]>();
  for (const found of [
    ...priors.locks.filter((l) => !l.stale),
    ...priors.locks.filter((l) => l.stale),
  ]) {
    for (const e of found.lock.entries)
      for (const v of e.variants)
        if (v.status === 'ok')
          prior.set(`${e.id}/${v.code}`, [...(prior.get(`${e.id}/${v.code}`) ?? []), v]);
  }
  const guard = new LockGuard(
    outDir,
    priors.locks,
    priors.unreadable.map((u) => u.file),
  );

  const tasks: EntryTask[] = selected
    .filter((e) => e.image.resolved.status === 'ok' && e.image.resolved.sha256)
    .map((entry) => {
      const imagePath = path.resolve(
        path.dirname(resolved.corpusLockFile),
        entry.image.resolved.file,
      );
      return {
        id: entry.id,
        roles: entry.roles,
        imagePath,
        imageRef: relPosix(outDir, imagePath),
        sha256: entry.image.resolved.sha256!,
        codes: entryCodes?.[entry.id] ?? codes,
      };
    });
  const libraries = libraryVersions();
  const jobs = options.jobs ?? Math.max(1, os.availableParallelism());
  const planner = new ReusePlanner(outDir, prior, Math.max(4, jobs));
  const factory = options.segmenterFactory ?? defaultSegmenterFactory;

  let seg: LoadedSegmenter | undefined;
  let pool: EntryPool | null = null;
  let computed = 0;
  let reused = 0;
  let done = 0;
  let records: EntryRecord[];
  let identity: SegmenterIdentity = {};
  try {
    // A6's identity without loading a model when the factory can describe it; reuse is decided
    // with it, and the model is loaded only if some A6 output must be computed.
    if (codes.includes('A6') && tasks.length > 0) {
      const described = options.segmenter ? null : await identifySegmenter(recipe, factory);
      if (described) identity = described;
      else identity = identityOf((seg = await loadSegmenter(recipe, options.segmenter, factory)));
    }
    let reuse = await planner.plan(tasks, { recipe, libraries }, identity);
    if (reuse.needsA6 && !seg && identity.description) {
      seg = await loadSegmenter(recipe, undefined, factory);
      const loaded = identityOf(seg);
      if (canonicalJson(loaded) !== canonicalJson(identity)) {
        if (loaded.description)
          warnings.push(
            'the loaded segmenter does not match the description made without loading it; A6 reuse was decided again with the loaded one',
          );
        identity = loaded;
        reuse = await planner.plan(tasks, { recipe, libraries }, identity);
      }
    }
    if (identity.error) warnings.push(`A6 cannot run: ${identity.error.message}`);
    // Before the first output is rewritten, no lock may still vouch for it.
    await guard.beforeWrite(new Map([...reuse.toCompute].map((f) => [f, null])));

    const plan: EntryPlan = {
      outDir,
      recipe,
      libraries,
      codes,
      pixelLimit: corpusLock.parameters.pixel_limit,
      segmenter: seg?.shared,
      segmenterError: identity.error,
    };
    const byId = new Map(reuse.jobs.map((j) => [j.id, j]));
    const work = reuse.jobs.filter((j) => j.reuse.some((r) => !r)).length;
    // More than one job: worker threads, so that the CPU-bound work uses several cores — unless the
    // segmenter runs: its inference already keeps the cores busy on native threads while this
    // thread computes the other variants, and workers would add their memory to the model's.
    pool = jobs > 1 && work > 1 && !seg?.shared ? new EntryPool(Math.min(jobs, work)) : null;
    const run = (job: EntryJob): Promise<EntryOutcome> =>
      pool && job.reuse.some((r) => !r)
        ? pool.run(job, plan).catch((err: unknown) => failedOutcome(job, plan, err))
        : processEntry(job, plan);
    options.progress?.start(selected.length);
    records = await pMap(
      selected,
      async (entry): Promise<EntryRecord> => {
        const job = byId.get(entry.id);
        let record: EntryRecord;
        if (!job) {
          const imagePath = path.resolve(
            path.dirname(resolved.corpusLockFile),
            entry.image.resolved.file,
          );
          record = {
            id: entry.id,
            status: 'skipped',
            roles: entry.roles,
            image: { file: relPosix(outDir, imagePath), sha256: null },
            error: null,
            variants: [],
          };
        } else {
          const outcome = await run(job);
          computed += outcome.computed;
          reused += outcome.reused;
          record = outcome.record;
        }
        done++;
        options.progress?.update({
          done,
          total: selected.length,
          entry: entry.id,
          status: record.status,
        });
        return record;
      },
      { concurrency: jobs },
    );
  } finally {
    options.progress?.stop();
    await pool?.close();
    await seg?.dispose();
  }

  await addShapeMetrics(records, outDir);
  const quality = applyWarnings(records, qualityThresholds(recipe));
  const manifest = resolved.manifestFile
    ? { file: relPosix(outDir, resolved.manifestFile), sha256: corpusLock.manifest.sha256 }
    : null;
  const failed = records.filter((r) => r.status === 'failed').length;
  const skipped = records.filter((r) => r.status === 'skipped').length;
  const lock: VariantsLock = {
    format: VARIANTS_FORMAT,
    version: VARIANTS_VERSION,
    tool: { name: TOOL.name, version: TOOL.version },
    corpus: corpusLock.corpus,
    inputs: { corpus_lock: await fileRef(resolved.corpusLockFile, outDir), manifest },
    selection: { variants: codes, roles: options.roles ?? null, shard, entry_codes: entryCodes },
    recipe,
    libraries,
    segmenter: identity.description ?? null,
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
  if (!shard && options.contactSheet !== false && records.length > 0) {
    lock.contact_sheets =
      (await currentSheets(lock, path.join(outDir, LOCK_NAME), outDir)) ??
      (await writeContactSheet(records, codes, outDir, {
        cell: recipe.contact_sheet.cell,
        title: `stimkit variants - ${corpusLock.corpus}`,
        compression: recipe.output.png_compression,
        beforeWrite: (file, digest) => guard.beforeWrite(new Map([[file, digest]])),
      }));
  }
  const reviewPages = options.review
    ? (
        await writeReview(records, outDir, {
          cell: recipe.contact_sheet.cell,
          title: `stimkit variants review - ${corpusLock.corpus}`,
          compression: recipe.output.png_compression,
        })
      ).map((p) => p.file)
    : [];
  const lockName = shard ? shardLockName(shard.index, shard.count) : LOCK_NAME;
  const lockFile = path.join(outDir, lockName);
  const text = artifactJson(lock);
  const lockWritten = await writeIfChanged(lockFile, text);
  await guard.written(lockName);
  return {
    outDir,
    lockFile,
    lockSha256: sha256(text),
    lockWritten,
    lock,
    computed,
    reused,
    failed,
    retiredLocks: guard.retired,
    segmenterLoaded: seg?.shared !== undefined && !options.segmenter,
    warnings,
    reviewPages,
  };
}
