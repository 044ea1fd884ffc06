/**
 * `runVariants(input, options)`: the abstraction ladder over a corpus. Resolves the input (corpus
 * lock, or an entries manifest ingested first), the recipe and the selection; decides which
 * outputs earlier locks already vouch for (reuse/reuse.ts); loads one segmenter for the whole run only
 * when some A6 output must be computed; moves aside every lock that vouches for a file about to
 * be rewritten (reuse/stale.ts); processes entries concurrently (p-map; a failing entry does not stop
 * the others); writes the contact sheet and the variants lock.
 */
import pMap from 'p-map';
import { relPosix } from '../core/fsio.js';
import type { Role } from '../ingest/schema.js';
import {
  failedOutcome,
  processEntry,
  type EntryJob,
  type EntryOutcome,
  type EntryPlan,
} from './entry.js';
import { libraryVersions } from './libraries.js';
import { entryImagePath, resolveInput, selectEntries, type Shard } from './input.js';
import type { LockEntry } from '../ingest/lock.js';
import { readPriorLocks, type EntryRecord, type VariantsLock } from './lock.js';
import { defaultJobs, EntryPool } from './pool/pool.js';
import type { Progress } from './progress.js';
import { resolveRecipe, type Recipe, type RecipeOverrides } from './recipe.js';
import { parseOnly } from './ops/registry.js';
import { ReusePlanner } from './reuse/reuse.js';
import { VARIANT_CODES, type VariantCode } from './types.js';
import type { SegmenterFactory } from './segment/segmenter.js';
import type { Segmenter } from './segment/index.js';
import { LockGuard } from './reuse/stale.js';
import { planWork, priorRecords, type HeldResources, type PlannedWork } from './run-plan.js';
import { writeRunOutputs, type Processed, type RunSetup } from './run-write.js';

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
  /**
   * Entries processed at once (default: number of cores): with more than one, this thread runs
   * entries beside `jobs − 1` worker threads.
   */
  jobs?: number;
  /**
   * Worker threads already started for this run (`prestartPool`, by the command line): used when
   * the run wants workers, closed when it ends either way.
   */
  pool?: EntryPool;
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
  const held: HeldResources = { pool: options.pool ?? null };
  let setup: RunSetup;
  let guard: LockGuard;
  let processed: Processed;
  try {
    setup = await resolveRun(input, options);
    const { outDir } = setup.resolved;
    const priors = await readPriorLocks(outDir);
    for (const u of priors.unreadable)
      setup.warnings.push(`ignored ${u.file} (cannot reuse its outputs): ${u.message}`);
    guard = new LockGuard(
      outDir,
      priors.locks,
      priors.unreadable.map((u) => u.file),
    );
    const jobs = options.jobs ?? defaultJobs();
    const planner = new ReusePlanner(outDir, priorRecords(priors.locks), Math.max(4, jobs));
    const planned = await planWork(setup, options, planner, held);
    // Before the first output is rewritten, no lock may still vouch for it.
    await guard.beforeWrite(new Map([...planned.reuse.toCompute].map((f) => [f, null])));
    processed = await processSelected(setup, options, planned, jobs, held);
  } finally {
    options.progress?.stop();
    await held.pool?.close();
    await held.seg?.dispose();
  }
  const written = await writeRunOutputs(setup, options, processed, guard);
  return {
    ...written,
    computed: processed.computed,
    reused: processed.reused,
    retiredLocks: guard.retired,
    segmenterLoaded: held.seg?.shared !== undefined && !options.segmenter,
    warnings: setup.warnings,
  };
}

/** Resolve the codes, recipe, input and selection of a run. */
async function resolveRun(input: string, options: VariantsOptions): Promise<RunSetup> {
  const entryCodes = options.entryCodes ? normaliseEntryCodes(options.entryCodes) : null;
  const codes = entryCodes ? unionCodes(entryCodes) : parseOnly(options.only);
  const recipe = options.recipe ?? (await resolveRecipe(options.recipeFile, options.overrides));
  const resolved = await resolveInput(input, options.out);
  const shard = options.shard ?? null;
  const selected = selectEntries(resolved.corpusLock, options.roles ?? null, shard).filter(
    (e) => !entryCodes || e.id in entryCodes,
  );
  return {
    entryCodes,
    codes,
    recipe,
    resolved,
    shard,
    selected,
    libraries: libraryVersions(),
    warnings: [],
  };
}

