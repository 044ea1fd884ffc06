/**
 * `stimkit ingest`: validate an entries manifest, decode and hash every image, find duplicates,
 * and write the corpus lock atomically. Every problem is collected; nothing stops at the first.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pMap from 'p-map';
import { lineOf, loadDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { relPosix, sha256, writeIfChanged } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { hamming } from '../core/phash.js';
import { resolveInside, type SafePath } from '../core/safe-path.js';
import { TOOL } from '../core/tool.js';
import { checkManifest } from './checks.js';
import { closestImage, imagesRootProblem } from './images-root.js';
import { corpusLockPath } from './lock-path.js';
import {
  CORPUS_FORMAT,
  CORPUS_VERSION,
  emptyImageRecord,
  type CorpusLock,
  type ImageRecord,
  type LockEntry,
} from './lock.js';
import { probeImage } from './probe.js';
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

/** The record and problems of an image whose path did not resolve inside the images root. */
async function unresolvedImage(
  resolved: Extract<SafePath, { ok: false }>,
  entry: Entry,
  root: string,
  lockDir: string,
  where: Pick<Problem, 'file' | 'line' | 'field' | 'entry'>,
  allowMissing: boolean,
): Promise<{ record: ImageRecord; problems: Problem[] }> {
  if (resolved.reason === 'missing') {
    if (allowMissing)
      return {
        record: emptyImageRecord(relPosix(lockDir, resolved.path), 'missing'),
        problems: [],
      };
    return {
      record: emptyImageRecord(relPosix(lockDir, resolved.path), 'failed'),
      problems: [
        {
          code: 'E_INGEST_IMAGE_MISSING',
          severity: 'error',
          ...where,
          message: `image not found: ${resolved.detail}`,
          fix: await missingImageFix(root, resolved.path),
        },
      ],
    };
  }
  const notFile = resolved.reason === 'not-a-file';
  return {
    record: emptyImageRecord(entry.image.file, 'failed'),
    problems: [
      {
        code: notFile ? 'E_INGEST_NOT_A_FILE' : 'E_INGEST_PATH_ESCAPES',
        severity: 'error',
        ...where,
        message: `refused: ${resolved.detail}`,
        fix: notFile
          ? 'give the path of the image file itself in image.file'
          : 'put the image inside the images root (or point --images at a folder that contains it) and give a relative path',
      },
    ],
  };
}

async function ingestImage(
  entry: Entry,
  root: string,
  lockDir: string,
  manifestFile: string,
  line: number | undefined,
  field: string,
  opts: Required<Pick<IngestOptions, 'allowMissing' | 'pixelLimit'>>,
): Promise<{ record: ImageRecord; problems: Problem[] }> {
  const where = { file: manifestFile, line, field: `${field}.image.file`, entry: entry.id };
  const resolved = await resolveInside(root, entry.image.file);
  if (!resolved.ok)
    return unresolvedImage(resolved, entry, root, lockDir, where, opts.allowMissing);
  const file = resolved.path;
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return {
      record: emptyImageRecord(relPosix(lockDir, file), 'failed'),
      problems: [
        {
          code: 'E_INGEST_IMAGE_UNREADABLE',
          severity: 'error',
          ...where,
          message: `cannot read ${relPosix(process.cwd(), file)} (${e.code ?? e.message})`,
          fix: 'check the file permissions',
        },
      ],
    };
  }
  const digest = sha256(bytes);
  const problems: Problem[] = [];
  if (entry.image.sha256 && entry.image.sha256 !== digest) {
    problems.push({
      code: 'E_INGEST_SHA256_MISMATCH',
      severity: 'error',
      ...where,
      field: `${field}.image.sha256`,
      message: 'the file does not have the pinned sha256',
      expected: entry.image.sha256,
      got: digest,
      fix: 'supply the exact file the manifest pins (check the archive version), or update the pin if the change is intended',
    });
  }
  const probe = await probeImage(bytes, file, opts.pixelLimit);
  const base = {
    ...emptyImageRecord(relPosix(lockDir, file), 'failed'),
    sha256: digest,
    bytes: bytes.length,
  };
  if (!probe.ok) {
    problems.push({
      code: probe.failure.code,
      severity: 'error',
      ...where,
      message: `${relPosix(process.cwd(), file)}: ${probe.failure.message}`,
      fix: probe.failure.fix,
    });
    return { record: base, problems };
  }
  return { record: { ...base, status: 'ok', ...probe.facts }, problems };
}

/** The fix of a missing image: the closest file name in its folder, when one is close. */
async function missingImageFix(root: string, file: string): Promise<string> {
  const guess = await closestImage(root, file);
  const generic =
    'supply the file at that path, fix image.file, or pass --allow-missing to list it as missing';
  return guess ? `did you mean "${guess}"? Set image.file: ${guess}, or ${generic}` : generic;
}

