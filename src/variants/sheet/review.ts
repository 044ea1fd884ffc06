/**
 * The review page (`stimkit variants --review`): only the entries with quality warnings, each
 * beside its A0, with just the variants that warned (framed and labelled as on the contact
 * sheet), so a curator can decide quickly which entries to keep in the abstraction probe.
 * Written as `review.png` (`review-2.png` … past 50 entries); not recorded in the lock, since it
 * is a view of the lock's own records.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EntryRecord } from '../lock.js';
import { VARIANT_CODES, type VariantCode } from '../types.js';
import { renderSheets, writeSheets, type SheetPage } from './contact-sheet.js';

/** File name of review page `n` (1-based). */
function reviewName(n: number): string {
  return n === 1 ? 'review.png' : `review-${n}.png`;
}

const REVIEW_PAGE = /^review(-\d+)?\.png$/;

/**
 * Write the review page(s) of `records` into `outDir` and remove earlier review pages this one
 * does not replace; returns the pages, none when no entry has a warning. The pages are drawn
 * before anything is written or removed, so a failure leaves the earlier review as it was.
 */
export async function writeReview(
  records: EntryRecord[],
  outDir: string,
  opts: { cell: number; title: string; compression: number },
): Promise<SheetPage[]> {
  const warned = records.filter((e) => e.variants.some((v) => v.warnings?.length));
  const codes = new Set<VariantCode>(['A0']);
  for (const e of warned) for (const v of e.variants) if (v.warnings?.length) codes.add(v.code);
  const columns = VARIANT_CODES.filter((c) => codes.has(c));
  const title = `${opts.title}: ${warned.length} entr${warned.length === 1 ? 'y' : 'ies'} with warnings`;
  const pages =
    warned.length === 0
      ? []
      : await renderSheets(warned, columns, outDir, { ...opts, title, name: reviewName });
  const keep = new Set(pages.map((p) => p.file));
  for (const name of await readdir(outDir).catch(() => [] as string[])) {
    if (REVIEW_PAGE.test(name) && !keep.has(name))
      await rm(path.join(outDir, name), { force: true });
  }
  return writeSheets(pages, outDir);
}
