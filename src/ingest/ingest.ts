/**
 * `stimkit ingest`: validate an entries manifest, decode and hash every image, find duplicates,
 * and write the corpus lock atomically. Every problem is collected; nothing stops at the first.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pMap from 'p-map';
import { lineOf, loadDataFile, type ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { relPosix, sha256, writeIfChanged } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import { checkManifest } from './checks.js';
import { findDuplicates } from './duplicates.js';
import { ingestImage } from './image.js';
import { imagesRootProblem } from './images-root.js';
import { corpusLockPath } from './lock-path.js';
import {
  CORPUS_FORMAT,
  CORPUS_VERSION,
  emptyImageRecord,
  type CorpusLock,
  type ImageRecord,
  type LockEntry,
} from './lock.js';
import { EntriesManifest, type Entry } from './schema.js';

const PHASH_METHOD =
  'dct64: 32x32 Lanczos-3, BT.601 luma, DCT-II low 8x8 incl. DC > median, row-major MSB first';

/** Options of `stimkit ingest`, resolved. */
export interface IngestOptions {
  /** Images root; default: the manifest's `images` field, relative to the manifest. */
  images?: string;
  /**
   * Output folder for `corpus.lock.json`; default: the manifest's folder, as
   * `<stem>.corpus.lock.json` (never the images root, which may be a read-only archive).
   */
  out?: string;
  strict?: boolean;
  allowMissing?: boolean;
  allowDuplicates?: boolean;
  /** Maximum decoded pixels per image (default 50 MP). */
  pixelLimit?: number;
  /** Perceptual-hash Hamming distance at or below which two entries are near-duplicates (default 10). */
  nearDuplicateThreshold?: number;
  /** Parallel decodes (default: number of cores). */
  jobs?: number;
}

export const DEFAULT_PIXEL_LIMIT = 50_000_000;
export const DEFAULT_NEAR_DUPLICATE_THRESHOLD = 10;

/** What ingest did: the lock (if written), every problem, and counts for the summary. */
export interface IngestResult {
  lockFile: string | null;
  lockSha256: string | null;
  lockWritten: boolean;
  lock: CorpusLock;
  problems: Problem[];
  errors: number;
  warnings: number;
}

/** The options with their defaults. */
type ResolvedOptions = Required<Omit<IngestOptions, 'images' | 'out'>>;

/** Where ingest reads and writes: the manifest and its folder, the images root, the lock. */
interface IngestPaths {
  manifestFile: string;
  manifestDir: string;
  root: string;
  lockFile: string;
  lockDir: string;
}

/** Each option, or its default. */
function resolveOptions(options: IngestOptions): ResolvedOptions {
  return {
    strict: options.strict ?? false,
    allowMissing: options.allowMissing ?? false,
    allowDuplicates: options.allowDuplicates ?? false,
    pixelLimit: options.pixelLimit ?? DEFAULT_PIXEL_LIMIT,
    nearDuplicateThreshold: options.nearDuplicateThreshold ?? DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    jobs: options.jobs ?? Math.max(1, os.availableParallelism()),
  };
}

/** The images root (`--images`, else the manifest's `images` field) and the lock's place. */
function ingestPaths(manifestFile: string, images: string, options: IngestOptions): IngestPaths {
  const manifestDir = path.dirname(path.resolve(manifestFile));
  const root = path.resolve(options.images ?? path.resolve(manifestDir, images));
  const lockFile = corpusLockPath(manifestFile, options.out);
  return { manifestFile, manifestDir, root, lockFile, lockDir: path.dirname(lockFile) };
}

/** Each entry's image record and problems, in manifest order; none is read under a bad root. */
function ingestImages(
  entries: Entry[],
  parsed: ParsedDataFile,
  paths: IngestPaths,
  opts: ResolvedOptions,
  rootIsBad: boolean,
): Promise<Array<{ record: ImageRecord; problems: Problem[] }>> {
  const { root, lockDir, manifestFile } = paths;
  return pMap(
    entries,
    async (e, i) =>
      rootIsBad
        ? {
            record: emptyImageRecord(relPosix(lockDir, path.resolve(root, e.image.file)), 'failed'),
            problems: [],
          }
        : ingestImage(
            e,
            root,
            lockDir,
            manifestFile,
            lineOf(parsed, ['entries', i, 'image', 'file']),
            `entries[${i}]`,
            opts,
          ),
    { concurrency: opts.jobs },
  );
}

