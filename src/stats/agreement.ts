/**
 * Inter-rater agreement: Cohen's kappa (unweighted, linear, quadratic), Fleiss' kappa and Gwet's
 * AC1. Cohen matches sklearn `cohen_kappa_score` and statsmodels `cohens_kappa`; Fleiss matches
 * statsmodels `fleiss_kappa`; AC1 follows Gwet (2008) for several raters, nominal, unweighted.
 */
import { StimkitError } from '../core/errors.js';

/** A category label: a number or a string. */
export type Label = string | number;

/** Weighting of disagreements for Cohen's kappa. */
export type KappaWeights = 'none' | 'linear' | 'quadratic';

/** Result of Cohen's kappa. */
export interface CohenKappaResult {
  kappa: number;
  /** observed (unweighted) agreement */
  po: number;
  /** chance (unweighted) agreement from the marginals */
  pe: number;
  weightedDisagreementObserved: number;
  weightedDisagreementExpected: number;
  n: number;
  categories: Label[];
  weights: KappaWeights;
}

/** Sorted distinct labels: numeric order when every label is a number, else string order. */
export function sortedCategories(labels: Iterable<Label>): Label[] {
  const set = [...new Set(labels)];
  if (set.every((v) => typeof v === 'number')) return set.sort((a, b) => a - b);
  return set.map(String).sort();
}

function indexOf(categories: readonly Label[], label: Label, what: string): number {
  const i = categories.findIndex((c) => c === label || String(c) === String(label));
  if (i < 0) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_UNKNOWN_LABEL',
      message: `${what} is not one of the categories`,
      expected: categories.map(String).join(', '),
      got: String(label),
      fix: 'add the label to the category list or correct the rating',
    });
  }
  return i;
}

/**
 * Cohen's kappa: κ_w = 1 − Σw·O/Σw·E with O the observed proportions, E the outer product of the
 * marginals, w = 0 on the diagonal and 1 off it (none), |i−j|/(q−1) (linear) or ((i−j)/(q−1))²
 * (quadratic); i, j are positions in `categories` (which may include unused labels).
 */
export function cohenKappa(
  r1: readonly Label[],
  r2: readonly Label[],
  options: { categories?: readonly Label[]; weights?: KappaWeights } = {},
): CohenKappaResult {
  if (r1.length !== r2.length || r1.length === 0) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_LENGTH',
      message: "Cohen's kappa needs two raters with the same non-zero number of ratings",
      expected: `${r1.length} ratings`,
      got: `${r2.length}`,
      fix: 'pass one rating per item from each rater',
    });
  }
  const weights = options.weights ?? 'none';
  const cats = options.categories ? [...options.categories] : sortedCategories([...r1, ...r2]);
  const q = cats.length;
  const n = r1.length;
  const O = Array.from({ length: q }, () => new Array<number>(q).fill(0));
  for (let k = 0; k < n; k++)
    O[indexOf(cats, r1[k]!, 'a rating of the first rater')]![
      indexOf(cats, r2[k]!, 'a rating of the second rater')
    ]! += 1 / n;
  const row = O.map((r) => r.reduce((s, v) => s + v, 0));
  const col = cats.map((_, j) => O.reduce((s, r) => s + r[j]!, 0));
  const w = (i: number, j: number): number => {
    if (weights === 'none') return i === j ? 0 : 1;
    const d = Math.abs(i - j) / Math.max(1, q - 1);
    return weights === 'linear' ? d : d * d;
  };
  let dObs = 0;
  let dExp = 0;
  let po = 0;
  let pe = 0;
  for (let i = 0; i < q; i++) {
    po += O[i]![i]!;
    pe += row[i]! * col[i]!;
    for (let j = 0; j < q; j++) {
      dObs += w(i, j) * O[i]![j]!;
      dExp += w(i, j) * row[i]! * col[j]!;
    }
  }
  return {
    kappa: 1 - dObs / dExp,
    po,
    pe,
    weightedDisagreementObserved: dObs,
    weightedDisagreementExpected: dExp,
    n,
    categories: cats,
    weights,
  };
}

/**
 * The n × q count matrix of a ratings table (items × raters): counts[i][k] = raters who put item
 * i in category k. Missing ratings (null/undefined/'') are skipped.
 */
