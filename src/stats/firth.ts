/**
 * Firth's penalised logistic regression with profile penalised-likelihood confidence intervals and
 * penalised likelihood-ratio tests, as R's logistf (Heinze & Schemper 2002). The estimates exist
 * under complete and quasi-complete separation, where maximum likelihood does not.
 *
 * - estimates: the maximum of ℓ*(β) = ℓ(β) + ½·log det I(β) (src/stats/firth-fit.ts);
 * - `se`: √diag I(β̂)⁻¹ (Heinze & Schemper's covariance; used for nothing else);
 * - interval for βⱼ: every b with 2·(ℓ*(β̂) − max ℓ*(β | βⱼ = b)) ≤ χ²₁(conf), the penalty always
 *   that of the full model (logistf's `logistpl`), bounds found by bracketing and Brent's method
 *   to 1e-9 (relative);
 * - p for βⱼ: P(χ²₁ ≥ 2·(ℓ*(β̂) − max ℓ*(β | βⱼ = 0))) (logistf's `prob`);
 * - `lr`: the same test of every coefficient but the intercept at once (logistf's `logistftest`).
 */
import { StimkitError } from '../core/errors.js';
import { chisq1Quantile, chisqSf } from './dist.js';
import { collapse, fitPenalised, type Patterns, type PenalisedFit } from './firth-fit.js';
import {
  checkOutcome,
  toRows,
  type Design,
  type RegressionResult,
  type Term,
} from './regression.js';

/** Options of `firth`. */
export interface FirthOptions {
  /** confidence level of the profile intervals (default 0.95) */
  conf?: number;
}

/** A Firth fit: a `RegressionResult` whose terms carry profile intervals and penalised LR tests. */
export interface FirthResult extends RegressionResult {
  method: 'firth';
  /** penalised log-likelihood of the model with every coefficient but the intercept held at 0 */
  llfNull: number | null;
  /** penalised likelihood-ratio test of all coefficients but the intercept */
  lr: { statistic: number; df: number; p: number } | null;
}

/** Brent's root finder on [a, b] with f(a)·f(b) ≤ 0, to |b − a| ≤ tol. */
function brent(
  f: (x: number) => number,
  a: number,
  b: number,
  fa: number,
  fb: number,
  tol: number,
): number {
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let i = 0; i < 200; i++) {
    if (Math.sign(fb) === Math.sign(fc)) {
      c = a;
      fc = fa;
      d = e = b - a;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      [a, b, c] = [b, c, b];
      [fa, fb, fc] = [fb, fc, fb];
    }
    const m = (c - b) / 2;
    const t = 2 * Number.EPSILON * Math.abs(b) + tol / 2;
    if (Math.abs(m) <= t || fb === 0) return b;
    if (Math.abs(e) >= t && Math.abs(fa) > Math.abs(fb)) {
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const r = fb / fc;
        const u = fa / fc;
        p = s * (2 * m * u * (u - r) - (b - a) * (r - 1));
        q = (u - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * m * q - Math.abs(t * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > t ? d : m > 0 ? t : -t;
    fb = f(b);
  }
  return b;
}

/** The profile bound of coefficient j on one side (`dir` = −1 lower, +1 upper). */
function profileBound(
  P: Patterns,
  full: PenalisedFit,
  j: number,
  dir: 1 | -1,
  target: number,
  se: number,
): number {
  const b0 = full.beta[j]!;
  let start = full.beta;
  const g = (v: number): number => {
    const fit = fitPenalised(P, { fixed: new Map([[j, v]]), start });
    start = fit.beta; // warm start for the next, nearby value
    return fit.pll - target;
  };
  let width = Math.max(se, 1e-3);
  let inner = b0;
  let gInner = full.pll - target;
  for (let m = 0; m < 60; m++) {
    const outer = b0 + dir * width;
    const gOuter = g(outer);
    if (gOuter <= 0) {
      const tol = 1e-10 * (1 + Math.abs(outer));
      return brent(g, inner, outer, gInner, gOuter, tol);
    }
    inner = outer;
    gInner = gOuter;
    width *= 2;
  }
  return dir * Infinity;
}

/**
 * Fit Firth's logistic regression of a 0/1 outcome on a design.
 *
 * @example firth(y, buildDesign(rows, { predictors: ['age', 'oc'] })).terms // estimate, profile CI, PLR p
 */
export function firth(y: readonly number[], d: Design, options: FirthOptions = {}): FirthResult {
  checkOutcome(y, d.n, true);
  const conf = options.conf ?? 0.95;
  const P = collapse(d, y);
  const k = d.k;
  const full = fitPenalised(P);
  const se = Array.from({ length: k }, (_, j) => Math.sqrt(full.inverse[j * k + j]!));
  const target = full.pll - chisq1Quantile(conf) / 2;
  const terms: Term[] = d.names.map((term, j) => {
    const zero = fitPenalised(P, { fixed: new Map([[j, 0]]), start: full.beta });
    const stat = Math.max(0, 2 * (full.pll - zero.pll));
    const lower = profileBound(P, full, j, -1, target, se[j]!);
    const upper = profileBound(P, full, j, 1, target, se[j]!);
    const b = full.beta[j]!;
    return {
      term,
      estimate: b,
      se: se[j]!,
      stat,
      p: chisqSf(stat, 1),
      ciLower: lower,
      ciUpper: upper,
      oddsRatio: Math.exp(b),
      orLower: Math.exp(lower),
      orUpper: Math.exp(upper),
    };
  });
  const intercept = d.names.indexOf('Intercept');
  let llfNull: number | null = null;
  let lr: FirthResult['lr'] = null;
  if (intercept >= 0 && k > 1) {
    const fixed = new Map(d.names.map((_, j) => [j, 0] as [number, number]));
    fixed.delete(intercept);
    const nul = fitPenalised(P, { fixed });
    llfNull = nul.pll;
    const statistic = Math.max(0, 2 * (full.pll - nul.pll));
    lr = { statistic, df: k - 1, p: chisqSf(statistic, k - 1) };
  }
  return {
    model: 'logit',
    method: 'firth',
    names: [...d.names],
    coef: Array.from(full.beta),
    se,
    seNonrobust: se,
    terms,
    vcov: toRows(full.inverse, k),
    nobs: d.n,
    k,
    nClusters: null,
    correction: null,
    inference: 'profile',
    df: null,
    conf,
    llf: full.pll,
    iterations: full.iterations,
    llfNull,
    lr,
  };
}

/**
 * Penalised likelihood-ratio test that coefficients hold given values (e.g. an interaction's at
 * 0): the other coefficients refitted under the full model's penalty (logistf's `logistftest`).
 * `fixed` maps a coefficient index to its value under the null.
 */
export function firthTest(
  y: readonly number[],
  d: Design,
  fullPll: number,
  fixed: ReadonlyMap<number, number>,
): { statistic: number; df: number; p: number; llfReduced: number; coefReduced: number[] } {
  if (fixed.size === 0)
    throw StimkitError.fromProblem({
      code: 'E_STATS_NOT_NESTED',
      message: 'a penalised likelihood-ratio test needs at least one coefficient to test',
      fix: 'name the terms to test',
    });
  const reduced = fitPenalised(collapse(d, y), { fixed });
  const statistic = Math.max(0, 2 * (fullPll - reduced.pll));
  return {
    statistic,
    df: fixed.size,
    p: chisqSf(statistic, fixed.size),
    llfReduced: reduced.pll,
    coefReduced: Array.from(reduced.beta),
  };
}
