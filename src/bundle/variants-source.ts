/**
 * The images a plan shows, from the variants stage: every image trial shows a variant of its
 * entry (A0, the decoded, oriented, sRGB original, for all image paradigms but abstraction). The
 * study's variants lock is reused when it is current (made from this corpus lock, with this
 * recipe, holding every needed output with its recorded digest); otherwise the variants stage runs
 * (into `work` when given) and reuses whatever outputs did not change.
 */
import path from 'node:path';
import pMap from 'p-map';
import { StimkitError } from '../core/errors.js';
import { exists, relPosix } from '../core/fsio.js';
import { sha256OrNull } from '../core/walk.js';
import { canonicalJson } from '../core/json.js';
import { libraryVersions } from '../variants/libraries.js';
import { resolveRecipe, type Recipe } from '../variants/recipe.js';
import { LOCK_NAME, readVariantsLock, VariantsLock } from '../variants/lock.js';
import { readJsonLock } from './corpus-source.js';
import type { Progress } from '../variants/progress.js';
import { runVariants } from '../variants/run.js';
import type { Role } from '../ingest/schema.js';
import type { LoadedStudy } from '../study/load.js';
import type { VariantCode } from '../study/schema.js';
import type { PlannedTrial } from './plan.js';

/** One image the bag will hold. */
export interface ResolvedImage {
  sha256: string;
  /** Absolute path of the PNG. */
  file: string;
}

/** The variant images of a plan. */
export interface VariantImages {
  lock: VariantsLock;
  lockFile: string;
  reused: boolean;
  /** `entry/code` → image. */
  images: Map<string, ResolvedImage>;
}

/** What the plan needs: `entry/code` keys, and the codes of each entry in registry order. */
function neededImages(trials: PlannedTrial[]): {
  keys: Set<string>;
  byEntry: Record<string, VariantCode[]>;
} {
  const keys = new Set<string>();
  const byEntry: Record<string, VariantCode[]> = {};
  for (const t of trials) {
    if (!t.image) continue;
    const key = `${t.image.entry}/${t.image.variant}`;
    if (keys.has(key)) continue;
    keys.add(key);
    (byEntry[t.image.entry] ??= []).push(t.image.variant);
  }
  for (const codes of Object.values(byEntry)) codes.sort();
  return { keys, byEntry };
}

/**
 * The recipe the study asks for: the recipe file (if any) with the silhouette method applied
 * (`silhouette`, when given, instead of the study's).
 */
async function studyRecipe(loaded: LoadedStudy, silhouette?: 'isnet' | 'grabcut'): Promise<Recipe> {
  const v = loaded.study.variants!;
  const method = silhouette ?? v.silhouette;
  return resolveRecipe(
    v.recipe ? loaded.resolve(v.recipe) : undefined,
    method ? { silhouette: method } : {},
  );
}

/**
 * Why the lock at `lockFile` cannot serve the plan, or its images when it can: every needed
 * output was made with this recipe from the image bytes the corpus lock records (`originals`:
 * entry id → sha256), and its file still has the recorded digest. Which corpus lock file the
 * variants were made from does not matter, only the image bytes do.
 */
