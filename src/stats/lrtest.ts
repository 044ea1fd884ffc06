/** Likelihood-ratio test of nested models (e.g. with and without an added interaction). */
import { StimkitError } from '../core/errors.js';
import { chisqSf } from './dist.js';
import type { RegressionResult } from './regression.js';

/** Result of a likelihood-ratio test. */
export interface LrTestResult {
  /** 2·(llf_full − llf_reduced) */
  statistic: number;
  /** number of added parameters */
  df: number;
  /** P(χ²_df ≥ statistic) */
  p: number;
  llfReduced: number;
  llfFull: number;
  /** names of the terms in `full` that are not in `reduced` */
  added: string[];
}

/**
 * LR = 2(ℓ_full − ℓ_reduced) ~ χ²(K_full − K_reduced) when `reduced` is nested in `full` (every
 * reduced term also in full, same rows). Model-based, so it ignores clustering — as R `anova(...,
 * test='Chisq')` and statsmodels `compare_lr_test`.
 */
export function lrTest(reduced: RegressionResult, full: RegressionResult): LrTestResult {
  const missing = reduced.names.filter((t) => !full.names.includes(t));
  if (
    missing.length > 0 ||
    reduced.nobs !== full.nobs ||
    reduced.model !== full.model ||
    full.k <= reduced.k
  ) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_NOT_NESTED',
      message:
        'a likelihood-ratio test needs the reduced model nested in the full one, fitted to the same rows',
      expected: 'every reduced term in the full model, same nobs, more terms in the full model',
      got:
        missing.length > 0
          ? `terms only in the reduced model: ${missing.join(', ')}`
          : `nobs ${reduced.nobs} vs ${full.nobs}, K ${reduced.k} vs ${full.k}`,
      fix: 'fit both models on the same table, the full one with the added terms',
    });
  }
  const statistic = Math.max(0, 2 * (full.llf - reduced.llf));
  const df = full.k - reduced.k;
  return {
    statistic,
    df,
    p: chisqSf(statistic, df),
    llfReduced: reduced.llf,
    llfFull: full.llf,
    added: full.names.filter((t) => !reduced.names.includes(t)),
  };
}
