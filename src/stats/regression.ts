/**
 * What the two regressions share: the design type, the cluster-robust sandwich, Wald inference
 * and the result record. Conventions are statsmodels' (`fit(cov_type='cluster')`), cross-checked
 * against R sandwich::vcovCL in the reference vectors.
 */
import { StimkitError } from '../core/errors.js';
import { pNormal2, pStudent2, studentQuantile, zCrit } from './dist.js';
import { matMul } from './linalg.js';

/** A design matrix: `x` is row-major n × k, `names` one per column (e.g. `Intercept`, `lang[T.zh]`). */
export interface Design {
  x: Float64Array;
  n: number;
  k: number;
  names: string[];
}

/**
 * Small-sample factor c of the cluster-robust covariance V = c·B·M·B:
 * - `statsmodels` (default): c = G/(G−1)·(N−1)/(N−K) — statsmodels' default, R vcovCL(type='HC1');
 * - `G`: c = G/(G−1) — Stata `vce(cluster)` for logit, R vcovCL(type='HC0', cadjust=TRUE);
 * - `none`: c = 1.
 */
export type Correction = 'statsmodels' | 'G' | 'none';

/** Options shared by `logit` and `ols`. */
export interface FitOptions {
  /** cluster label per row; omit for model-based (non-robust) standard errors */
  cluster?: readonly (string | number)[];
  correction?: Correction;
  /** confidence level of the intervals (default 0.95) */
  conf?: number;
  /**
   * t instead of normal reference distribution for p and CI. Default: normal, as statsmodels
   * `fit(cov_type='cluster')` (use_t=False) and Logit always; t(N−K) for non-robust OLS. With
   * clusters, useT gives t(G−1) as statsmodels `use_t=True`.
   */
  useT?: boolean;
  /** Newton iterations at most (logit; default 100) */
  maxIter?: number;
  /** convergence: max |Δβ| ≤ tol·(1 + max |β|) (logit; default 1e-10) */
  tol?: number;
  /**
   * (logit) A converged fit in which a term moves the log-odds by more than 30 across its observed
   * range, the mark separation leaves on Newton's iterations: refused as separation (`refuse`, the
   * default), or kept (`keep`) when an exact check found none (analyze/separation.ts): a
   * continuous term with a long tail has such effects in a fit that exists.
   */
  largeEffects?: 'refuse' | 'keep';
}

/** One row of a coefficient table. */
export interface Term {
  term: string;
  estimate: number;
  se: number;
  /** z (or t) statistic */
  stat: number;
  p: number;
  ciLower: number;
  ciUpper: number;
  /** logit only: exp(estimate) and its CI exp(b ∓ crit·se) */
  oddsRatio?: number;
  orLower?: number;
  orUpper?: number;
}

/** A fitted logit or OLS model. */
export interface RegressionResult {
  model: 'logit' | 'ols';
  names: string[];
  coef: number[];
  se: number[];
  /** classical (model-based) standard errors, whatever `cluster` was */
  seNonrobust: number[];
  terms: Term[];
  /** covariance matrix used for `se` (row-major arrays) */
  vcov: number[][];
  nobs: number;
  k: number;
  nClusters: number | null;
  correction: Correction | null;
  /**
   * reference distribution used for p and CI; `profile`: Firth's profile penalised-likelihood
   * intervals and penalised likelihood-ratio p (src/stats/firth.ts)
   */
  inference: 'normal' | 't' | 'profile';
  /** `firth` for a penalised fit (absent: maximum likelihood) */
  method?: 'firth';
  df: number | null;
  conf: number;
  /** log-likelihood (Gaussian for OLS; penalised for Firth) */
  llf: number;
  iterations: number;
  /** OLS only */
  rSquared?: number;
}

/** Integer cluster ids 0..G−1 from labels, in order of first appearance. */
export function clusterIds(
  labels: readonly (string | number)[],
  n: number,
): { ids: Int32Array; g: number } {
  if (labels.length !== n) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_LENGTH',
      message: 'the cluster column must have one label per row',
      expected: `${n} labels`,
      got: String(labels.length),
      fix: 'pass the cluster column of the same table',
    });
  }
  const map = new Map<string | number, number>();
  const ids = new Int32Array(n);
  labels.forEach((l, i) => {
    let v = map.get(l);
    if (v === undefined) {
      v = map.size;
      map.set(l, v);
    }
    ids[i] = v;
  });
  return { ids, g: map.size };
}

/**
 * Refuse cluster-robust standard errors with fewer clusters than coefficients: M = Σ_g s_g s_gᵀ
 * has rank at most G − 1 when the model has an intercept (the scores sum to 0), so with G < K the
 * covariance is singular and some SEs can come out 0 with p underflowing ("SE 0.000,
 * p < 1e-300"). With G = K it is singular too, but only in combinations of coefficients; the
 * few-clusters warning of analyze covers it.
 */
function checkClusterCount(g: number, k: number): void {
  if (g >= k) return;
  throw StimkitError.fromProblem({
    code: 'E_STATS_FEW_CLUSTERS',
    message: `only ${g} clusters for ${k} coefficients: the cluster-robust covariance has rank at most ${g - 1}, below ${k}, so some standard errors and p values would be meaningless (an SE of 0, p < 1e-300)`,
    expected: `at least as many clusters as coefficients (${k})`,
    got: `${g} clusters`,
    fix: 'cluster by a column with more groups, or leave out --cluster for model-based standard errors; for ols and instrument (not logit), a wild cluster bootstrap also works with few clusters (--wild-bootstrap)',
  });
}