export async function variantsStaleness(
  lockFile: string,
  originals: Map<string, string | null>,
  recipe: Recipe,
  keys: Set<string>,
): Promise<{ reason: string } | { lock: VariantsLock; images: Map<string, ResolvedImage> }> {
  if (!(await exists(lockFile))) return { reason: 'no variants lock yet' };
  let lock: VariantsLock;
  try {
    lock = await readJsonLock(lockFile, VariantsLock, readVariantsLock);
  } catch {
    return { reason: 'the variants lock cannot be read' };
  }
  const dir = path.dirname(lockFile);
  if (lock.selection.shard) return { reason: 'it is a shard lock' };
  if (canonicalJson(lock.recipe) !== canonicalJson(recipe)) return { reason: 'the recipe changed' };
  if (canonicalJson(lock.libraries) !== canonicalJson(libraryVersions()))
    return { reason: 'the image libraries (sharp/libvips, opencv-wasm) changed' };
  const fromImage = new Map(lock.entries.map((e) => [e.id, e.image.sha256]));
  const records = new Map<string, VariantsLock['entries'][number]['variants'][number]>(
    lock.entries.flatMap((e) => e.variants.map((v) => [`${e.id}/${v.code}`, v] as const)),
  );
  const images = new Map<string, ResolvedImage>();
  const missing: string[] = [];
  await pMap(
    [...keys].sort(),
    async (key) => {
      const r = records.get(key);
      const entry = key.slice(0, key.lastIndexOf('/'));
      if (!r || r.status !== 'ok' || !r.file || !r.sha256) return void missing.push(key);
      if (!originals.get(entry) || fromImage.get(entry) !== originals.get(entry))
        return void missing.push(key);
      const file = path.resolve(dir, r.file);
      if ((await sha256OrNull(file)) !== r.sha256) return void missing.push(key);
      images.set(key, { sha256: r.sha256, file });
    },
    { concurrency: 8 },
  );
  if (missing.length)
    return {
      reason: `output(s) missing, changed, or made from other image bytes: ${missing.sort().slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
    };
  return { lock, images };
}

/** Resolve every image of the plan, reusing or running the variants stage. */
export async function resolveVariantImages(
  loaded: LoadedStudy,
  corpusLockFile: string,
  trials: PlannedTrial[],
  corpus: Array<{ id: string; roles: Role[]; image: { resolved: { sha256: string | null } } }>,
  options: {
    work?: string;
    jobs?: number;
    progress?: Progress;
    log?: (line: string) => void;
    silhouette?: 'isnet' | 'grabcut';
  } = {},
): Promise<VariantImages | null> {
  const originals = new Map(corpus.map((e) => [e.id, e.image.resolved.sha256]));
  const need = neededImages(trials);
  if (need.keys.size === 0) return null;
  const recipe = await studyRecipe(loaded, options.silhouette);
  const declared = loaded.resolve(loaded.study.variants!.lock);
  const candidates = [
    declared,
    ...(options.work ? [path.join(path.resolve(options.work), 'variants', LOCK_NAME)] : []),
  ];
  let reason = '';
  for (const lockFile of candidates) {
    const s = await variantsStaleness(lockFile, originals, recipe, need.keys);
    if ('lock' in s) return { lock: s.lock, lockFile, reused: true, images: s.images };
    reason = s.reason;
  }
  const lockFile = candidates[candidates.length - 1]!;
  const entries = Object.keys(need.byEntry).length;
  options.log?.(
    `variants: ${reason}; running the variants stage (${need.keys.size} images of ${entries} entries) into ${relPosix(process.cwd(), path.dirname(lockFile))}`,
  );
  const run = await runVariants(corpusLockFile, {
    out: path.dirname(lockFile),
    entryCodes: need.byEntry,
    recipe,
    jobs: options.jobs,
    progress: options.progress,
  });
  const after = await variantsStaleness(run.lockFile, originals, recipe, need.keys);
  if ('lock' in after)
    return { lock: after.lock, lockFile: run.lockFile, reused: false, images: after.images };
  const failures = run.lock.entries.flatMap((e) =>
    e.variants
      .filter((v) => v.status === 'failed' && need.keys.has(`${e.id}/${v.code}`))
      .map((v) => ({ entry: e.id, code: v.code, error: v.error })),
  );
  throw new StimkitError(
    'E_BUNDLE_VARIANTS',
    `the variants stage could not make every image the plan needs (${after.reason})`,
    {
      problems: failures.map((f) => ({
        code: f.error?.code ?? 'E_BUNDLE_VARIANTS',
        severity: 'error' as const,
        file: relPosix(process.cwd(), run.lockFile),
        entry: f.entry,
        field: f.code,
        message: f.error?.message ?? 'failed',
        fix: 'see the variants lock; fix the image or the recipe and bundle again',
      })),
    },
  );
}
