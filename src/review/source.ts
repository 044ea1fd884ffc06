/**
 * What the review page shows, from any of three inputs: an entries manifest (images from its
 * images folder), a corpus lock (images as ingest recorded them, ingest warnings), or a sealed
 * bundle (its entries and the A0–A6 images it holds). A variants lock, given, adds the ladder and
 * its variants' quality warnings; a bundle's variants.json carries images, not warnings.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { loadDataFile, parseDataText } from '../core/datafile.js';
import { StimkitError } from '../core/errors.js';
import { readTextFile, relPosix } from '../core/fsio.js';
import { resolveInside } from '../core/safe-path.js';
import { checkManifest } from '../ingest/checks.js';
import { imagePathFromLock, readCorpusLock } from '../ingest/lock.js';
import type { LoadedPack } from '../languages/load.js';
import { EntriesManifest, type Entry } from '../ingest/schema.js';
import { openBundle } from '../bundle/reader.js';
import { VARIANT_CODES, VARIANT_NAMES } from '../study/schema.js';
import { readVariantsLock } from '../variants/lock.js';

/** A warning shown with an entry, and where it came from. */
interface ReviewWarning {
  source: 'ingest' | 'variants';
  code: string;
  message: string;
}

/** One rung of the ladder: the variant's image, if there is one. */
interface ReviewRung {
  code: string;
  name: string;
  file: string | null;
  status: string;
}

/**
 * An entry as the page shows it: what an entries manifest and a corpus lock (`Entry`) and a
 * bundle's entries.json (`BundleEntry`) all hold, each checked by its own reader.
 */
interface ReviewedEntry {
  id: string;
  title: Record<string, string>;
  topic: string;
  sensitivity: string;
  roles: readonly string[];
  /** The source image (null or absent in a bundle entry without one). */
  image?: { file: string } | null;
  provenance: Record<string, unknown>;
  expected_facts: ReadonlyArray<{ id: string } & Record<string, unknown>>;
  anchor?: { name: Record<string, string> };
}

/** One entry as the page shows it. */
export interface ReviewEntry {
  entry: ReviewedEntry;
  /** The image file to show (absolute), or null when it is not there. */
  image: string | null;
  warnings: ReviewWarning[];
  ladder: ReviewRung[];
}

/** Everything the page and the CSV show. */
export interface ReviewData {
  kind: 'entries' | 'corpus lock' | 'bundle';
  input: string;
  corpus: string;
  languages: string[];
  entries: ReviewEntry[];
  /** Extra facts for the header (bundle digest, variants lock used). */
  notes: string[];
  /**
   * The study's own language packs sealed in a bundle (`data/languages/<tag>.yaml`), read before
   * the shipped ones for each text's `lang` and `dir`; none for an entries manifest or corpus lock.
   */
  packs?: LoadedPack[];
}

/** An entry's ladder and variant warnings, from a variants lock. */
type EntryLadder = { ladder: ReviewRung[]; warnings: ReviewWarning[] };

/**
 * The ladder and the quality warnings of each entry's variants, from a variants lock read as
 * `stimkit variants` reads one (format, version and every field checked).
 */
async function readLadders(lockFile: string): Promise<Map<string, EntryLadder>> {
  const lock = await readVariantsLock(lockFile);
  const dir = path.dirname(lockFile);
  const out = new Map<string, EntryLadder>();
  for (const e of lock.entries) {
    const ladder = e.variants.map((v) => ({
      code: v.code,
      name: v.name,
      file: v.file === null ? null : path.resolve(dir, v.file),
      status: v.status,
    }));
    const warnings = e.variants.flatMap((v) =>
      (v.warnings ?? []).map((w) => ({
        source: 'variants' as const,
        code: w.code,
        message: `${v.code}: ${w.message}`,
      })),
    );
    out.set(e.id, { ladder, warnings });
  }
  return out;
}

/** Fill in the seven rungs in ladder order (missing ones as "not made"). */
function fullLadder(rungs: ReviewRung[]): ReviewRung[] {
  return VARIANT_CODES.map(
    (code) =>
      rungs.find((r) => r.code === code) ?? {
        code,
        name: VARIANT_NAMES[code],
        file: null,
        status: 'not made',
      },
  );
}

async function fileOrNull(file: string): Promise<string | null> {
  return (await stat(file).catch(() => null))?.isFile() ? file : null;
}

