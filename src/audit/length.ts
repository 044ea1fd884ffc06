/**
 * D6 summaries: the median response length per model × language, excluding refusals, under the
 * three accountings of the audit paper's Table A17 (raw, markdown-stripped, deep-stripped).
 * Which refusal label excludes a response (a judge's D1 or the lexical detector) is the caller's
 * choice and is recorded in `refusal_source`.
 */
import type { Lengths } from './clean.js';

/** One scored response as the length summary needs it. */
export interface LengthRow {
  model: string;
  lang: string;
  lengths: Lengths;
  /** True when the response is a refusal (excluded); null when unknown (kept). */
  refused: boolean | null;
}

/** The median of one model × language cell. */
export interface LengthCell {
  model: string;
  lang: string;
  /** Responses counted (refusals excluded). */
  n: number;
  /** Refusals excluded. */
  refusals_excluded: number;
  median_raw: number | null;
  median_markdown: number | null;
  median_clean: number | null;
}

/** The median of numbers (mean of the two middle values for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Ex-refusal median lengths per model × language, sorted by model then language.
 *
 * @example
 * medianLengths([{ model: 'm', lang: 'en', lengths: { raw: 10, markdown: 9, clean: 8 }, refused: false }])
 * // → [{ model: 'm', lang: 'en', n: 1, refusals_excluded: 0, median_raw: 10, median_markdown: 9, median_clean: 8 }]
 */
export function medianLengths(rows: readonly LengthRow[]): LengthCell[] {
  const cells = new Map<
    string,
    { model: string; lang: string; kept: Lengths[]; refused: number }
  >();
  for (const r of rows) {
    const key = JSON.stringify([r.model, r.lang]);
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { model: r.model, lang: r.lang, kept: [], refused: 0 }));
    if (r.refused === true) c.refused++;
    else c.kept.push(r.lengths);
  }
  return [...cells.values()]
    .sort((a, b) => (a.model === b.model ? cmp(a.lang, b.lang) : cmp(a.model, b.model)))
    .map((c) => ({
      model: c.model,
      lang: c.lang,
      n: c.kept.length,
      refusals_excluded: c.refused,
      median_raw: median(c.kept.map((l) => l.raw)),
      median_markdown: median(c.kept.map((l) => l.markdown)),
      // a language without pass 2 rules has no cleaned lengths: its median is not computed
      median_clean: c.kept.some((l) => l.clean === null)
        ? null
        : median(c.kept.map((l) => l.clean!)),
    }));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
