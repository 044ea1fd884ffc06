/**
 * Agreement on one binary dimension, the way the audit paper's Appendix D reports it: among
 * raters (human raters, or several judges) the raw pairwise agreement, Gwet's AC1 (primary: it is
 * robust to extreme prevalence), the mean pairwise Cohen's kappa and Fleiss' kappa, with the
 * pooled positive prevalence; and a judge against a reference (the human majority) as a 2 × 2
 * confusion matrix with precision, recall (sensitivity), specificity and raw agreement.
 * Unlabelled cells (null: N/A, or no label) are left out pairwise.
 */
import { cohenKappa, fleissKappa, gwetAc1, ratingCounts } from '../stats/index.js';
import type { Confusion, RaterAgreement } from './validation-format.js';

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
const mean = (xs: number[]): number | null =>
  xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null;

/** Reliability of `ratings[item][rater]` (true/false/null). */
export function raterAgreement(
  ratings: ReadonlyArray<ReadonlyArray<boolean | null>>,
): RaterAgreement {
  const raters = ratings.reduce((m, r) => Math.max(m, r.length), 0);
  const usable = ratings.filter((r) => r.filter((v) => v !== null).length >= 2);
  const raw: number[] = [];
  const kappas: number[] = [];
  for (let a = 0; a < raters; a++) {
    for (let b = a + 1; b < raters; b++) {
      const pairs = ratings
        .filter((r) => r[a] != null && r[b] != null)
        .map((r) => [r[a]!, r[b]!] as const);
      if (pairs.length === 0) continue;
      raw.push(pairs.filter(([x, y]) => x === y).length / pairs.length);
      const k = cohenKappa(
        pairs.map((p) => String(p[0])),
        pairs.map((p) => String(p[1])),
        { categories: ['false', 'true'] },
      );
      const v = finite(k.kappa);
      if (v !== null) kappas.push(v);
    }
  }
  const cats = ['false', 'true'];
  const toStr = (r: ReadonlyArray<boolean | null>) => r.map((v) => (v === null ? null : String(v)));
  const ac1 =
    usable.length > 0 ? finite(gwetAc1(ratingCounts(usable.map(toStr), cats).counts).ac1) : null;
  const complete = ratings.filter((r) => r.length === raters && r.every((v) => v !== null));
  const fleiss =
    complete.length > 0 && raters >= 2
      ? finite(fleissKappa(ratingCounts(complete.map(toStr), cats).counts).kappa)
      : null;
  const all = ratings.flat().filter((v): v is boolean => v !== null);
  return {
    raters,
    items: usable.length,
    raw_agreement: mean(raw),
    gwet_ac1: ac1,
    cohen_kappa_mean: mean(kappas),
    fleiss_kappa: fleiss,
    fleiss_items: complete.length,
    prevalence: all.length > 0 ? all.filter(Boolean).length / all.length : null,
  };
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** The confusion matrix of `judge` against `reference` over the items both labelled. */
export function confusion(
  judge: ReadonlyArray<boolean | null>,
  reference: ReadonlyArray<boolean | null>,
): Confusion {
  let tp = 0,
    fn = 0,
    fp = 0,
    tn = 0;
  const a: string[] = [];
  const b: string[] = [];
  judge.forEach((j, i) => {
    const r = reference[i];
    if (j == null || r == null) return;
    if (r && j) tp++;
    else if (r && !j) fn++;
    else if (!r && j) fp++;
    else tn++;
    a.push(String(j));
    b.push(String(r));
  });
  const n = tp + fn + fp + tn;
  const kappa = n > 0 ? finite(cohenKappa(a, b, { categories: ['false', 'true'] }).kappa) : null;
  return {
    tp,
    fn,
    fp,
    tn,
    n,
    agreement: ratio(tp + tn, n),
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    specificity: ratio(tn, tn + fp),
    cohen_kappa: kappa,
  };
}

/** The majority of the non-null ratings; null on a tie or with none. */
export function majority(ratings: ReadonlyArray<boolean | null>): boolean | null {
  const t = ratings.filter((v) => v === true).length;
  const f = ratings.filter((v) => v === false).length;
  return t > f ? true : f > t ? false : null;
}