/** Exact and near duplicates among decoded entries. */
function findDuplicates(
  entries: LockEntry[],
  threshold: number,
  allowDuplicates: boolean,
  where: (id: string) => Pick<Problem, 'file' | 'line' | 'field'>,
): { near: CorpusLock['near_duplicates']; problems: Problem[] } {
  const near: CorpusLock['near_duplicates'] = [];
  const problems: Problem[] = [];
  const ok = entries.filter((e) => e.image.resolved.status === 'ok');
  const declared = (a: LockEntry, b: LockEntry) =>
    a.image.same_as === b.id || b.image.same_as === a.id;
  for (let i = 0; i < ok.length; i++) {
    for (let j = i + 1; j < ok.length; j++) {
      const a = ok[i]!;
      const b = ok[j]!;
      if (a.image.resolved.sha256 === b.image.resolved.sha256) {
        if (!allowDuplicates && !declared(a, b)) {
          problems.push({
            code: 'E_INGEST_DUPLICATE_IMAGE',
            severity: 'error',
            ...where(b.id),
            entry: b.id,
            message: `the same image bytes are used by "${a.id}" and "${b.id}"`,
            fix: `use a different image, or declare it with image.same_as: ${a.id} (or pass --allow-duplicates)`,
          });
        }
        continue;
      }
      const distance = hamming(a.image.resolved.phash!, b.image.resolved.phash!);
      if (distance <= threshold) {
        near.push({ a: a.id, b: b.id, distance });
        if (!declared(a, b)) {
          problems.push({
            code: 'W_INGEST_NEAR_DUPLICATE',
            severity: 'warning',
            ...where(b.id),
            entry: b.id,
            message: `looks like "${a.id}" (perceptual hash distance ${distance} ≤ ${threshold})`,
            fix: `check the two images; if intended, declare image.same_as: ${a.id}`,
          });
        }
      }
    }
  }
  return { near, problems };
}

/** Run ingest. Throws StimkitError only for a manifest that cannot be read or parsed at all. */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
export async function ingest(
  manifestFile: string,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const opts = {
    strict: options.strict ?? false,
    allowMissing: options.allowMissing ?? false,
    allowDuplicates: options.allowDuplicates ?? false,
    pixelLimit: options.pixelLimit ?? DEFAULT_PIXEL_LIMIT,
    nearDuplicateThreshold: options.nearDuplicateThreshold ?? DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    jobs: options.jobs ?? Math.max(1, os.availableParallelism()),
  };
  const { data: manifest, parsed } = await loadDataFile(
    manifestFile,
    EntriesManifest,
    'E_INGEST_SCHEMA',
  );
  const manifestDir = path.dirname(path.resolve(manifestFile));
  const root = path.resolve(options.images ?? path.resolve(manifestDir, manifest.images));
  const lockFile = corpusLockPath(manifestFile, options.out);
  const lockDir = path.dirname(lockFile);

  const problems = checkManifest(manifest, parsed);
  // A missing images folder is one problem at the `images` field, not one per entry.
  // With --allow-missing, an images folder not there yet just means every image is missing.
  const rootProblem = await imagesRootProblem(root, {
    file: manifestFile,
    line: lineOf(parsed, ['images']),
    fromFlag: options.images !== undefined,
    manifestDir,
    allowMissing: opts.allowMissing,
  });
  if (rootProblem) problems.push(rootProblem);
  const indexOf = new Map(manifest.entries.map((e, i) => [e.id, i]));
  const lineOfEntry = (i: number) => lineOf(parsed, ['entries', i]);
  const where = (id: string) => {
    const i = indexOf.get(id)!;
    return { file: manifestFile, line: lineOfEntry(i), field: `entries[${i}]` };
  };

  const images = await pMap(
    manifest.entries,
    async (e, i) =>
      rootProblem
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
  const entries: LockEntry[] = manifest.entries.map((e, i) => ({
    ...e,
    image: { ...e.image, resolved: images[i]!.record },
  }));
  for (const img of images) problems.push(...img.problems);

  const dups = findDuplicates(entries, opts.nearDuplicateThreshold, opts.allowDuplicates, where);
  problems.push(...dups.problems);

  if (opts.strict) for (const p of problems) if (p.severity === 'warning') p.severity = 'error';
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;

  const manifestBytes = await readFile(manifestFile);
  const lock: CorpusLock = {
    format: CORPUS_FORMAT,
    version: CORPUS_VERSION,
    tool: { name: TOOL.name, version: TOOL.version },
    corpus: manifest.corpus,
    languages: manifest.languages,
    manifest: {
      file: relPosix(lockDir, path.resolve(manifestFile)),
      sha256: sha256(manifestBytes),
    },
    images_root: relPosix(lockDir, root),
    parameters: {
      pixel_limit: opts.pixelLimit,
      near_duplicate_threshold: opts.nearDuplicateThreshold,
      strict: opts.strict,
      allow_missing: opts.allowMissing,
      allow_duplicates: opts.allowDuplicates,
      phash: PHASH_METHOD,
    },
    entries,
    near_duplicates: dups.near,
    warnings: problems
      .filter((p) => p.severity === 'warning')
      .map((p) => ({
        code: p.code,
        ...(p.entry ? { entry: p.entry } : {}),
        ...(p.field ? { field: p.field } : {}),
        message: p.message,
      })),
  };

  if (errors > 0) {
    return {
      lockFile: null,
      lockSha256: null,
      lockWritten: false,
      lock,
      problems,
      errors,
      warnings,
    };
  }
  const text = artifactJson(lock);
  const written = await writeIfChanged(lockFile, text);
  return {
    lockFile,
    lockSha256: sha256(text),
    lockWritten: written,
    lock,
    problems,
    errors,
    warnings,
  };
}
