/**
 * The core of Firth's penalised logistic regression (Firth 1993; Heinze & Schemper 2002): the
 * log-likelihood penalised by ½·log det I(β), I(β) = XᵀWX the Fisher information, maximised by
 * Newton steps on the modified score U*(β) = Xᵀ(y − π + h(½ − π)) (h the diagonal of the hat
 * matrix W^½X I⁻¹ XᵀW^½), with some coefficients optionally held at fixed values (the restricted
 * fits behind profile intervals and penalised likelihood-ratio tests). The step uses the
 * information of the pseudo-data augmented by h (weights (m + h)·π(1 − π)), as R's logistf does,
 * is capped at 5 per coefficient and halved while the penalised log-likelihood falls.
 *
 * Rows are collapsed into covariate patterns with a count `m` (logistf's `collapse = TRUE`), which
 * gives the same likelihood and makes categorical designs cheap whatever the number of rows.
 */
import { StimkitError } from '../core/errors.js';
import { cholesky, cholInverse, cholSolve } from './linalg.js';
import type { Design } from './regression.js';

/** Covariate patterns: `x` row-major p × k, `ones[i]` / `total[i]`: outcomes = 1 / rows of pattern i. */
export interface Patterns {
  x: Float64Array;
  p: number;
  k: number;
  names: string[];
  ones: Float64Array;
  total: Float64Array;
}

/** Collapse the rows of a design (and its 0/1 outcome) into distinct covariate patterns. */
export function collapse(d: Design, y: readonly number[]): Patterns {
  const { n, k, x } = d;
  const index = new Map<string, number>();
  const rows: number[] = [];
  const ones: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = Array.from(x.subarray(i * k, i * k + k)).join(',');
    let j = index.get(key);
    if (j === undefined) {
      j = rows.length;
      index.set(key, j);
      rows.push(i);
      ones.push(0);
      total.push(0);
    }
    ones[j] = ones[j]! + y[i]!;
    total[j] = total[j]! + 1;
  }
  const px = new Float64Array(rows.length * k);
  rows.forEach((i, j) => px.set(x.subarray(i * k, i * k + k), j * k));
  return {
    x: px,
    p: rows.length,
    k,
    names: [...d.names],
    ones: Float64Array.from(ones),
    total: Float64Array.from(total),
  };
}

/** Everything evaluated at one β. */
interface State {
  /** penalised log-likelihood ℓ(β) + ½·log det I(β) */
  pll: number;
  /** unpenalised log-likelihood */
  llf: number;
  /** modified score U*(β) */
  score: Float64Array;
  /** information of the augmented pseudo-data, Σ x xᵀ (m + h)·π(1 − π) */
  augmented: Float64Array;
  /** (XᵀWX)⁻¹ */
  inverse: Float64Array;
}

function logistic(eta: number): number {
  return 1 / (1 + Math.exp(-eta));
}

/** Evaluate the penalised likelihood, modified score and both informations at β. */
function evaluate(P: Patterns, beta: Float64Array): State {
  const { x, p, k } = P;
  const pi = new Float64Array(p);
  const info = new Float64Array(k * k);
  let llf = 0;
  for (let i = 0; i < p; i++) {
    let eta = 0;
    for (let j = 0; j < k; j++) eta += x[i * k + j]! * beta[j]!;
    const m = logistic(eta);
    pi[i] = m;
    const ones = P.ones[i]!;
    const zeros = P.total[i]! - ones;
    // log π and log(1 − π) from η directly: no log(0) while π rounds to 0 or 1
    if (ones > 0) llf -= ones * Math.log1p(Math.exp(-eta));
    if (zeros > 0) llf -= zeros * Math.log1p(Math.exp(eta));
    const w = P.total[i]! * m * (1 - m);
    for (let a = 0; a < k; a++) {
      const wa = w * x[i * k + a]!;
      for (let b = 0; b <= a; b++) info[a * k + b] = info[a * k + b]! + wa * x[i * k + b]!;
    }
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) info[b * k + a] = info[a * k + b]!;
  const L = cholesky(info, k, P.names, 'Fisher information XᵀWX');
  let logdet = 0;
  for (let j = 0; j < k; j++) logdet += 2 * Math.log(L[j * k + j]!);
  const inverse = cholInverse(L, k);
  const score = new Float64Array(k);
  const augmented = new Float64Array(k * k);
  for (let i = 0; i < p; i++) {
    const m = pi[i]!;
    let q = 0; // xᵢᵀ I⁻¹ xᵢ
    for (let a = 0; a < k; a++) {
      let s = 0;
      for (let b = 0; b < k; b++) s += inverse[a * k + b]! * x[i * k + b]!;
      q += x[i * k + a]! * s;
    }
    const h = P.total[i]! * m * (1 - m) * q;
    const r = P.ones[i]! - P.total[i]! * m + h * (0.5 - m);
    const wa = (P.total[i]! + h) * m * (1 - m);
    for (let a = 0; a < k; a++) {
      const xa = x[i * k + a]!;
      score[a] = score[a]! + xa * r;
      for (let b = 0; b <= a; b++)
        augmented[a * k + b] = augmented[a * k + b]! + wa * xa * x[i * k + b]!;
    }
  }
  for (let a = 0; a < k; a++)
    for (let b = 0; b < a; b++) augmented[b * k + a] = augmented[a * k + b]!;
  return { pll: llf + 0.5 * logdet, llf, score, augmented, inverse };
}