/** A sealed bundle's entries and the A0–A6 images it holds, read through `openBundle`. */
async function fromBundle(dir: string): Promise<ReviewData> {
  const b = await openBundle(dir, 'E_REVIEW_INPUT');
  const [entries, corpus] = [await b.entries(), await b.corpus()];
  if (!entries || !corpus)
    throw StimkitError.fromProblem({
      code: 'E_REVIEW_INPUT',
      file: dir,
      field: 'data/entries.json',
      message: 'a bundle without a corpus (an instrument-only study): nothing to review',
      fix: 'pass a bundle of a study with a corpus, its entries manifest, or its corpus lock',
    });
  const variants = await b.variants();
  const records = variants?.records ?? [];
  const out: ReviewEntry[] = [];
  for (const e of entries) {
    const rungs = records
      .filter((r) => r.entry === e.id)
      .map((r) => ({
        code: r.code,
        name: r.name,
        file: path.join(b.dir, 'data', r.file),
        status: 'ok',
      }));
    const a0 = rungs.find((r) => r.code === 'A0');
    out.push({
      entry: e,
      image: a0 ? await fileOrNull(a0.file) : null,
      warnings: [],
      ladder: fullLadder(rungs),
    });
  }
  return {
    kind: 'bundle',
    input: dir,
    corpus: corpus.name,
    languages: corpus.languages,
    entries: out,
    notes: [`bundle digest ${b.digest}`, 'images: the A0–A6 PNGs sealed in the bundle'],
    packs: await b.languagePacks(),
  };
}

/**
 * Read what the review page shows from an entries manifest, a corpus lock or a bundle folder.
 * `variantsLock` adds the A0–A6 ladder for the first two.
 */
export async function loadReviewSource(
  input: string,
  options: { variantsLock?: string } = {},
): Promise<ReviewData> {
  if ((await stat(input).catch(() => null))?.isDirectory()) return fromBundle(input);
  const text = await readTextFile(input, 'E_REVIEW_INPUT');
  const { value } = parseDataText(input, text, 'E_REVIEW_INPUT');
  const ladders = options.variantsLock
    ? await readLadders(options.variantsLock)
    : new Map<string, EntryLadder>();
  const notes = options.variantsLock
    ? [
        `variants ${relPosix(path.dirname(path.resolve(input)), path.resolve(options.variantsLock))} (relative to the folder of ${path.basename(input)})`,
      ]
    : ['no variants lock given (--variants): the ladder is empty'];
  const withLadder = (e: Entry, image: string | null, warnings: ReviewWarning[]): ReviewEntry => {
    const l = ladders.get(e.id);
    return {
      entry: e,
      image,
      warnings: [...warnings, ...(l?.warnings ?? [])],
      ladder: fullLadder(l?.ladder ?? []),
    };
  };
  if ((value as { format?: unknown } | null)?.format === 'stimkit.corpus') {
    const lock = await readCorpusLock(input);
    const entries = await Promise.all(
      lock.entries.map(async (e) => {
        const warnings = lock.warnings
          .filter((w) => w.entry === e.id)
          .map((w) => ({ source: 'ingest' as const, code: w.code, message: w.message }));
        const image =
          e.image.resolved.status === 'ok' ? await fileOrNull(imagePathFromLock(input, e)) : null;
        const { resolved: _r, ...imageRef } = e.image;
        return withLadder({ ...e, image: imageRef }, image, warnings);
      }),
    );
    return {
      kind: 'corpus lock',
      input,
      corpus: lock.corpus,
      languages: lock.languages,
      entries,
      notes,
    };
  }
  const { data, parsed } = await loadDataFile(input, EntriesManifest, 'E_INGEST_SCHEMA');
  const problems = checkManifest(data, parsed);
  const root = path.resolve(path.dirname(path.resolve(input)), data.images);
  const entries = await Promise.all(
    data.entries.map(async (e) => {
      const warnings = problems
        .filter((p) => p.entry === e.id)
        .map((p) => ({ source: 'ingest' as const, code: p.code, message: p.message }));
      const r = await resolveInside(root, e.image.file);
      return withLadder(e, r.ok ? r.path : null, warnings);
    }),
  );
  return { kind: 'entries', input, corpus: data.corpus, languages: data.languages, entries, notes };
}
