/**
 * McNemar's test for paired binary outcomes from the 2×2 table [[a, b], [c, d]]: exact binomial,
 * mid-p, and χ² with and without Edwards' continuity correction (the b = c rule is R
 * `mcnemar.test`'s: statistic 0; statsmodels returns 1/(b+c) there).
 */
import { StimkitError } from '../core/errors.js';
import { binomCdf, binomPmf, chisqSf } from './dist.js';

/** Result of McNemar's test; χ² fields are null when b + c = 0. */
export interface McNemarResult {
  b: number;
  c: number;
  pExact: number;
  pMidp: number;
  chi2: number | null;
  pChi2: number | null;
  chi2Cc: number | null;
  pChi2Cc: number | null;
}

/**
 * exact: p = min(1, 2·P(X ≤ min(b,c))), X ~ Bin(b+c, ½) (p = 1 when b + c = 0);
 * mid-p: min(1, 2·P(X ≤ k) − P(X = k)); χ² = (b−c)²/(b+c); χ²cc = (|b−c|−1)²/(b+c) (0 if b = c); df 1.
 */
export function mcnemar(table: readonly (readonly number[])[]): McNemarResult {
  const b = table[0]?.[1];
  const c = table[1]?.[0];
  if (
    b === undefined ||
    c === undefined ||
    !Number.isInteger(b) ||
    !Number.isInteger(c) ||
    b < 0 ||
    c < 0
  ) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_BAD_TABLE',
      message: "McNemar's test needs a 2×2 table of non-negative integer counts",
      expected: '[[a, b], [c, d]]',
      got: JSON.stringify(table),
      fix: 'pass the paired 2×2 table',
    });
  }
  const m = b + c;
  if (m === 0)
    return { b, c, pExact: 1, pMidp: 1, chi2: null, pChi2: null, chi2Cc: null, pChi2Cc: null };
  const k = Math.min(b, c);
  const pExact = Math.min(1, 2 * binomCdf(k, m, 0.5));
  const pMidp = Math.min(1, 2 * binomCdf(k, m, 0.5) - binomPmf(k, m, 0.5));
  const chi2 = (b - c) ** 2 / m;
  const chi2Cc = b === c ? 0 : (Math.abs(b - c) - 1) ** 2 / m;
  return {
    b,
    c,
    pExact,
    pMidp,
    chi2,
    pChi2: chisqSf(chi2, 1),
    chi2Cc,
    pChi2Cc: chisqSf(chi2Cc, 1),
  };
}
