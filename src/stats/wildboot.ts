/**
 * The wild cluster bootstrap-t for one OLS coefficient with the null imposed (WCR; Cameron,
 * Gelbach & Miller 2008), as Stata's `boottest` and R's fwildclusterboot run it by default: the
 * model is refitted under H₀: βⱼ = r, its residuals ũ are multiplied by one weight v_g per
 * cluster (Rademacher ±1, or Webb's six values ±√½, ±1, ±√(3/2)), and the cluster-robust t of
 * every bootstrap sample is compared with the original: p = share of |t*| > |t| (boottest's
 * symmetric p), a tie |t*| = |t| (to 1e-10) counting one half. Ties come from the weight vectors
 * ±(1, …, 1), which reproduce ±t exactly: counted strictly they make p depend on rounding (boottest's
 * published 19/256 below is 18 exceedances plus one of the two ties); one half each is that value
 * without the rounding. With 2^G (Rademacher) or 6^G (Webb) at most `reps`, every weight vector is used
 * once (full enumeration, deterministic); otherwise `reps` vectors are drawn from a counter-based
 * stream (SHA-256 of seed and draw number), so the same seed gives the same p.
 *
 * Each draw costs O(G²): with A = (XᵀX)⁻¹, ρ = eⱼᵀA and c_g = X_gᵀũ_g, the numerator is
 * Σ_g v_g ρc_g and cluster h's score of the bootstrap residuals, projected on ρ, is
 * v_h ρc_h − Σ_g v_g ρ X_hᵀX_h A c_g. The small-sample factor of the cluster-robust variance
 * cancels in p; t is reported with the `statsmodels` factor G/(G−1)·(N−1)/(N−K).
 *
 * The confidence interval inverts the test: the set of r whose p exceeds 1 − conf, its ends found
 * by bisection to 1e-9 (relative) of the step function p(r).
 */
import { StimkitError } from '../core/errors.js';
import { cholesky, cholInverse } from './linalg.js';
import { clusterIds, type Design } from './regression.js';
import { weightVectors, type WildWeights } from './wild-weights.js';

export type { WildWeights } from './wild-weights.js';

/** Options of `wildClusterBootstrap`. */
export interface WildOptions {
  /** index of the tested coefficient */
  term: number;
  /** value under the null (default 0) */
  r?: number;
  weights?: WildWeights;
  /** bootstrap samples (default 9999); fewer when full enumeration needs fewer */
  reps?: number;
  seed?: number;
  /** confidence level of the test-inversion interval; null for none (default 0.95) */
  conf?: number | null;
}

/** The bootstrap test of one coefficient. */
export interface WildResult {
  term: string;
  r: number;
  estimate: number;
  /** cluster-robust t of the original fit, (b − r)/SE; null when that SE is 0 (see `note`) */
  t: number | null;
  /** symmetric bootstrap p: share of |t*| > |t|, ties one half; null with `t` */
  p: number | null;
  weights: WildWeights;
  /** bootstrap samples used */
  draws: number;
  enumerated: boolean;
  clusters: number;
  /** the resolution of p: 1/draws (under enumeration the smallest p the weights can give) */
  smallestP: number;
  ci: [number, number] | null;
  conf: number | null;
  /** why there is no test or no interval, when there is none */
  note: string | null;
}

/** A cluster-robust variance below this share of the model-based one counts as 0. */
const DEGENERATE = 1e-10;

/** |t*| within this relative distance of |t| is a tie. */
const TIE = 1e-10;

/** Everything that does not depend on r. */
interface Prepared {
  d: Design;
  y: readonly number[];
  ids: Int32Array;
  g: number;
  A: Float64Array;
  /** XᵀX restricted to each cluster, g × k × k */
  xtxG: Float64Array;
  factor: number;
}

function prepare(y: readonly number[], d: Design, cluster: readonly (string | number)[]): Prepared {
  const { n, k, x } = d;
  const { ids, g } = clusterIds(cluster, n);
  const xtxG = new Float64Array(g * k * k);
  const xtx = new Float64Array(k * k);
  for (let i = 0; i < n; i++) {
    const o = ids[i]! * k * k;
    for (let a = 0; a < k; a++)
      for (let b = 0; b < k; b++) {
        const v = x[i * k + a]! * x[i * k + b]!;
        xtxG[o + a * k + b] = xtxG[o + a * k + b]! + v;
        xtx[a * k + b] = xtx[a * k + b]! + v;
      }
  }
  const A = cholInverse(cholesky(xtx, k, d.names, 'design matrix XᵀX'), k);
  const factor = ((g / (g - 1)) * (n - 1)) / (n - k);
  return { d, y, ids, g, A, xtxG, factor };
}

