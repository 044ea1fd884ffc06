/**
 * Cross-checking what a bundle says about itself against what it holds: the trial and image
 * counts in `bundle.json`, `counts.json` and `bag-info.txt` against the trials actually in
 * `trials.jsonl` and the images they show, the payload files the header lists, and image files no
 * trial shows. A bag whose payload was edited and then re-sealed (new manifests, new
 * Payload-Oxum) passes every checksum; these checks are what still catch it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Problem } from '../core/errors.js';
import { Counts, PAYLOAD, type BundleHeader, type Trial } from '../bundle/format.js';
import type { FoundFile } from '../core/walk.js';

/** What the trial plan in the bag actually holds. */
export interface ActualPlan {
  /** Lines of trials.jsonl. */
  trials: number;
  /** Distinct digests of the images the (valid) trials show. */
  images: Set<string>;
  /** Valid trials per block (paradigm, or `instrument/<arm>`, `pressure/<arm>`) and language, keyed `block\tlang`. */
  cells: Map<string, number>;
}

/** The block a trial counts under, as counts.json names it. */
export function blockOf(t: Pick<Trial, 'paradigm' | 'arm'>): string {
  return t.paradigm === 'instrument' || t.paradigm === 'pressure'
    ? `${t.paradigm}/${t.arm ?? ''}`
    : t.paradigm;
}

const COUNTS_FIX =
  'the payload was edited after sealing; restore the original bundle, or rebuild it with stimkit bundle';

/** Problems where the declared counts differ from `actual`; `info` is bag-info.txt's fields. */
export function checkDeclaredCounts(
  root: string,
  files: Map<string, FoundFile>,
  header: BundleHeader | null,
  info: Map<string, string> | null,
  actual: ActualPlan,
): Problem[] {
  const problems: Problem[] = [];
  const mismatch: Mismatch = (file, field, message, declared, got) =>
    problems.push({
      code: 'E_VERIFY_COUNTS',
      severity: 'error',
      file,
      field,
      message,
      expected: String(declared),
      got: String(got),
      fix: COUNTS_FIX,
    });
  if (header) checkHeaderCounts(header, files, actual, mismatch, problems);
  checkCountsFile(root, files, actual, mismatch, problems);
  for (const [label, note, got] of [
    ['Stimkit-Trials', TRIALS_NOTE, actual.trials],
    ['Stimkit-Images', IMAGES_NOTE, actual.images.size],
  ] as const) {
    const value = info?.get(label);
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) !== got)
      mismatch('bag-info.txt', label, note, value, got);
  }
  checkUnusedImages(files, actual, problems);
  return problems;
}

type Mismatch = (
  file: string,
  field: string,
  message: string,
  declared: number | string,
  got: number,
) => void;

const TRIALS_NOTE = `the declared trial count differs from the lines of ${PAYLOAD.trials}`;
const IMAGES_NOTE = 'the declared image count differs from the distinct images the trials show';
const cellNote = (what: string) =>
  `the declared ${what} count differs from the trials in ${PAYLOAD.trials}`;

/** The header's trial and image counts, and that every payload file it lists is in the bag. */
function checkHeaderCounts(
  header: BundleHeader,
  files: Map<string, FoundFile>,
  actual: ActualPlan,
  mismatch: Mismatch,
  problems: Problem[],
): void {
  const headerPath = `data/${PAYLOAD.bundle}`;
  if (header.trials !== actual.trials)
    mismatch(headerPath, 'trials', TRIALS_NOTE, header.trials, actual.trials);
  if (header.images !== actual.images.size)
    mismatch(headerPath, 'images', IMAGES_NOTE, header.images, actual.images.size);
  for (const [key, name] of Object.entries(header.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (name.includes('<') || files.has(`data/${name}`)) continue;
    problems.push({
      code: 'E_VERIFY_HEADER_FILE',
      severity: 'error',
      file: `data/${name}`,
      field: `files.${key}`,
      message: `${PAYLOAD.bundle} lists this payload file but the bag does not hold it`,
      fix: COUNTS_FIX,
    });
  }
}

/** `data/counts.json`, when present: valid, and its totals and cells equal to the trials'. */
function checkCountsFile(
  root: string,
  files: Map<string, FoundFile>,
  actual: ActualPlan,
  mismatch: Mismatch,
  problems: Problem[],
): void {
  const countsPath = `data/${PAYLOAD.counts}`;
  if (!files.has(countsPath)) return;
  let parsed: ReturnType<typeof Counts.safeParse> | null;
  try {
    parsed = Counts.safeParse(JSON.parse(readFileSync(path.join(root, countsPath), 'utf8')));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    problems.push({
      code: 'E_VERIFY_COUNTS',
      severity: 'error',
      file: countsPath,
      message: 'not a valid counts file (JSON with trials, by_block, blocks, expectations)',
      fix: COUNTS_FIX,
    });
    return;
  }
  const c = parsed.data;
  if (c.trials !== actual.trials)
    mismatch(countsPath, 'trials', TRIALS_NOTE, c.trials, actual.trials);
  const declared = new Set<string>();
  c.by_block.forEach((cell, i) => {
    const key = `${cell.block}\t${cell.lang}`;
    declared.add(key);
    const got = actual.cells.get(key) ?? 0;
    if (cell.trials !== got)
      mismatch(
        countsPath,
        `by_block[${i}].trials`,
        cellNote(`${cell.block} × ${cell.lang}`),
        cell.trials,
        got,
      );
  });
  for (const [key, got] of actual.cells) {
    const [block, lang] = key.split('\t') as [string, string];
    if (!declared.has(key))
      mismatch(countsPath, 'by_block', `${cellNote(`${block} × ${lang}`)} (not listed)`, 0, got);
  }
  const perBlock = new Map<string, number>();
  for (const [key, n] of actual.cells)
    perBlock.set(key.split('\t')[0]!, (perBlock.get(key.split('\t')[0]!) ?? 0) + n);
  c.blocks.forEach((b, i) => {
    const got = perBlock.get(b.block) ?? 0;
    if (b.trials !== got)
      mismatch(countsPath, `blocks[${i}].trials`, cellNote(b.block), b.trials, got);
  });
}

/** Every image file in the payload is one a trial shows. */
function checkUnusedImages(
  files: Map<string, FoundFile>,
  actual: ActualPlan,
  problems: Problem[],
): void {
  const imagesDir = `data/${PAYLOAD.imagesDir}/`;
  for (const p of [...files.keys()].sort()) {
    if (!p.startsWith(imagesDir)) continue;
    const m = /^([0-9a-f]{64})\.png$/.exec(p.slice(imagesDir.length));
    if (!m || !actual.images.has(m[1]!)) {
      problems.push({
        code: 'E_VERIFY_UNUSED_IMAGE',
        severity: 'error',
        file: p,
        message:
          'no trial shows this image (stimkit bundles hold exactly the images their trials show)',
        fix: COUNTS_FIX,
      });
    }
  }
}
