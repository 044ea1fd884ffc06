/**
 * Two-sided Mann–Whitney U test with scipy's `mannwhitneyu(method='auto')` rules: exact when the
 * smaller sample has at most 8 values and there are no ties, otherwise the normal approximation
 * with tie-corrected variance and a continuity correction of 0.5.
 */
import { StimkitError } from '../core/errors.js';
import { phi } from './dist.js';
import { mannWhitneyPmf, tails } from './exact.js';
import { midranks, tieSizes } from './ranks.js';

/** Result of a Mann–Whitney test; `U1` is the U of the first sample (scipy ≥ 1.7). */
export interface MannWhitneyResult {
  U1: number;
  U2: number;
  n1: number;
  n2: number;
  ties: number[];
  method: 'exact' | 'normal';
  p: number;
  z: number | null;
}

/** Options: the largest smaller-sample size for the exact method (scipy: 8). */
export interface MannWhitneyOptions {
  exactMaxSmall?: number;
}

/**
 * U1 = R1 − n1(n1+1)/2 from pooled mid-ranks. Exact: p = min(1, 2·P(U ≥ max(U1,U2))). Normal:
 * z = (max(U1,U2) − n1n2/2 − 0.5)/σ, σ² = n1n2/12·((N+1) − Σ(t³−t)/(N(N−1))), p = min(1, 2Φ(−z)).
 */
export function mannWhitney(
  x: readonly number[],
  y: readonly number[],
  options: MannWhitneyOptions = {},
): MannWhitneyResult {
  const exactMaxSmall = options.exactMaxSmall ?? 8;
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_TOO_FEW',
      message: 'a Mann–Whitney test needs two non-empty samples',
      expected: '≥ 1 value in each sample',
      got: `${n1} and ${n2}`,
      fix: 'check the grouping column',
    });
  }
  const pooled = [...x, ...y];
  const r = midranks(pooled);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += r[i]!;
  const U1 = r1 - (n1 * (n1 + 1)) / 2;
  const U2 = n1 * n2 - U1;
  const ties = tieSizes(pooled);
  const big = Math.max(U1, U2);
  if (Math.min(n1, n2) <= exactMaxSmall && ties.length === 0) {
    const pmf = mannWhitneyPmf(n1, n2);
    return {
      U1,
      U2,
      n1,
      n2,
      ties,
      method: 'exact',
      p: Math.min(1, 2 * tails(pmf, big).ge),
      z: null,
    };
  }
  const N = n1 + n2;
  const tieTerm = ties.reduce((s, t) => s + t ** 3 - t, 0);
  const sigma = Math.sqrt(((n1 * n2) / 12) * (N + 1 - tieTerm / (N * (N - 1))));
  const z = (big - (n1 * n2) / 2 - 0.5) / sigma;
  return {
    U1,
    U2,
    n1,
    n2,
    ties,
    method: 'normal',
    p: sigma === 0 ? 1 : Math.min(1, 2 * phi(-z)),
    z,
  };
}
