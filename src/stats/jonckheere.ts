/**
 * Jonckheere–Terpstra test for an ordered alternative (groups given in the hypothesised
 * increasing order). Primary p: normal approximation with the ties-corrected variance (Hollander &
 * Wolfe; Lehmann), no continuity correction. Exact p (the rule of R clinfun::jonckheere.test) when
 * there are no ties and N ≤ 100.
 */
import { StimkitError } from '../core/errors.js';
import { phi, pNormal2 } from './dist.js';
import { convolve, mannWhitneyPmf, tails } from './exact.js';
import { tieSizes } from './ranks.js';

/** Result of a Jonckheere–Terpstra test. */
export interface JonckheereResult {
  J: number;
  n: number[];
  mean: number;
  /** ties-corrected variance */
  var: number;
  ties: number[];
  z: number;
  pTwoSidedNormal: number;
  /** one-sided p for an increasing trend, Φ(−z) */
  pIncreasingNormal: number;
  pIncreasingExact: number | null;
  pTwoSidedExact: number | null;
}

/**
 * J = Σ_{i<j} Σ_{a∈Gᵢ, b∈Gⱼ} ([a < b] + ½[a = b]); E[J] = (N² − Σnᵢ²)/4; variance as in the
 * definition of the reference vectors (reduces to (N²(2N+3) − Σnᵢ²(2nᵢ+3))/72 without ties).
 */
export function jonckheere(
  groups: readonly (readonly number[])[],
  options: { exactMaxN?: number } = {},
): JonckheereResult {
  const exactMaxN = options.exactMaxN ?? 100;
  if (groups.length < 2 || groups.some((g) => g.length === 0)) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_TOO_FEW',
      message: 'a Jonckheere–Terpstra test needs at least two non-empty groups',
      expected: '≥ 2 groups, each non-empty',
      got: groups.map((g) => g.length).join(', '),
      fix: 'check the ordering column',
    });
  }
  let J = 0;
  for (let i = 0; i < groups.length; i++) {
    for (let j = i + 1; j < groups.length; j++) {
      for (const a of groups[i]!) for (const b of groups[j]!) J += a < b ? 1 : a === b ? 0.5 : 0;
    }
  }
  const n = groups.map((g) => g.length);
  const N = n.reduce((s, v) => s + v, 0);
  const sumN2 = n.reduce((s, v) => s + v * v, 0);
  const mean = (N * N - sumN2) / 4;
  const ties = tieSizes(groups.flat());
  const s1 = n.reduce((s, v) => s + v * (v - 1) * (2 * v + 5), 0);
  const t1 = ties.reduce((s, t) => s + t * (t - 1) * (2 * t + 5), 0);
  const s2 = n.reduce((s, v) => s + v * (v - 1) * (v - 2), 0);
  const t2 = ties.reduce((s, t) => s + t * (t - 1) * (t - 2), 0);
  const s3 = n.reduce((s, v) => s + v * (v - 1), 0);
  const t3 = ties.reduce((s, t) => s + t * (t - 1), 0);
  const variance =
    (N * (N - 1) * (2 * N + 5) - s1 - t1) / 72 +
    (s2 * t2) / (36 * N * (N - 1) * (N - 2)) +
    (s3 * t3) / (8 * N * (N - 1));
  const z = (J - mean) / Math.sqrt(variance);
  let pIncreasingExact: number | null = null;
  let pTwoSidedExact: number | null = null;
  if (ties.length === 0 && N <= exactMaxN) {
    let pmf: Float64Array = Float64Array.of(1);
    let before = n[0]!;
    for (let i = 1; i < n.length; i++) {
      // pairs (a in earlier groups, b in group i) with a < b: U of group i against all earlier ones
      pmf = convolve(pmf, mannWhitneyPmf(n[i]!, before));
      before += n[i]!;
    }
    const t = tails(pmf, J);
    pIncreasingExact = t.ge;
    pTwoSidedExact = Math.min(1, 2 * Math.min(t.le, t.ge));
  }
  return {
    J,
    n,
    mean,
    var: variance,
    ties,
    z,
    pTwoSidedNormal: pNormal2(z),
    pIncreasingNormal: phi(-z),
    pIncreasingExact,
    pTwoSidedExact,
  };
}
