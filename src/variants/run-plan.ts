/**
 * The planning phase of `runVariants`: earlier records by entry and code, the tasks, and reuse
 * decided before any work, loading the segmenter only when some A6 output must be computed.
 */
import { relPosix } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import type { EntryPool } from './pool/pool.js';
import { entryImagePath } from './input.js';
import type { FoundLock, VariantRecord } from './lock.js';
import type { ReusePlanner, EntryTask, ReusePlan } from './reuse/reuse.js';
import type { LoadedSegmenter, SegmenterFactory, SegmenterIdentity } from './segment/segmenter.js';
import type { Segmenter } from './segment/index.js';
import type { RunSetup } from './run-write.js';

function identityOf(seg: LoadedSegmenter): SegmenterIdentity {
  return seg.shared ? { description: seg.shared.description } : { error: seg.error };
}

/** The segmenter and worker pool a run holds; released when processing ends, even on a throw. */
export interface HeldResources {
  seg?: LoadedSegmenter;
  pool: EntryPool | null;
}

/** What reuse planning decided, with the segmenter identity it decided it with. */
export interface PlannedWork {
  identity: SegmenterIdentity;
  reuse: ReusePlan;
}

/** Earlier records by `entry/code`, those of live locks before those of stale ones. */
export function priorRecords(locks: FoundLock[]): Map<string, VariantRecord[]> {
  const prior = new Map<string, VariantRecord[]>();
  for (const found of [...locks.filter((l) => !l.stale), ...locks.filter((l) => l.stale)]) {
    for (const e of found.lock.entries)
      for (const v of e.variants)
        if (v.status === 'ok')
          prior.set(`${e.id}/${v.code}`, [...(prior.get(`${e.id}/${v.code}`) ?? []), v]);
  }
  return prior;
}

/** The selected entries that have an image, as tasks with their codes. */
function entryTasks(setup: RunSetup): EntryTask[] {
  const { resolved, entryCodes, codes } = setup;
  return setup.selected
    .filter((e) => e.image.resolved.status === 'ok' && e.image.resolved.sha256)
    .map((entry) => {
      const imagePath = entryImagePath(resolved, entry);
      return {
        id: entry.id,
        roles: entry.roles,
        imagePath,
        imageRef: relPosix(resolved.outDir, imagePath),
        sha256: entry.image.resolved.sha256!,
        codes: entryCodes?.[entry.id] ?? codes,
      };
    });
}

/**
 * Decide reuse, loading the segmenter (into `held`) only when some A6 output must be computed.
 * A6's identity comes without loading a model when the factory can describe it.
 */
export async function planWork(
  setup: RunSetup,
  options: { segmenter?: Segmenter; segmenterFactory?: SegmenterFactory },
  planner: ReusePlanner,
  held: HeldResources,
): Promise<PlannedWork> {
  const { recipe, libraries, codes, warnings } = setup;
  const tasks = entryTasks(setup);
  if (!codes.includes('A6') || tasks.length === 0)
    return { identity: {}, reuse: await planner.plan(tasks, { recipe, libraries }, {}) };
  // The segmenter's modules are loaded only by runs that select A6.
  const { defaultSegmenterFactory, identifySegmenter, loadSegmenter } =
    await import('./segment/segmenter.js');
  const factory = options.segmenterFactory ?? defaultSegmenterFactory;
  const described = options.segmenter ? null : await identifySegmenter(recipe, factory);
  let identity: SegmenterIdentity =
    described ?? identityOf((held.seg = await loadSegmenter(recipe, options.segmenter, factory)));
  let reuse = await planner.plan(tasks, { recipe, libraries }, identity);
  if (reuse.needsA6 && !held.seg && identity.description) {
    held.seg = await loadSegmenter(recipe, undefined, factory);
    const loaded = identityOf(held.seg);
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
  return { identity, reuse };
}
