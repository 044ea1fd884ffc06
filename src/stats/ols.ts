/**
 * Ordinary least squares with model-based or cluster-robust standard errors (statsmodels
 * `OLS(...).fit(cov_type='cluster')`: same sandwich and small-sample factor as the logit, normal
 * reference distribution unless `useT`).
 */
import { StimkitError } from '../core/errors.js';
import { cholesky, cholInverse, cholSolve } from './linalg.js';
import {
  checkOutcome,
  finishFit,
  type Design,
  type FitOptions,
  type RegressionResult,
} from './regression.js';

/**
 * β = (XᵀX)⁻¹Xᵀy. Without `cluster`: V = σ̂²(XᵀX)⁻¹, σ̂² = RSS/(N−K), t(N−K) inference (as
 * statsmodels' default). With `cluster`: V = c·(XᵀX)⁻¹·M·(XᵀX)⁻¹, normal inference (t(G−1) with useT).
 * `llf` is the Gaussian log-likelihood −N/2·(log(2π·RSS/N) + 1), as statsmodels.
 */
export function ols(y: readonly number[], d: Design, options: FitOptions = {}): RegressionResult {
  const { n, k, x, names } = d;
  checkOutcome(y, n, false);
  if (n <= k)
    throw StimkitError.fromProblem({
      code: 'E_STATS_NO_DF',
      message: `${n} rows for ${k} coefficients: no residual degrees of freedom, so no standard errors`,
      expected: `more rows than coefficients (${k})`,
      got: `${n} rows`,
      fix: 'add rows, or drop predictors',
    });
  const XtX = new Float64Array(k * k);
  const Xty = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const o = i * k;
    const yi = y[i]!;
    for (let a = 0; a < k; a++) {
      const xa = x[o + a]!;
      if (xa === 0) continue;
      Xty[a] = Xty[a]! + xa * yi;
      for (let b = 0; b <= a; b++) XtX[a * k + b] = XtX[a * k + b]! + xa * x[o + b]!;
    }
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) XtX[b * k + a] = XtX[a * k + b]!;
  const L = cholesky(XtX, k, names, 'design matrix XᵀX');
  const beta = cholSolve(L, k, Xty);
  const bread = cholInverse(L, k);
  const resid = new Float64Array(n);
  let rss = 0;
  let ybar = 0;
  for (let i = 0; i < n; i++) ybar += y[i]!;
  ybar /= n;
  let tss = 0;
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let j = 0; j < k; j++) f += x[i * k + j]! * beta[j]!;
    const r = y[i]! - f;
    resid[i] = r;
    rss += r * r;
    tss += (y[i]! - ybar) ** 2;
  }
  checkFit(y, rss, tss);
  const sigma2 = rss / (n - k);
  const classical = bread.map((v) => v * sigma2);
  const llf = (-n / 2) * (Math.log((2 * Math.PI * rss) / n) + 1);
  return {
    ...finishFit(
      'ols',
      { d, names, beta, resid, bread, modelVcov: classical, llf, iterations: 1 },
      options,
      true,
    ),
    rSquared: 1 - rss / tss,
  };
}

/**
 * A fit OLS cannot give standard errors for: a constant outcome (nothing to explain), or
 * predictors that give the outcome exactly (no residual variance: every SE 0, every p 0).
 */
function checkFit(y: readonly number[], rss: number, tss: number): void {
  if (tss === 0)
    throw StimkitError.fromProblem({
      code: 'E_STATS_OUTCOME',
      message: 'the OLS outcome takes only one value: there is no variance to explain',
      expected: 'at least two values',
      got: `all ${y.length} rows = ${y[0]}`,
      fix: 'check the outcome column and any filter applied to the table',
    });
  if (rss <= tss * 1e-20)
    throw StimkitError.fromProblem({
      code: 'E_STATS_PERFECT_FIT',
      message:
        'the predictors give the outcome exactly (residual sum of squares 0): no residual variance, so no standard errors',
      expected: 'residuals that are not all 0',
      got: `residual sum of squares ${rss.toPrecision(3)} of a total ${tss.toPrecision(3)}`,
      fix: 'drop the predictor(s) the outcome is a function of',
    });
}
