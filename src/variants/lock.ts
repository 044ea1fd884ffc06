/**
 * The variants lock (`stimkit.variants`, version 1): what `stimkit variants` writes next to its
 * outputs. Per entry and variant: code, name, file, sha256, size, the hash of everything the
 * output depends on (`inputs_sha256`), resolved parameters and metrics; failed entries with their
 * error. Paths are relative to the lock's folder, with forward slashes. docs/formats/variants.md.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { loadDataFile } from '../core/datafile.js';
import { StimkitError } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';
import { Role, Slug } from '../ingest/schema.js';
import { Libraries } from './libraries.js';
import { Quality, Recipe } from './recipe.js';
import { QualityWarning } from './quality/warnings.js';
import { VARIANT_CODES } from './types.js';

export const VARIANTS_FORMAT = 'stimkit.variants';
export const VARIANTS_VERSION = 1;
export const LOCK_NAME = 'variants.lock.json';

/** File name of a shard's lock: `variants.shard-2-of-4.lock.json`. */
export function shardLockName(index: number, count: number): string {
  return `variants.shard-${index}-of-${count}.lock.json`;
}

const SHARD_LOCK = /^variants\.shard-(\d+)-of-(\d+)\.lock\.json$/;

const FileRef = z.strictObject({ file: z.string(), sha256: z.string() });
const ErrorRecord = z.strictObject({ code: z.string(), message: z.string() });
const Metric = z.union([z.number(), z.null(), z.array(z.number())]);

export const VariantRecord = z.strictObject({
  code: z.enum(VARIANT_CODES),
  name: z.string(),
  status: z.enum(['ok', 'failed']),
  /** The PNG, relative to the lock's folder (null when failed). */
  file: z.string().nullable(),
  sha256: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  channels: z.union([z.literal(1), z.literal(3)]).nullable(),
  /** sha256 of everything the record depends on: tool and library versions, image sha256, recipe sections, segmenter. */
  inputs_sha256: z.string(),
  params: z.record(z.string(), z.unknown()),
  metrics: z.record(z.string(), Metric),
  error: ErrorRecord.nullable(),
  /** Quality warnings (an abstraction that lost its subject); absent when there are none. */
  warnings: z.array(QualityWarning).optional(),
});
export type VariantRecord = z.output<typeof VariantRecord>;

export const EntryRecord = z.strictObject({
  id: Slug,
  /** `ok`: every selected variant written; `failed`: at least one failed; `skipped`: no image (ingested with --allow-missing). */
  status: z.enum(['ok', 'failed', 'skipped']),
  roles: z.array(Role),
  image: z.strictObject({ file: z.string(), sha256: z.string().nullable() }),
  error: ErrorRecord.nullable(),
  variants: z.array(VariantRecord),
});
export type EntryRecord = z.output<typeof EntryRecord>;

export const VariantsLock = z.strictObject({
  format: z.literal(VARIANTS_FORMAT),
  version: z.literal(VARIANTS_VERSION),
  tool: z.strictObject({ name: z.string(), version: z.string() }),
  corpus: Slug,
  inputs: z.strictObject({ corpus_lock: FileRef, manifest: FileRef.nullable() }),
  selection: z.strictObject({
    variants: z.array(z.enum(VARIANT_CODES)),
    roles: z.array(Role).nullable(),
    shard: z.strictObject({ index: z.number().int(), count: z.number().int() }).nullable(),
    /** Variants per entry id when the run was asked for them (`entryCodes`), else null. */
    entry_codes: z
      .record(z.string(), z.array(z.enum(VARIANT_CODES)))
      .nullable()
      .default(null),
  }),
  recipe: Recipe,
  /** Versions of sharp (with libvips and its libraries) and opencv-wasm; part of every `inputs_sha256`. */
  libraries: Libraries,
  /** The segmenter's own description (model digest, licence facts, resolved params), when A6 ran. */
  segmenter: z.record(z.string(), z.unknown()).nullable(),
  entries: z.array(EntryRecord),
  /** Contact-sheet page(s) next to the lock; empty for shard locks. */
  contact_sheets: z.array(
    z.strictObject({
      file: z.string(),
      sha256: z.string(),
      width: z.number().int(),
      height: z.number().int(),
    }),
  ),
  summary: z.strictObject({
    entries: z.number().int(),
    ok: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    outputs: z.number().int(),
  }),
  /** The quality thresholds applied (resolved) and how many warnings they raised; absent in locks written before warnings existed. */
  quality: z
    .strictObject({
      thresholds: Quality,
      warnings: z.number().int(),
      entries_warned: z.number().int(),
    })
    .optional(),
});
export type VariantsLock = z.output<typeof VariantsLock>;