/** Options of a penalised fit. */
export interface PenalisedOptions {
  /** coefficient index → value it is held at (the others are fitted) */
  fixed?: ReadonlyMap<number, number>;
  /** starting values (default 0; fixed coefficients are set to their values) */
  start?: Float64Array;
  /** Newton iterations at most (default 200) */
  maxIter?: number;
  /** converged when max |Δβ| ≤ tol·(1 + max |β|) (default 1e-11) */
  tol?: number;
}

/** A penalised fit. */
export interface PenalisedFit {
  beta: Float64Array;
  /** penalised log-likelihood at beta */
  pll: number;
  /** unpenalised log-likelihood at beta */
  llf: number;
  /** (XᵀWX)⁻¹ at beta: the covariance Heinze & Schemper report */
  inverse: Float64Array;
  iterations: number;
}

/** Largest step per coefficient (logistf's maxstep). */
const MAX_STEP = 5;
/** Step halvings at most per iteration. */
const MAX_HALVINGS = 40;

/** Maximise the penalised log-likelihood over the coefficients that are not `fixed`. */
export function fitPenalised(P: Patterns, options: PenalisedOptions = {}): PenalisedFit {
  const { k } = P;
  const fixed = options.fixed ?? new Map<number, number>();
  const free = Array.from({ length: k }, (_, j) => j).filter((j) => !fixed.has(j));
  const beta = options.start ? Float64Array.from(options.start) : new Float64Array(k);
  for (const [j, v] of fixed) beta[j] = v;
  const maxIter = options.maxIter ?? 200;
  const tol = options.tol ?? 1e-11;
  let state = evaluate(P, beta);
  let iterations = 0;
  const f = free.length;
  const freeNames = free.map((j) => P.names[j]!);
  while (f > 0 && iterations < maxIter) {
    const A = new Float64Array(f * f);
    const g = new Float64Array(f);
    free.forEach((a, i) => {
      g[i] = state.score[a]!;
      free.forEach((b, j) => (A[i * f + j] = state.augmented[a * k + b]!));
    });
    const delta = cholSolve(cholesky(A, f, freeNames, 'augmented information'), f, g);
    let big = 0;
    for (let i = 0; i < f; i++) big = Math.max(big, Math.abs(delta[i]!));
    const scale = big > MAX_STEP ? MAX_STEP / big : 1;
    let next: State | null = null;
    let trial = new Float64Array(beta);
    let factor = scale;
    for (let h = 0; h <= MAX_HALVINGS; h++, factor /= 2) {
      trial = Float64Array.from(beta);
      free.forEach((a, i) => (trial[a] = beta[a]! + factor * delta[i]!));
      try {
        next = evaluate(P, trial);
      } catch {
        next = null; // a step into numerically 0/1 probabilities: halve it
        continue;
      }
      if (next.pll >= state.pll - 1e-12 * Math.abs(state.pll)) break;
    }
    iterations++;
    if (next === null) break;
    let maxBeta = 0;
    let maxStep = 0;
    for (const a of free) {
      maxStep = Math.max(maxStep, Math.abs(trial[a]! - beta[a]!));
      maxBeta = Math.max(maxBeta, Math.abs(trial[a]!));
    }
    beta.set(trial);
    state = next;
    if (maxStep <= tol * (1 + maxBeta)) break;
  }
  let maxScore = 0;
  for (const a of free) maxScore = Math.max(maxScore, Math.abs(state.score[a]!));
  if (maxScore > 1e-6 * (1 + Math.abs(state.pll))) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_FIRTH_CONVERGENCE',
      message: `Firth's penalised likelihood did not converge after ${iterations} iterations`,
      expected: 'a modified score of 0',
      got: `largest |U*| = ${maxScore.toPrecision(3)}`,
      fix: 'check the design for a term that is nearly constant or collinear with others',
    });
  }
  return { beta, pll: state.pll, llf: state.llf, inverse: state.inverse, iterations };
}
