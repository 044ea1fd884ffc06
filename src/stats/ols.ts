/**
 * Ordinary least squares with model-based or cluster-robust standard errors (statsmodels
 * `OLS(...).fit(cov_type='cluster')`: same sandwich and small-sample factor as the logit, normal
 * reference distribution unless `useT`).
 */
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
