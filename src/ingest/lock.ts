/**
 * The corpus lock (`stimkit.corpus`, version 1): what `stimkit ingest` writes and later stages
 * read. One record per entry with its manifest data, and the image's digest and decoded facts.
 * Paths in the lock are relative to the lock's own folder, with forward slashes.
 */
import path from 'node:path';
import { z } from 'zod';
import { loadDataFile } from '../core/datafile.js';
import { StimkitError } from '../core/errors.js';
import { Entry, LangCode, Slug } from './schema.js';

export const CORPUS_FORMAT = 'stimkit.corpus';
export const CORPUS_VERSION = 1;

const ImageRecord = z.strictObject({
  /** Path of the image relative to the lock's folder. */
  file: z.string(),
  /**
   * `ok`: decoded and hashed; `missing`: not supplied yet (only with --allow-missing). A written
   * lock never holds `failed`; ingest uses it in memory for images it rejected.
   */
  status: z.enum(['ok', 'missing', 'failed']),
  sha256: z.string().nullable(),
  bytes: z.number().int().nullable(),
  format: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  oriented_width: z.number().int().nullable(),
  oriented_height: z.number().int().nullable(),
  exif_orientation: z.number().int().nullable(),
  colour_space: z.string().nullable(),
  channels: z.number().int().nullable(),
  bit_depth: z.number().int().nullable(),
  has_alpha: z.boolean().nullable(),
  palette: z.boolean().nullable(),
  icc: z
    .strictObject({
      description: z.string().nullable(),
      sha256: z.string(),
      bytes: z.number().int(),
    })
    .nullable(),
  phash: z.string().nullable(),
});

export const LockEntry = Entry.extend({
  image: Entry.shape.image.extend({ resolved: ImageRecord }),
});

export const CorpusLock = z.strictObject({
  format: z.literal(CORPUS_FORMAT),
  version: z.literal(CORPUS_VERSION),
  tool: z.strictObject({ name: z.string(), version: z.string() }),
  corpus: Slug,
  languages: z.array(LangCode),
  manifest: z.strictObject({ file: z.string(), sha256: z.string() }),
  images_root: z.string(),
  parameters: z.strictObject({
    pixel_limit: z.number().int(),
    near_duplicate_threshold: z.number().int(),
    strict: z.boolean(),
    allow_missing: z.boolean(),
    allow_duplicates: z.boolean(),
    phash: z.string(),
  }),
  entries: z.array(LockEntry),
  near_duplicates: z.array(z.strictObject({ a: Slug, b: Slug, distance: z.number().int() })),
  warnings: z.array(
    z.strictObject({
      code: z.string(),
      entry: z.string().optional(),
      field: z.string().optional(),
      message: z.string(),
    }),
  ),
});

export type CorpusLock = z.output<typeof CorpusLock>;
export type LockEntry = z.output<typeof LockEntry>;
export type ImageRecord = z.output<typeof ImageRecord>;

/** An image record with nothing decoded: the file is not there yet, or ingest rejected it. */
export function emptyImageRecord(file: string, status: 'missing' | 'failed'): ImageRecord {
  return {
    file,
    status,
    sha256: null,
    bytes: null,
    format: null,
    width: null,
    height: null,
    oriented_width: null,
    oriented_height: null,
    exif_orientation: null,
    colour_space: null,
    channels: null,
    bit_depth: null,
    has_alpha: null,
    palette: null,
    icc: null,
    phash: null,
  };
}

/**
 * Read and validate a corpus lock. Rejects other formats and unknown versions with a message
 * that says what to do.
 */
export async function readCorpusLock(file: string): Promise<CorpusLock> {
  const { data } = await loadDataFile(
    file,
    z.looseObject({ format: z.string(), version: z.number() }),
    'E_LOCK_INVALID',
  );
  if (data.format !== CORPUS_FORMAT) {
    throw StimkitError.fromProblem({
      code: 'E_LOCK_FORMAT',
      file,
      field: 'format',
      message: 'not a corpus lock',
      expected: JSON.stringify(CORPUS_FORMAT),
      got: JSON.stringify(data.format),
      fix: 'pass the corpus.lock.json written by `stimkit ingest`, or the entries manifest itself',
    });
  }
  if (data.version !== CORPUS_VERSION) {
    throw StimkitError.fromProblem({
      code: 'E_LOCK_VERSION',
      file,
      field: 'version',
      message: 'corpus lock version not supported by this stimkit',
      expected: String(CORPUS_VERSION),
      got: String(data.version),
      fix: 'rerun `stimkit ingest` with this version of stimkit to rewrite the lock',
    });
  }
  return (await loadDataFile(file, CorpusLock, 'E_LOCK_INVALID')).data;
}

/** Absolute path of an entry's image, given the lock's own path. */
export function imagePathFromLock(lockFile: string, entry: LockEntry): string {
  return path.resolve(path.dirname(lockFile), entry.image.resolved.file);
}