/** OLS coefficients of `target` on the design (A·Xᵀ·target). */
function coefficients(P: Prepared, target: Float64Array): Float64Array {
  const { n, k, x } = P.d;
  const xty = new Float64Array(k);
  for (let i = 0; i < n; i++)
    for (let a = 0; a < k; a++) xty[a] = xty[a]! + x[i * k + a]! * target[i]!;
  const beta = new Float64Array(k);
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) beta[a] = beta[a]! + P.A[a * k + b]! * xty[b]!;
  return beta;
}

/** ρ·(per-cluster score) of residuals u: α_g = ρ X_gᵀu_g, and Γ_hg = ρ X_hᵀX_h A X_gᵀu_g. */
function projections(
  P: Prepared,
  j: number,
  u: Float64Array,
): { alpha: Float64Array; gamma: Float64Array } {
  const { n, k, x } = P.d;
  const { g, A, ids } = P;
  const c = new Float64Array(g * k);
  for (let i = 0; i < n; i++)
    for (let a = 0; a < k; a++) c[ids[i]! * k + a] = c[ids[i]! * k + a]! + x[i * k + a]! * u[i]!;
  const rho = A.subarray(j * k, j * k + k);
  const alpha = new Float64Array(g);
  const Ac = new Float64Array(g * k); // A c_g
  for (let h = 0; h < g; h++)
    for (let a = 0; a < k; a++) {
      alpha[h] = alpha[h]! + rho[a]! * c[h * k + a]!;
      let s = 0;
      for (let b = 0; b < k; b++) s += A[a * k + b]! * c[h * k + b]!;
      Ac[h * k + a] = s;
    }
  const gamma = new Float64Array(g * g);
  for (let h = 0; h < g; h++) {
    // ρ X_hᵀX_h, a row vector
    const row = new Float64Array(k);
    for (let a = 0; a < k; a++)
      for (let b = 0; b < k; b++) row[b] = row[b]! + rho[a]! * P.xtxG[h * k * k + a * k + b]!;
    for (let gg = 0; gg < g; gg++) {
      let s = 0;
      for (let b = 0; b < k; b++) s += row[b]! * Ac[gg * k + b]!;
      gamma[h * g + gg] = s;
    }
  }
  return { alpha, gamma };
}

/** The cluster-robust t of coefficient j at r, and the bootstrap p over `vs`. */
function testAt(
  P: Prepared,
  j: number,
  r: number,
  vs: readonly Float64Array[],
): { t: number; p: number; b: number; degenerate: boolean } {
  const { n, k, x } = P.d;
  const y = Float64Array.from(P.y);
  const full = coefficients(P, y);
  const uFull = new Float64Array(n);
  let rss = 0;
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let a = 0; a < k; a++) f += x[i * k + a]! * full[a]!;
    uFull[i] = y[i]! - f;
    rss += uFull[i]! ** 2;
  }
  const orig = projections(P, j, uFull);
  let ss = 0;
  for (let h = 0; h < P.g; h++) ss += orig.alpha[h]! ** 2; // Σ_h (ρ X_hᵀû_h)²: residuals are already orthogonal
  const t = (full[j]! - r) / Math.sqrt(P.factor * ss);
  // a cluster-robust variance of (numerically) 0: the coefficient is fitted exactly by the clusters
  const classical = (rss / Math.max(1, n - k)) * P.A[j * k + j]!;
  const degenerate = !(ss * P.factor > DEGENERATE * classical);
  // restricted fit: regress y − r·x_j on the other columns
  const others = Array.from({ length: k }, (_, a) => a).filter((a) => a !== j);
  const ko = others.length;
  const xo = new Float64Array(n * ko);
  for (let i = 0; i < n; i++) others.forEach((a, m) => (xo[i * ko + m] = x[i * k + a]!));
  const xtx = new Float64Array(ko * ko);
  const xty = new Float64Array(ko);
  for (let i = 0; i < n; i++) {
    const yi = y[i]! - r * x[i * k + j]!;
    for (let a = 0; a < ko; a++) {
      xty[a] = xty[a]! + xo[i * ko + a]! * yi;
      for (let b = 0; b < ko; b++)
        xtx[a * ko + b] = xtx[a * ko + b]! + xo[i * ko + a]! * xo[i * ko + b]!;
    }
  }
  const inv =
    ko > 0
      ? cholInverse(
          cholesky(
            xtx,
            ko,
            others.map((a) => P.d.names[a]!),
          ),
          ko,
        )
      : new Float64Array(0);
  const u = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let f = r * x[i * k + j]!;
    for (let a = 0; a < ko; a++) {
      let s = 0;
      for (let b = 0; b < ko; b++) s += inv[a * ko + b]! * xty[b]!;
      f += xo[i * ko + a]! * s;
    }
    u[i] = y[i]! - f;
  }
  const { alpha, gamma } = projections(P, j, u);
  const g = P.g;
  let exceed = 0;
  const z = new Float64Array(g);
  for (const v of vs) {
    let num = 0;
    for (let h = 0; h < g; h++) num += v[h]! * alpha[h]!;
    let s2 = 0;
    for (let h = 0; h < g; h++) {
      let zh = v[h]! * alpha[h]!;
      for (let gg = 0; gg < g; gg++) zh -= gamma[h * g + gg]! * v[gg]!;
      z[h] = zh;
      s2 += zh * zh;
    }
    const excess = Math.abs(num / Math.sqrt(P.factor * s2)) - Math.abs(t);
    // a tie (the weights ±(1, …, 1), which give back ±t) counts one half, whatever the rounding
    if (excess > TIE * Math.abs(t)) exceed++;
    else if (excess >= -TIE * Math.abs(t)) exceed += 0.5;
  }
  return { t, p: exceed / vs.length, b: full[j]!, degenerate };
}