/**
 * Cluster-robust (sandwich) covariance V = c·B·M·B with B the inverse information ("bread"),
 * M = Σ_g s_g s_gᵀ and s_g = Σ_{i∈g} xᵢ·rᵢ (rᵢ = yᵢ − μᵢ, the score residual).
 */
function clusterVcov(
  d: Design,
  resid: Float64Array,
  bread: Float64Array,
  labels: readonly (string | number)[],
  correction: Correction,
): { vcov: Float64Array; g: number } {
  const { n, k, x } = d;
  const { ids, g } = clusterIds(labels, n);
  if (g < 2) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_CLUSTERS',
      message: 'cluster-robust standard errors need at least 2 clusters',
      expected: '≥ 2 distinct cluster labels',
      got: String(g),
      fix: 'cluster by a column with several values, or drop --cluster',
    });
  }
  checkClusterCount(g, k);
  const s = new Float64Array(g * k);
  for (let i = 0; i < n; i++) {
    const r = resid[i]!;
    const off = ids[i]! * k;
    for (let j = 0; j < k; j++) s[off + j] = s[off + j]! + x[i * k + j]! * r;
  }
  const M = new Float64Array(k * k);
  for (let c = 0; c < g; c++) {
    for (let a = 0; a < k; a++) {
      const sa = s[c * k + a]!;
      for (let b = 0; b < k; b++) M[a * k + b] = M[a * k + b]! + sa * s[c * k + b]!;
    }
  }
  const factor =
    correction === 'none'
      ? 1
      : correction === 'G'
        ? g / (g - 1)
        : ((g / (g - 1)) * (n - 1)) / (n - k);
  const V = matMul(matMul(bread, M, k), bread, k);
  for (let i = 0; i < V.length; i++) V[i] = V[i]! * factor;
  return { vcov: V, g };
}

/** Wald table from coefficients and a covariance matrix. */
function waldTerms(
  names: readonly string[],
  coef: Float64Array,
  vcov: Float64Array,
  inference: 'normal' | 't',
  df: number | null,
  conf: number,
  odds: boolean,
): Term[] {
  const k = names.length;
  const crit = inference === 't' ? studentQuantile(1 - (1 - conf) / 2, df!) : zCrit(conf);
  return names.map((term, j) => {
    const b = coef[j]!;
    const se = Math.sqrt(vcov[j * k + j]!);
    const stat = b / se;
    const p = inference === 't' ? pStudent2(stat, df!) : pNormal2(stat);
    const t: Term = {
      term,
      estimate: b,
      se,
      stat,
      p,
      ciLower: b - crit * se,
      ciUpper: b + crit * se,
    };
    if (odds) {
      t.oddsRatio = Math.exp(b);
      t.orLower = Math.exp(b - crit * se);
      t.orUpper = Math.exp(b + crit * se);
    }
    return t;
  });
}

/** Row-major Float64Array → nested arrays. */
export function toRows(m: Float64Array, k: number): number[][] {
  return Array.from({ length: k }, (_, i) => Array.from(m.subarray(i * k, i * k + k)));
}

/** Check that the outcome has one finite value per row. */
export function checkOutcome(y: readonly number[], n: number, binary: boolean): void {
  const bad = y.findIndex((v) => !Number.isFinite(v) || (binary && v !== 0 && v !== 1));
  if (y.length !== n || bad >= 0) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_OUTCOME',
      message: binary
        ? 'a logit outcome must be 0 or 1 on every row'
        : 'the outcome must be a finite number on every row',
      field: bad >= 0 ? `row ${bad + 1}` : undefined,
      expected: binary ? '0 or 1' : 'a number',
      got: bad >= 0 ? String(y[bad]) : `${y.length} values for ${n} rows`,
      fix: 'recode the outcome column',
    });
  }
}

/**
 * The inference part shared by `logit` and `ols`: the covariance (model-based, or cluster-robust
 * when `options.cluster` is given), the Wald terms and the result fields both fits report.
 * `defaultT` says whether an unclustered fit uses t by default (OLS) or the normal (logit).
 */
export function finishFit(
  model: 'logit' | 'ols',
  fit: {
    d: Design;
    names: readonly string[];
    beta: Float64Array;
    resid: Float64Array;
    bread: Float64Array;
    modelVcov: Float64Array;
    llf: number;
    iterations: number;
  },
  options: FitOptions,
  defaultT: boolean,
): RegressionResult {
  const { d, names, beta, resid, bread, modelVcov } = fit;
  const n = resid.length;
  const k = names.length;
  const seNonrobust = Array.from({ length: k }, (_, j) => Math.sqrt(modelVcov[j * k + j]!));
  const conf = options.conf ?? 0.95;
  let vcov: Float64Array = modelVcov;
  let nClusters: number | null = null;
  const correction = options.cluster ? (options.correction ?? 'statsmodels') : null;
  if (options.cluster) {
    const cv = clusterVcov(d, resid, bread, options.cluster, correction!);
    vcov = cv.vcov;
    nClusters = cv.g;
  }
  const inference =
    options.cluster || !defaultT
      ? options.useT
        ? 't'
        : 'normal'
      : options.useT === false
        ? 'normal'
        : 't';
  const df = inference === 't' ? (nClusters !== null ? nClusters - 1 : n - k) : null;
  const terms = waldTerms(names, beta, vcov, inference, df, conf, model === 'logit');
  return {
    model,
    names: [...names],
    coef: Array.from(beta),
    se: terms.map((t) => t.se),
    seNonrobust,
    terms,
    vcov: toRows(vcov, k),
    nobs: n,
    k,
    nClusters,
    correction,
    inference,
    df,
    conf,
    llf: fit.llf,
    iterations: fit.iterations,
  };
}