export function ratingCounts(
  ratings: readonly (readonly (Label | null | undefined)[])[],
  categories?: readonly Label[],
): { counts: number[][]; categories: Label[] } {
  const cats = categories
    ? [...categories]
    : sortedCategories(
        ratings.flat().filter((v): v is Label => v !== null && v !== undefined && v !== ''),
      );
  const counts = ratings.map((item) => {
    const row = new Array<number>(cats.length).fill(0);
    for (const v of item)
      if (v !== null && v !== undefined && v !== '') row[indexOf(cats, v, 'a rating')]! += 1;
    return row;
  });
  return { counts, categories: cats };
}

/** Result of Fleiss' kappa. */
export interface FleissKappaResult {
  kappa: number;
  pBar: number;
  pE: number;
  pK: number[];
  raters: number;
  items: number;
}

/**
 * Fleiss' kappa (1971), equal number of raters m per item: Pᵢ = (Σ_k n_ik² − m)/(m(m−1)),
 * P̄ = mean Pᵢ, p_k = Σᵢ n_ik/(N m), Pₑ = Σ p_k², κ = (P̄ − Pₑ)/(1 − Pₑ).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissKappaResult {
  const N = counts.length;
  const m = counts[0]?.reduce((s, v) => s + v, 0) ?? 0;
  counts.forEach((row, i) => {
    const r = row.reduce((s, v) => s + v, 0);
    if (r !== m || m < 2) {
      throw StimkitError.fromProblem({
        code: 'E_STATS_RATERS',
        message: "Fleiss' kappa needs the same number (≥ 2) of ratings for every item",
        field: `item ${i + 1}`,
        expected: `${m} ratings`,
        got: String(r),
        fix: 'drop items with missing ratings or use Gwet AC1, which allows them',
      });
    }
  });
  const q = counts[0]!.length;
  let pBar = 0;
  const pK = new Array<number>(q).fill(0);
  for (const row of counts) {
    let s = 0;
    row.forEach((v, k) => {
      s += v * v;
      pK[k]! += v;
    });
    pBar += (s - m) / (m * (m - 1));
  }
  pBar /= N;
  for (let k = 0; k < q; k++) pK[k] = pK[k]! / (N * m);
  const pE = pK.reduce((s, v) => s + v * v, 0);
  return { kappa: (pBar - pE) / (1 - pE), pBar, pE, pK, raters: m, items: N };
}

/** Result of Gwet's AC1. */
export interface GwetAc1Result {
  ac1: number;
  pa: number;
  pe: number;
  piK: number[];
}

/**
 * Gwet's AC1 from an n × q count matrix: p_a = mean over items with rᵢ ≥ 2 of
 * Σ_k r_ik(r_ik − 1)/(rᵢ(rᵢ − 1)); π_k = mean over items with rᵢ ≥ 1 of r_ik/rᵢ;
 * p_e = Σ_k π_k(1 − π_k)/(q − 1); AC1 = (p_a − p_e)/(1 − p_e).
 */
export function gwetAc1(counts: readonly (readonly number[])[]): GwetAc1Result {
  const q = counts[0]?.length ?? 0;
  if (q < 2) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_CATEGORIES',
      message: "Gwet's AC1 needs at least two categories",
      expected: '≥ 2 categories',
      got: String(q),
      fix: 'pass the full category list',
    });
  }
  let pa = 0;
  let na = 0;
  const piK = new Array<number>(q).fill(0);
  let nPi = 0;
  for (const row of counts) {
    const r = row.reduce((s, v) => s + v, 0);
    if (r >= 1) {
      nPi++;
      row.forEach((v, k) => (piK[k]! += v / r));
    }
    if (r >= 2) {
      na++;
      pa += row.reduce((s, v) => s + v * (v - 1), 0) / (r * (r - 1));
    }
  }
  pa /= na;
  for (let k = 0; k < q; k++) piK[k] = piK[k]! / nPi;
  const pe = piK.reduce((s, v) => s + v * (1 - v), 0) / (q - 1);
  return { ac1: (pa - pe) / (1 - pe), pa, pe, piK };
}