/** One end of the test-inversion interval: the r where p(r) falls to alpha, beyond `from`. */
function bound(
  P: Prepared,
  j: number,
  vs: readonly Float64Array[],
  alpha: number,
  from: number,
  step: number,
): number {
  let inside = from;
  let outside = from + step;
  for (let m = 0; testAt(P, j, outside, vs).p > alpha; m++) {
    if (m > 60) return step > 0 ? Infinity : -Infinity;
    inside = outside;
    outside = from + step * 2 ** (m + 1);
  }
  while (Math.abs(outside - inside) > 1e-9 * (1 + Math.abs(inside))) {
    const mid = (inside + outside) / 2;
    if (testAt(P, j, mid, vs).p > alpha) inside = mid;
    else outside = mid;
  }
  return (inside + outside) / 2;
}

/**
 * Wild cluster bootstrap-t test of H₀: β_term = r in an OLS fit, with its confidence interval.
 *
 * @example wildClusterBootstrap(y, design, years, { term: 3, r: 0.04 }) // { t: 2.0194, p: 0.0742, … }
 */
export function wildClusterBootstrap(
  y: readonly number[],
  d: Design,
  cluster: readonly (string | number)[],
  options: WildOptions,
): WildResult {
  const j = options.term;
  const r = options.r ?? 0;
  const kind = options.weights ?? 'rademacher';
  const P = prepare(y, d, cluster);
  if (P.g < 2) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_CLUSTERS',
      message: 'the wild cluster bootstrap needs at least 2 clusters',
      expected: '≥ 2 distinct cluster labels',
      got: String(P.g),
      fix: 'cluster by a column with several values',
    });
  }
  const vs = weightVectors(kind, P.g, options.reps ?? 9999, options.seed ?? 1);
  const enumerated = (kind === 'rademacher' ? 2 : 6) ** P.g <= (options.reps ?? 9999);
  const { t, p, b, degenerate } = testAt(P, j, r, vs);
  const conf = options.conf === undefined ? 0.95 : options.conf;
  const smallestP = 1 / vs.length;
  const base = {
    term: d.names[j]!,
    r,
    estimate: b,
    weights: kind,
    draws: vs.length,
    enumerated,
    clusters: P.g,
    smallestP,
    conf,
  };
  if (degenerate)
    return {
      ...base,
      t: null,
      p: null,
      ci: null,
      note: `no test: the cluster-robust variance of ${d.names[j]} is 0 (it is fitted exactly by the ${P.g} clusters, e.g. a property of whole clusters with no more clusters than its levels)`,
    };
  let ci: [number, number] | null = null;
  let note: string | null = null;
  if (conf !== null && smallestP >= 1 - conf)
    note = `no ${Math.round(conf * 100)}% interval: with ${P.g} clusters the smallest attainable p is ${smallestP.toPrecision(3)}, so no value can be rejected at ${(1 - conf).toPrecision(2)}`;
  else if (conf !== null) {
    const se = Math.abs((b - r) / t) || Math.abs(b) || 1;
    ci = [bound(P, j, vs, 1 - conf, b, -se), bound(P, j, vs, 1 - conf, b, se)];
  }
  return {
    ...base,
    t,
    p,
    ci,
    note,
  };
}
