/**
 * The within-model language shift (e.g. EN→ZH, Methods 4.6): per model, net bias in each language
 * (mean of that language's cell means) and the shift; across models a paired t test, a Wilcoxon
 * signed-rank test (two-sided p floors at 2/2ⁿ when all n models shift the same way), Cohen's dz
 * and the 95 % CI of the mean shift. Per model, a paired t over its topic × framing cells.
 */
import { StimkitError } from '../../core/errors.js';
import { mean, pairedT, wilcoxonSignedRank } from '../../stats/index.js';
import { groupBy, type CellSummary } from './cells.js';

/** One model's shift. */
interface ModelShift {
  model: string;
  origin: string;
  netFrom: number;
  netTo: number;
  /** netTo − netFrom */
  shift: number;
  /** paired t over the topic × framing cells present in both languages */
  cells: number;
  pCells: number | null;
}

/** The language shift across models. */
export interface LanguageShift {
  from: string;
  to: string;
  perModel: ModelShift[];
  /** models whose shift is negative / positive */
  negative: number;
  positive: number;
  /** null with fewer than 2 models */
  test: {
    n: number;
    meanShift: number;
    sd: number;
    t: number;
    df: number;
    pT: number;
    ci: [number, number];
    dz: number;
    /** null (method `none`) when no model shifts: nothing to rank */
    pWilcoxon: number | null;
    wilcoxonMethod: 'exact' | 'normal' | 'none';
  } | null;
}

/** Shift from language `from` to `to`; null when either language is absent. */
export function languageShift(
  cells: readonly CellSummary[],
  from: string,
  to: string,
): LanguageShift | null {
  if (!cells.some((c) => c.lang === from) || !cells.some((c) => c.lang === to)) return null;
  const perModel: ModelShift[] = [];
  for (const [model, mc] of [...groupBy(cells, (c) => c.model)].sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    const a = mc.filter((c) => c.lang === from);
    const b = mc.filter((c) => c.lang === to);
    if (a.length === 0 || b.length === 0) continue;
    const pairs: [number, number][] = [];
    for (const cb of b) {
      const ca = a.find((c) => c.topic === cb.topic && c.framing === cb.framing);
      if (ca) pairs.push([cb.mean, ca.mean]);
    }
    let pCells: number | null = null;
    if (pairs.length >= 2) {
      const t = pairedT(
        pairs.map((p) => p[0]),
        pairs.map((p) => p[1]),
      );
      pCells = Number.isFinite(t.p) ? t.p : null;
    }
    const netFrom = mean(a.map((c) => c.mean));
    const netTo = mean(b.map((c) => c.mean));
    perModel.push({
      model,
      origin: mc[0]!.origin,
      netFrom,
      netTo,
      shift: netTo - netFrom,
      cells: pairs.length,
      pCells,
    });
  }
  let test: LanguageShift['test'] = null;
  if (perModel.length >= 2) {
    const to_ = perModel.map((m) => m.netTo);
    const from_ = perModel.map((m) => m.netFrom);
    const t = pairedT(to_, from_);
    const w = wilcoxonSignedRank(to_, from_);
    test = {
      n: t.n,
      meanShift: t.mean,
      sd: t.sd,
      t: t.t,
      df: t.df,
      pT: t.p,
      ci: t.ci,
      dz: t.d,
      pWilcoxon: w.p,
      wilcoxonMethod: w.method,
    };
  }
  return {
    from,
    to,
    perModel,
    negative: perModel.filter((m) => m.shift < 0).length,
    positive: perModel.filter((m) => m.shift > 0).length,
    test,
  };
}

/**
 * Refuse a shift between languages the rows do not both have (E_ANALYZE_SHIFT), naming the
 * languages present: asked for explicitly, a shift is never left out in silence.
 */
export function requireShiftLanguages(
  rows: ReadonlyArray<{ lang: string; score: number | null }>,
  from: string,
  to: string,
  file?: string,
): void {
  const present = [...new Set(rows.map((r) => r.lang))].sort();
  const scored = new Set(rows.filter((r) => r.score !== null).map((r) => r.lang));
  const missing = [from, to].filter((l) => !present.includes(l));
  // rows, but none with a score (a language without instrument rules leaves every score empty)
  const unscored = [from, to].filter((l) => present.includes(l) && !scored.has(l));
  if (missing.length === 0 && unscored.length === 0) return;
  const usable = present.filter((l) => scored.has(l));
  throw StimkitError.fromProblem({
    code: 'E_ANALYZE_SHIFT',
    file,
    field: 'lang',
    message:
      missing.length > 0
        ? `no rows in ${missing.join(' or ')}, so there is no ${from} → ${to} shift to compute`
        : `no scored rows in ${unscored.join(' or ')} (every score there is empty, as a language without instrument rules leaves it), so there is no ${from} → ${to} shift to compute`,
    expected: `scored rows in ${from} and ${to}`,
    got: `scored rows in ${usable.join(', ') || 'no language'}`,
    fix:
      usable.length >= 2
        ? `pass --shift FROM:TO with two of ${usable.join(', ')}`
        : 'score the languages with rules for them (a language pack: docs/formats/languages.md), then pass --shift',
  });
}