/** Where the problem of the entry with id `id` is: the manifest, the entry's line and field. */
function entryLocator(
  manifest: EntriesManifest,
  parsed: ParsedDataFile,
  manifestFile: string,
): (id: string) => Pick<Problem, 'file' | 'line' | 'field'> {
  const indexOf = new Map(manifest.entries.map((e, i) => [e.id, i]));
  return (id) => {
    const i = indexOf.get(id)!;
    return { file: manifestFile, line: lineOf(parsed, ['entries', i]), field: `entries[${i}]` };
  };
}

/** Under --strict every warning becomes an error (in place); the counts of each. */
function countSeverities(
  problems: Problem[],
  strict: boolean,
): { errors: number; warnings: number } {
  if (strict) for (const p of problems) if (p.severity === 'warning') p.severity = 'error';
  const errors = problems.filter((p) => p.severity === 'error').length;
  return { errors, warnings: problems.length - errors };
}

/** The corpus lock: the manifest's hash, the resolved parameters, entries, duplicates, warnings. */
async function buildLock(
  manifest: EntriesManifest,
  paths: IngestPaths,
  opts: ResolvedOptions,
  found: { entries: LockEntry[]; near: CorpusLock['near_duplicates']; problems: Problem[] },
): Promise<CorpusLock> {
  const { lockDir } = paths;
  const manifestBytes = await readFile(paths.manifestFile);
  return {
    format: CORPUS_FORMAT,
    version: CORPUS_VERSION,
    tool: { name: TOOL.name, version: TOOL.version },
    corpus: manifest.corpus,
    languages: manifest.languages,
    manifest: {
      file: relPosix(lockDir, path.resolve(paths.manifestFile)),
      sha256: sha256(manifestBytes),
    },
    images_root: relPosix(lockDir, paths.root),
    parameters: {
      pixel_limit: opts.pixelLimit,
      near_duplicate_threshold: opts.nearDuplicateThreshold,
      strict: opts.strict,
      allow_missing: opts.allowMissing,
      allow_duplicates: opts.allowDuplicates,
      phash: PHASH_METHOD,
    },
    entries: found.entries,
    near_duplicates: found.near,
    warnings: found.problems
      .filter((p) => p.severity === 'warning')
      .map((p) => ({
        code: p.code,
        ...(p.entry ? { entry: p.entry } : {}),
        ...(p.field ? { field: p.field } : {}),
        message: p.message,
      })),
  };
}

/** Write the lock (only if it changed) unless there are errors; the result either way. */
async function writeLock(
  lock: CorpusLock,
  lockFile: string,
  counted: Pick<IngestResult, 'problems' | 'errors' | 'warnings'>,
): Promise<IngestResult> {
  if (counted.errors > 0) {
    return { lockFile: null, lockSha256: null, lockWritten: false, lock, ...counted };
  }
  const text = artifactJson(lock);
  const written = await writeIfChanged(lockFile, text);
  return { lockFile, lockSha256: sha256(text), lockWritten: written, lock, ...counted };
}

/** Run ingest. Throws StimkitError only for a manifest that cannot be read or parsed at all. */
export async function ingest(
  manifestFile: string,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const opts = resolveOptions(options);
  const { data: manifest, parsed } = await loadDataFile(
    manifestFile,
    EntriesManifest,
    'E_INGEST_SCHEMA',
  );
  const paths = ingestPaths(manifestFile, manifest.images, options);

  const problems = checkManifest(manifest, parsed);
  // A missing images folder is one problem at the `images` field, not one per entry.
  // With --allow-missing, an images folder not there yet just means every image is missing.
  const rootProblem = await imagesRootProblem(paths.root, {
    file: manifestFile,
    line: lineOf(parsed, ['images']),
    fromFlag: options.images !== undefined,
    manifestDir: paths.manifestDir,
    allowMissing: opts.allowMissing,
  });
  if (rootProblem) problems.push(rootProblem);

  const images = await ingestImages(manifest.entries, parsed, paths, opts, rootProblem !== null);
  const entries: LockEntry[] = manifest.entries.map((e, i) => ({
    ...e,
    image: { ...e.image, resolved: images[i]!.record },
  }));
  for (const img of images) problems.push(...img.problems);

  const where = entryLocator(manifest, parsed, manifestFile);
  const dups = findDuplicates(entries, opts.nearDuplicateThreshold, opts.allowDuplicates, where);
  problems.push(...dups.problems);

  const { errors, warnings } = countSeverities(problems, opts.strict);
  const lock = await buildLock(manifest, paths, opts, { entries, near: dups.near, problems });
  return writeLock(lock, paths.lockFile, { problems, errors, warnings });
}
