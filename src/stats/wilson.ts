/**
 * Wilson score interval for a binomial proportion, without continuity correction — the interval of
 * the audit paper's Tables A8 and A10, equal to statsmodels `proportion_confint(method='wilson')`
 * and R `prop.test(correct=FALSE)$conf.int`.
 */
import { StimkitError } from '../core/errors.js';
import { zCrit } from './dist.js';

/** A proportion with its Wilson interval. */
export interface WilsonInterval {
  /** successes */
  x: number;
  n: number;
  /** x / n */
  pHat: number;
  lower: number;
  upper: number;
  /** normal critical value used (1.959963984540054 for 95 %) */
  z: number;
  conf: number;
}

/**
 * Wilson score interval: centre = (p̂ + z²/2n)/(1 + z²/n), half = z/(1 + z²/n)·√(p̂(1−p̂)/n + z²/4n²).
 * The bounds are exactly 0 at x = 0 and exactly 1 at x = n.
 *
 * @example wilson(81, 263) // { pHat: 0.308, lower: 0.2553, upper: 0.3662, ... }
 */
export function wilson(x: number, n: number, conf = 0.95): WilsonInterval {
  if (!Number.isInteger(n) || n <= 0 || !Number.isInteger(x) || x < 0 || x > n) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_BAD_COUNT',
      message: 'a Wilson interval needs integer counts with 0 ≤ x ≤ n and n > 0',
      expected: '0 ≤ x ≤ n, n ≥ 1',
      got: `x=${x}, n=${n}`,
      fix: 'pass the number of successes and the number of trials',
    });
  }
  const z = zCrit(conf);
  const p = x / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const lower = x === 0 ? 0 : Math.max(0, centre - half);
  const upper = x === n ? 1 : Math.min(1, centre + half);
  return { x, n, pHat: p, lower, upper, z, conf };
}
