/**
 * Student t tests, as scipy `ttest_1samp`, `ttest_rel` and `ttest_ind(equal_var=False)` and R
 * `t.test` (two-sided; confidence interval from the t quantile).
 */
import { StimkitError } from '../core/errors.js';
import { pStudent2, studentQuantile } from './dist.js';
import { mean, sd } from './ranks.js';

/** Result of a one-sample or paired t test. */
export interface OneSampleTResult {
  n: number;
  /** mean of x (of the differences for a paired test) */
  mean: number;
  sd: number;
  /** standard error sd/√n */
  se: number;
  t: number;
  df: number;
  /** two-sided p */
  p: number;
  /** confidence interval for the mean (default 95 %) */
  ci: [number, number];
  /** Cohen's d (dz for paired data): (mean − mu0)/sd */
  d: number;
  mu0: number;
}

function needN(n: number, min: number, what: string): void {
  if (n < min) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_TOO_FEW',
      message: `${what} needs at least ${min} values`,
      expected: `≥ ${min} values`,
      got: String(n),
      fix: 'collect more observations or drop this test',
    });
  }
}

/**
 * One-sample t test of H0: mean = mu0. t = (x̄ − mu0)/(s/√n), df = n − 1, two-sided p,
 * CI x̄ ± t_{1−α/2, n−1}·s/√n.
 */
export function oneSampleT(x: readonly number[], mu0 = 0, conf = 0.95): OneSampleTResult {
  const n = x.length;
  needN(n, 2, 'a one-sample t test');
  const m = mean(x);
  const s = sd(x);
  const se = s / Math.sqrt(n);
  const df = n - 1;
  const t = (m - mu0) / se;
  const q = studentQuantile(1 - (1 - conf) / 2, df);
  return {
    n,
    mean: m,
    sd: s,
    se,
    t,
    df,
    p: se === 0 ? (m === mu0 ? 1 : 0) : pStudent2(t, df),
    ci: [m - q * se, m + q * se],
    d: (m - mu0) / s,
    mu0,
  };
}

/**
 * Paired t test of x − y (the one-sample test of the differences); `d` is Cohen's dz = mean(d)/sd(d).
 */
export function pairedT(x: readonly number[], y: readonly number[], conf = 0.95): OneSampleTResult {
  if (x.length !== y.length) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_LENGTH',
      message: 'a paired test needs two samples of the same length',
      expected: `${x.length} pairs`,
      got: `${y.length}`,
      fix: 'pair each x with exactly one y',
    });
  }
  return oneSampleT(
    x.map((v, i) => v - y[i]!),
    0,
    conf,
  );
}

/** Result of Welch's two-sample t test. */
export interface WelchTResult {
  n1: number;
  n2: number;
  mean1: number;
  mean2: number;
  /** mean1 − mean2 */
  meanDiff: number;
  se: number;
  t: number;
  /** Welch–Satterthwaite degrees of freedom */
  df: number;
  p: number;
  ci: [number, number];
}

/**
 * Welch's unequal-variance t test: t = (x̄ − ȳ)/√(s₁²/n₁ + s₂²/n₂), Welch–Satterthwaite df
 * (v₁ + v₂)²/(v₁²/(n₁−1) + v₂²/(n₂−1)) with vᵢ = sᵢ²/nᵢ.
 */
export function welchT(x: readonly number[], y: readonly number[], conf = 0.95): WelchTResult {
  needN(x.length, 2, "Welch's t test (first sample)");
  needN(y.length, 2, "Welch's t test (second sample)");
  const n1 = x.length;
  const n2 = y.length;
  const m1 = mean(x);
  const m2 = mean(y);
  const v1 = sd(x) ** 2 / n1;
  const v2 = sd(y) ** 2 / n2;
  const se = Math.sqrt(v1 + v2);
  const df = (v1 + v2) ** 2 / (v1 ** 2 / (n1 - 1) + v2 ** 2 / (n2 - 1));
  const t = (m1 - m2) / se;
  const q = studentQuantile(1 - (1 - conf) / 2, df);
  const d = m1 - m2;
  // both samples constant: no df; as the one-sample test, p = 0 for different means (scipy: t = ±∞, p = 0), 1 for equal ones
  if (se === 0)
    return { n1, n2, mean1: m1, mean2: m2, meanDiff: d, se, t, df, p: d === 0 ? 1 : 0, ci: [d, d] };
  return {
    n1,
    n2,
    mean1: m1,
    mean2: m2,
    meanDiff: d,
    se,
    t,
    df,
    p: pStudent2(t, df),
    ci: [d - q * se, d + q * se],
  };
}
