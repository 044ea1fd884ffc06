/**
 * The study's corpus: reuse its corpus lock when it is current (same manifest bytes, every image
 * file still has its recorded digest), otherwise run ingest to write it. A dry run reads only the
 * entries manifest.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pMap from 'p-map';
import type { z } from 'zod';
import { loadDataFile } from '../core/datafile.js';
import { StimkitError } from '../core/errors.js';
import { exists, relPosix } from '../core/fsio.js';
import { sha256OrNull } from '../core/walk.js';
import { ingest } from '../ingest/ingest.js';
import { CorpusLock, imagePathFromLock, readCorpusLock } from '../ingest/lock.js';
import { EntriesManifest, type Entry } from '../ingest/schema.js';
import { corpusLockPath, LOCK_NAME } from '../ingest/lock-path.js';
import type { LoadedStudy } from '../study/load.js';

/** The corpus as the bundle sees it. */
export interface CorpusSource {
  entries: Entry[];
  /** The lock and its file (absent in a dry run). */
  lock?: CorpusLock;
  lockFile?: string;
  /** Whether an existing lock was reused (false: ingest ran). */
  reused?: boolean;
  manifestFile: string;
}

/**
 * Where the corpus lock may live, in the order tried: the study's `corpus.lock`; else ingest's
 * default next to the manifest (`<stem>.corpus.lock.json`), then `corpus.lock.json` in the images
 * root (where earlier versions wrote it; read, never written). The first is where ingest writes.
 */
async function lockCandidates(loaded: LoadedStudy, manifestFile: string): Promise<string[]> {
  if (loaded.study.corpus?.lock) return [loaded.resolve(loaded.study.corpus.lock)];
  const { data } = await loadDataFile(manifestFile, EntriesManifest, 'E_INGEST_SCHEMA');
  return [
    corpusLockPath(manifestFile),
    path.join(path.resolve(path.dirname(manifestFile), data.images), LOCK_NAME),
  ];
}

/**
 * Read a lock quickly: JSON.parse and the zod schema (the YAML-aware reader of the stage, with line
 * numbers, is much slower on large locks and only needed to explain a broken one).
 */
export async function readJsonLock<S extends z.ZodType>(
  file: string,
  schema: S,
  slow: (file: string) => Promise<z.output<S>>,
): Promise<z.output<S>> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through to the stage's own reader for its error message
  }
  return slow(file);
}

/** Why `lockFile` cannot be reused (a string), or the current lock for `manifestFile`. */
async function lockStaleness(lockFile: string, manifestFile: string): Promise<string | CorpusLock> {
  if (!(await exists(lockFile))) return 'no corpus lock yet';
  let lock: CorpusLock;
  try {
    lock = await readJsonLock(lockFile, CorpusLock, readCorpusLock);
  } catch {
    return 'the corpus lock cannot be read';
  }
  if (path.resolve(path.dirname(lockFile), lock.manifest.file) !== path.resolve(manifestFile))
    return 'the lock belongs to another manifest';
  if (lock.manifest.sha256 !== (await sha256OrNull(manifestFile)))
    return 'the entries manifest changed';
  const changed = await pMap(
    lock.entries,
    async (e) => {
      if (e.image.resolved.status !== 'ok') return e.id;
      return (await sha256OrNull(imagePathFromLock(lockFile, e))) === e.image.resolved.sha256
        ? null
        : e.id;
    },
    { concurrency: 8 },
  );
  const bad = changed.filter((x): x is string => x !== null);
  return bad.length
    ? `image(s) changed or missing: ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', …' : ''}`
    : lock;
}

/**
 * Resolve the corpus: in a dry run the manifest's entries; otherwise a current corpus lock, reused
 * from the study's location or from `work`, or written by ingest (into `work` when given).
 */
export async function resolveCorpus(
  loaded: LoadedStudy,
  options: { dryRun?: boolean; work?: string; jobs?: number; log?: (line: string) => void },
): Promise<CorpusSource | null> {
  const corpus = loaded.study.corpus;
  if (!corpus) return null;
  const manifestFile = loaded.resolve(corpus.entries);
  if (options.dryRun) {
    const { data } = await loadDataFile(manifestFile, EntriesManifest, 'E_INGEST_SCHEMA');
    return { entries: data.entries, manifestFile };
  }
  const declared = await lockCandidates(loaded, manifestFile);
  const candidates = [
    ...declared,
    ...(options.work
      ? [corpusLockPath(manifestFile, path.join(path.resolve(options.work), 'corpus'))]
      : []),
  ];
  let reason = '';
  for (const lockFile of candidates) {
    const lock = await lockStaleness(lockFile, manifestFile);
    if (typeof lock !== 'string')
      return { entries: lock.entries, lock, lockFile, reused: true, manifestFile };
    reason = lock;
  }
  // Ingest writes into --work when given, else where the study (or ingest's default) says.
  const target = options.work ? candidates[candidates.length - 1]! : declared[0]!;
  const explicit = options.work !== undefined || loaded.study.corpus?.lock !== undefined;
  options.log?.(
    `corpus: ${reason}; running ingest into ${relPosix(process.cwd(), path.dirname(target))}`,
  );
  const result = await ingest(manifestFile, {
    out: explicit ? path.dirname(target) : undefined,
    jobs: options.jobs,
  });
  if (result.errors > 0 || !result.lockFile) {
    throw new StimkitError(
      'E_BUNDLE_INGEST',
      `${manifestFile}: ingest found ${result.errors} error(s); the corpus cannot be bundled`,
      {
        fix: 'correct the entries manifest (each problem is listed below); `stimkit ingest` shows the same',
        problems: result.problems.filter((p) => p.severity === 'error'),
      },
    );
  }
  return {
    entries: result.lock.entries,
    lock: result.lock,
    lockFile: result.lockFile,
    reused: false,
    manifestFile,
  };
}