/** Process every selected entry (concurrently; a failing entry does not stop the others). */
async function processSelected(
  setup: RunSetup,
  options: VariantsOptions,
  planned: PlannedWork,
  jobs: number,
  held: HeldResources,
): Promise<Processed> {
  const { resolved, selected } = setup;
  const { outDir } = resolved;
  const plan: EntryPlan = {
    outDir,
    recipe: setup.recipe,
    libraries: setup.libraries,
    codes: setup.codes,
    pixelLimit: resolved.corpusLock.parameters.pixel_limit,
    segmenter: held.seg?.shared,
    segmenterError: planned.identity.error,
  };
  const byId = new Map(planned.reuse.jobs.map((j) => [j.id, j]));
  const run = dispatcher(plan, await workersFor(planned, jobs, held));
  const out: Processed = { records: [], computed: 0, reused: 0, identity: planned.identity };
  let done = 0;
  options.progress?.start(selected.length);
  const records: EntryRecord[] = new Array<EntryRecord>(selected.length);
  await pMap(
    largestFirst(selected, setup.recipe.original.max_side),
    async (k): Promise<void> => {
      const entry = selected[k]!;
      const job = byId.get(entry.id);
      let record: EntryRecord;
      if (!job) {
        record = {
          id: entry.id,
          status: 'skipped',
          roles: entry.roles,
          image: { file: relPosix(outDir, entryImagePath(resolved, entry)), sha256: null },
          error: null,
          variants: [],
        };
      } else {
        const outcome = await run(job);
        out.computed += outcome.computed;
        out.reused += outcome.reused;
        record = outcome.record;
      }
      done++;
      options.progress?.update({
        done,
        total: selected.length,
        entry: entry.id,
        status: record.status,
      });
      records[k] = record;
    },
    { concurrency: jobs },
  );
  out.records = records;
  return out;
}

/**
 * The order to start the entries in: the most pixels to process first (A0's size after the
 * downscale to `maxSide`), so that the last entries to start, which decide when the run ends, are
 * the quickest; ties and images of unknown size (last) in corpus order. Records keep corpus order.
 */
export function largestFirst(entries: readonly LockEntry[], maxSide: number): number[] {
  const pixels = entries.map((e) => {
    const { oriented_width: w, oriented_height: h } = e.image.resolved;
    if (!w || !h) return 0;
    const scale = Math.min(1, maxSide / Math.max(w, h));
    return w * h * scale * scale;
  });
  return entries.map((_, k) => k).sort((a, b) => pixels[b]! - pixels[a]! || a - b);
}

/**
 * The worker threads of the run, or null: more than one job and more than one entry to compute
 * — unless the segmenter runs: its inference already keeps the cores busy on native threads while
 * this thread computes the other variants, and workers would add their memory to the model's.
 * Workers started ahead (`options.pool`) and not wanted are closed now.
 */
async function workersFor(
  planned: PlannedWork,
  jobs: number,
  held: HeldResources,
): Promise<EntryPool | null> {
  const work = planned.reuse.jobs.filter((j) => j.reuse.some((r) => !r)).length;
  if (jobs > 1 && work > 1 && !held.seg?.shared)
    return (held.pool ??= new EntryPool(Math.min(jobs, work) - 1));
  await held.pool?.close();
  return (held.pool = null);
}

/**
 * Where each entry runs: one at a time on this thread, the others on idle workers. Entries with
 * nothing to compute stay here (their records are already known).
 */
function dispatcher(
  plan: EntryPlan,
  pool: EntryPool | null,
): (job: EntryJob) => Promise<EntryOutcome> {
  let here = false; // an entry is being computed on this thread
  return async (job) => {
    const compute = job.reuse.some((r) => !r);
    if (pool && compute && (here || pool.hasRoom()))
      return pool.run(job, plan).catch((err: unknown) => failedOutcome(job, plan, err));
    if (!compute) return processEntry(job, plan);
    here = true;
    try {
      return await processEntry(job, plan);
    } finally {
      here = false;
    }
  };
}