/**
 * A lock read without the YAML reader: the value of `text` when the text is exactly what stimkit
 * writes for that value (`JSON.stringify(value, null, 2)` and a newline, so no duplicate keys and
 * nothing the YAML reader would read otherwise) and the value passes `schema`; else null, and the
 * caller's reader reads it again to report its problems with their lines. The YAML reader costs a
 * fresh process about a quarter of a second on a small lock.
 */
export function parseWrittenLock<S extends z.ZodType>(
  text: string,
  schema: S,
  value?: unknown,
): z.output<S> | null {
  let parsed = value;
  try {
    parsed ??= JSON.parse(text) as unknown;
  } catch {
    return null;
  }
  if (`${JSON.stringify(parsed, null, 2)}\n` !== text) return null;
  const result = schema.safeParse(parsed);
  return result.success ? result.data : null;
}

/** Read and validate a variants lock; rejects other formats and unknown versions. */
export async function readVariantsLock(file: string): Promise<VariantsLock> {
  const written = parseWrittenLock(
    await readTextFile(file, 'E_VARIANTS_LOCK_INVALID'),
    VariantsLock,
  );
  if (written) return written;
  const { data } = await loadDataFile(
    file,
    z.looseObject({ format: z.string(), version: z.number() }),
    'E_VARIANTS_LOCK_INVALID',
  );
  if (data.format !== VARIANTS_FORMAT || data.version !== VARIANTS_VERSION) {
    throw StimkitError.fromProblem({
      code: 'E_VARIANTS_LOCK_VERSION',
      file,
      field: data.format !== VARIANTS_FORMAT ? 'format' : 'version',
      message: 'not a variants lock this stimkit can read',
      expected: `format ${VARIANTS_FORMAT} version ${VARIANTS_VERSION}`,
      got: `format ${data.format} version ${data.version}`,
      fix: 'rerun `stimkit variants` with this version of stimkit to rewrite it',
    });
  }
  return (await loadDataFile(file, VariantsLock, 'E_VARIANTS_LOCK_INVALID')).data;
}

/** Suffix of a lock moved aside because the files it vouched for are being rewritten. */
export const STALE_SUFFIX = '.stale';

/** True for the name of a main or shard lock (not a stale one). */
export function isLockName(name: string): boolean {
  return name === LOCK_NAME || SHARD_LOCK.test(name);
}

/** A lock found in the output folder, by file name. */
export interface FoundLock {
  name: string;
  /** A `.stale` lock: not trusted, only a source of reuse candidates (each re-verified). */
  stale: boolean;
  lock: VariantsLock;
}

/**
 * Every variants lock in `dir` (the main lock, shard locks, and stale ones), for reusing outputs
 * whose inputs did not change: a record is reused only if its `inputs_sha256` matches and its file
 * still has the recorded sha256, so a stale lock is as good a source of candidates as a live one.
 * Unreadable live locks are reported (and listed, so they can be moved aside before anything is
 * rewritten); unreadable stale ones are ignored.
 */
export async function readPriorLocks(
  dir: string,
): Promise<{ locks: FoundLock[]; unreadable: Array<{ file: string; message: string }> }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { locks: [], unreadable: [] };
  }
  const files = names
    .filter(
      (n) =>
        isLockName(n) || (n.endsWith(STALE_SUFFIX) && isLockName(n.slice(0, -STALE_SUFFIX.length))),
    )
    .sort();
  const locks: FoundLock[] = [];
  const unreadable: Array<{ file: string; message: string }> = [];
  for (const name of files) {
    const stale = !isLockName(name);
    try {
      locks.push({ name, stale, lock: await readVariantsLock(path.join(dir, name)) });
    } catch (err) {
      if (!stale)
        unreadable.push({ file: name, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { locks, unreadable };
}
