/**
 * Distribution functions used by the tests, all from maintained @stdlib packages (pinned in
 * package.json). Upper tails are computed from the lower tail of the mirrored argument so that
 * small p-values keep their relative precision (no `1 - cdf` cancellation).
 */
import { lazyRequire as lazy } from '../core/lazy.js';

// Each @stdlib package loads a few dozen modules (~20-60 ms apiece at start-up), so each is
// required on first use: a logit needs only the normal, not the t, χ² or binomial.
type Fn = (...args: number[]) => number;
const binomialCdf = lazy<Fn>('@stdlib/stats-base-dists-binomial-cdf');
const binomialPmf = lazy<Fn>('@stdlib/stats-base-dists-binomial-pmf');
const chisquareCdf = lazy<Fn>('@stdlib/stats-base-dists-chisquare-cdf');
const normalCdf = lazy<Fn>('@stdlib/stats-base-dists-normal-cdf');
const normalQuantile = lazy<Fn>('@stdlib/stats-base-dists-normal-quantile');
const tCdf = lazy<Fn>('@stdlib/stats-base-dists-t-cdf');
const tQuantile = lazy<Fn>('@stdlib/stats-base-dists-t-quantile');

/** Standard normal CDF Φ(x). */
export function phi(x: number): number {
  return normalCdf()(x, 0, 1);
}

/** Standard normal quantile Φ⁻¹(p). */
function phiInv(p: number): number {
  return normalQuantile()(p, 0, 1);
}

/** Two-sided normal p-value 2·Φ(−|z|). */
export function pNormal2(z: number): number {
  return Math.min(1, 2 * phi(-Math.abs(z)));
}

/** Student t quantile. */
export function studentQuantile(p: number, df: number): number {
  return tQuantile()(p, df);
}

/** Two-sided t p-value 2·P(T_df ≤ −|t|). */
export function pStudent2(t: number, df: number): number {
  return Math.min(1, 2 * tCdf()(-Math.abs(t), df));
}

/**
 * Upper tail P(χ²_df ≥ x). For df = 1 it is computed as 2·Φ(−√x), which keeps full relative
 * precision for tiny p; otherwise 1 − F(x).
 */
export function chisqSf(x: number, df: number): number {
  if (df === 1) return pNormal2(Math.sqrt(x));
  return Math.max(0, 1 - chisquareCdf()(x, df));
}

/** The quantile of χ² with one degree of freedom: Φ⁻¹((1 + p)/2)² (e.g. 0.95 → 3.841458820694124). */
export function chisq1Quantile(p: number): number {
  return phiInv((1 + p) / 2) ** 2;
}

/** Binomial CDF P(X ≤ k), X ~ Bin(n, p). */
export function binomCdf(k: number, n: number, p: number): number {
  return binomialCdf()(k, n, p);
}

/** Binomial PMF P(X = k), X ~ Bin(n, p). */
export function binomPmf(k: number, n: number, p: number): number {
  return binomialPmf()(k, n, p);
}

/** Two-sided critical value of the standard normal for a confidence level (0.95 → 1.959963984540054). */
export function zCrit(conf: number): number {
  return phiInv(1 - (1 - conf) / 2);
}
