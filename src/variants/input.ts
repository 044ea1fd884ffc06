/**
 * What `stimkit variants` reads: a corpus lock (`stimkit.corpus`), or an entries manifest that is
 * ingested first (its corpus lock is written into the output folder). Also the entry selection:
 * roles, then a deterministic shard.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDataText } from '../core/datafile.js';
import { StimkitError } from '../core/errors.js';
import { readTextFile, relPosix, sha256 } from '../core/fsio.js';
import {
  CORPUS_FORMAT,
  CorpusLock,
  imagePathFromLock,
  readCorpusLock,
  type LockEntry,
} from '../ingest/lock.js';
import { ENTRIES_FORMAT, type Role } from '../ingest/schema.js';
import { parseWrittenLock } from './lock.js';

/** The resolved input of a run. */
export interface VariantsInput {
  corpusLockFile: string;
  corpusLock: CorpusLock;
  /** The entries manifest, when known (given directly, or named by the corpus lock). */
  manifestFile: string | null;
  outDir: string;
}

/**
 * The input's value, only to see what it is (it is read and checked in full afterwards): by
 * JSON.parse when the text is JSON, as a corpus lock is (the YAML reader costs a fresh process
 * about a quarter of a second on it), else by the YAML reader with its line-numbered errors.
 */
function peek(input: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return parseDataText(input, text, 'E_VARIANTS_INPUT').value;
  }
}

/**
 * Resolve the input file. An entries manifest is ingested into `out` (default
 * `variants/<corpus>`); ingest problems are raised as `E_VARIANTS_INGEST` (exit 1).
 */
export async function resolveInput(input: string, out: string | undefined): Promise<VariantsInput> {
  const text = await readTextFile(input, 'E_VARIANTS_INPUT');
  const value = peek(input, text) as Record<string, unknown> | null;
  const format = value && typeof value === 'object' ? value.format : undefined;
  const corpus =
    value && typeof value === 'object' && typeof value.corpus === 'string'
      ? value.corpus
      : 'corpus';
  const outDir = path.resolve(out ?? path.join('variants', corpus));
  if (format === CORPUS_FORMAT) {
    const corpusLock = parseWrittenLock(text, CorpusLock, value) ?? (await readCorpusLock(input));
    const manifestFile = path.resolve(path.dirname(input), corpusLock.manifest.file);
    return { corpusLockFile: path.resolve(input), corpusLock, manifestFile, outDir };
  }
  const manifestLike =
    value &&
    typeof value === 'object' &&
    'entries' in value &&
    (format === undefined || format === ENTRIES_FORMAT);
  if (!manifestLike) {
    throw StimkitError.fromProblem({
      code: 'E_VARIANTS_INPUT',
      file: input,
      message: 'neither an entries manifest nor a corpus lock',
      expected:
        'a YAML/JSON file with `entries` (stimkit.entries) or a corpus.lock.json (stimkit.corpus)',
      got:
        format === undefined
          ? 'no format field and no entries'
          : `format ${JSON.stringify(format)}`,
      fix: 'pass the entries manifest or the corpus lock written by `stimkit ingest`',
    });
  }
  // Loaded only here: a run on a corpus lock never ingests.
  const { ingest } = await import('../ingest/ingest.js');
  const result = await ingest(input, { out: outDir });
  if (result.errors > 0 || !result.lockFile) {
    throw new StimkitError(
      'E_VARIANTS_INGEST',
      `${input}: ingest rejected the manifest (${result.errors} error(s)); no variants were made`,
      {
        fix: 'correct the entries manifest (each problem is listed below); `stimkit ingest` shows the same',
        problems: result.problems,
      },
    );
  }
  return {
    corpusLockFile: result.lockFile,
    corpusLock: result.lock,
    manifestFile: path.resolve(input),
    outDir,
  };
}

/** `{file, sha256}` of a file, with the path relative to the output folder. */
export async function fileRef(
  file: string,
  outDir: string,
): Promise<{ file: string; sha256: string }> {
  return { file: relPosix(outDir, file), sha256: sha256(await readFile(file)) };
}

/** A `--shard I/N` value. */
export interface Shard {
  index: number;
  count: number;
}

/** Parse `I/N` (1 ≤ I ≤ N); throws a usage error (exit 2) otherwise. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw StimkitError.usage(
      'E_VARIANTS_SHARD',
      `--shard: expected I/N with 1 ≤ I ≤ N (e.g. 2/4), got "${text}"`,
      'give --shard as two whole numbers I/N with I from 1 to N, e.g. --shard 2/4',
    );
  }
  return { index, count };
}

/** The entries a run covers: those with one of `roles` (all when null), then shard I of N by position. */
export function selectEntries(
  lock: CorpusLock,
  roles: Role[] | null,
  shard: Shard | null,
): LockEntry[] {
  const byRole = roles
    ? lock.entries.filter((e) => e.roles.some((r) => roles.includes(r)))
    : lock.entries;
  return shard ? byRole.filter((_, k) => k % shard.count === shard.index - 1) : byRole;
}

/** Absolute image path of a corpus-lock entry. */
export function entryImagePath(input: VariantsInput, entry: LockEntry): string {
  return imagePathFromLock(input.corpusLockFile, entry);
}
