/**
 * Wilcoxon signed-rank test, two-sided, following scipy's conventions (zeros dropped —
 * Wilcoxon's method, mid-ranks for ties, no continuity correction), except that the exact null
 * distribution is used only when there are no zeros and no ties (scipy 1.10 also uses it with
 * ties, after truncating W+). R `wilcox.test` applies a continuity correction by default; we do not.
 */
import { StimkitError } from '../core/errors.js';
import { pNormal2 } from './dist.js';
import { midranks, tieSizes } from './ranks.js';

/** Result of a Wilcoxon signed-rank test. */
export interface WilcoxonResult {
  /** number of non-zero differences */
  n: number;
  nZero: number;
  wPlus: number;
  wMinus: number;
  /** min(W+, W−) */
  T: number;
  /** sizes of tie groups among |d| */
  ties: number[];
  /** `none`: no non-zero difference, nothing to test (p null, as scipy refuses: zero_method 'wilcox') */
  method: 'exact' | 'normal' | 'none';
  p: number | null;
  /** normal statistic (T − n(n+1)/4)/σ, null for the exact method */
  z: number | null;
}

/** Options: the largest n for the exact distribution (scipy: 50). */
export interface WilcoxonOptions {
  exactMaxN?: number;
}

/** Exact null distribution of W+ for ranks 1..n: counts[w] = number of sign patterns with W+ = w, as probabilities. */
function exactSignedRankPmf(n: number): Float64Array {
  const max = (n * (n + 1)) / 2;
  let f = new Float64Array(max + 1);
  f[0] = 1;
  for (let k = 1; k <= n; k++) {
    const g = new Float64Array(max + 1);
    for (let w = 0; w <= max; w++) {
      const a = f[w]!;
      if (a === 0) continue;
      g[w] = g[w]! + a / 2;
      g[w + k] = g[w + k]! + a / 2;
    }
    f = g;
  }
  return f;
}

/**
 * Two-sided Wilcoxon signed-rank test of d = x − y (or of x when `y` is omitted).
 * Exact (all 2ⁿ sign patterns) when n ≤ exactMaxN and there are no zeros and no ties:
 * p = min(1, 2·min(P(W ≤ W+), P(W ≥ W+))). Otherwise normal:
 * z = (T − n(n+1)/4)/√(n(n+1)(2n+1)/24 − Σ(t³−t)/48), p = 2Φ(−|z|).
 */
export function wilcoxonSignedRank(
  x: readonly number[],
  y?: readonly number[] | null,
  options: WilcoxonOptions = {},
): WilcoxonResult {
  const exactMaxN = options.exactMaxN ?? 50;
  if (y && y.length !== x.length) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_LENGTH',
      message: 'a paired Wilcoxon test needs two samples of the same length',
      expected: `${x.length} pairs`,
      got: `${y.length}`,
      fix: 'pair each x with exactly one y',
    });
  }
  const d = x.map((v, i) => (y ? v - y[i]! : v));
  const nz = d.filter((v) => v !== 0);
  const nZero = d.length - nz.length;
  const n = nz.length;
  if (n === 0) {
    return { n: 0, nZero, wPlus: 0, wMinus: 0, T: 0, ties: [], method: 'none', p: null, z: null };
  }
  const abs = nz.map(Math.abs);
  const r = midranks(abs);
  let wPlus = 0;
  nz.forEach((v, i) => {
    if (v > 0) wPlus += r[i]!;
  });
  const total = (n * (n + 1)) / 2;
  const wMinus = total - wPlus;
  const T = Math.min(wPlus, wMinus);
  const ties = tieSizes(abs);
  if (n <= exactMaxN && nZero === 0 && ties.length === 0) {
    const pmf = exactSignedRankPmf(n);
    let lo = 0;
    let hi = 0;
    for (let w = 0; w <= total; w++) {
      if (w <= wPlus) lo += pmf[w]!;
      if (w >= wPlus) hi += pmf[w]!;
    }
    return {
      n,
      nZero,
      wPlus,
      wMinus,
      T,
      ties,
      method: 'exact',
      p: Math.min(1, 2 * Math.min(lo, hi)),
      z: null,
    };
  }
  const tieTerm = ties.reduce((s, t) => s + t ** 3 - t, 0);
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  const z = (T - total / 2) / sigma;
  return {
    n,
    nZero,
    wPlus,
    wMinus,
    T,
    ties,
    method: 'normal',
    p: sigma === 0 ? 1 : pNormal2(z),
    z,
  };
}
