/**
 * Logistic regression by iteratively reweighted least squares (Newton–Raphson on the canonical
 * link), with model-based or cluster-robust standard errors and odds ratios with Wald CIs
 * (normal, as statsmodels `Logit(...).fit(cov_type='cluster')`). Complete or quasi-complete
 * separation is an error naming the offending term, never a NaN or a huge coefficient.
 */
import { StimkitError } from '../core/errors.js';
import { cholesky, cholInverse, cholSolve } from './linalg.js';
import {
  checkOutcome,
  finishFit,
  type Design,
  type FitOptions,
  type RegressionResult,
} from './regression.js';

/** A term whose coefficient times its observed range exceeds this many log-odds units signals separation. */
const SEPARATION_LOGODDS = 30;

function separationError(term: string, detail: string): StimkitError {
  return StimkitError.fromProblem({
    code: 'E_STATS_SEPARATION',
    message: `the outcome is perfectly separated by term "${term}": the maximum-likelihood estimate does not exist`,
    field: term,
    expected:
      'both outcomes on each side of every term (for a 0/1 term: among the rows where it is 1 and among those where it is 0)',
    got: detail,
    fix: `rerun with --firth (Firth's penalised likelihood; not with --cluster), or drop or merge the level behind "${term}"`,
  });
}

/** Quasi-complete separation by a 0/1 column: one of its two row sets has a constant outcome. */
function checkDummySeparation(d: Design, y: readonly number[]): void {
  const { n, k, x, names } = d;
  for (let j = 0; j < k; j++) {
    let binary = true;
    const count = [
      [0, 0],
      [0, 0],
    ];
    for (let i = 0; i < n && binary; i++) {
      const v = x[i * k + j]!;
      if (v !== 0 && v !== 1) binary = false;
      else count[v]![y[i]!]! += 1;
    }
    if (!binary) continue;
    const [c0, c1] = count as [number[], number[]];
    if (c0[0]! + c0[1]! === 0) continue; // constant 1 (the intercept)
    for (const [side, c] of [
      [1, c1],
      [0, c0],
    ] as const) {
      const tot = c[0]! + c[1]!;
      if (tot > 0 && (c[0] === 0 || c[1] === 0)) {
        throw separationError(
          names[j]!,
          `all ${tot} rows with ${names[j]} = ${side} have outcome ${c[0] === 0 ? 1 : 0}`,
        );
      }
    }
  }
}

/**
 * One Newton pass: μ = logistic(Xβ) into `mu`, the score g = Xᵀ(y − μ) and the information
 * H = XᵀWX (W = μ(1 − μ)) into `g` and `H`. A plain top-level function over typed arrays, so V8
 * optimises the loop (it runs n × k² per iteration and dominates the fit).
 */
function accumulate(
  x: Float64Array,
  n: number,
  k: number,
  beta: Float64Array,
  y: Float64Array,
  mu: Float64Array,
  H: Float64Array,
  g: Float64Array,
): void {
  H.fill(0);
  g.fill(0);
  for (let i = 0; i < n; i++) {
    const o = i * k;
    let eta = 0;
    for (let j = 0; j < k; j++) eta += x[o + j]! * beta[j]!;
    const m = 1 / (1 + Math.exp(-eta));
    mu[i] = m;
    const w = m * (1 - m);
    const r = y[i]! - m;
    for (let a = 0; a < k; a++) {
      const xa = x[o + a]!;
      if (xa === 0) continue;
      g[a] = g[a]! + xa * r;
      const wa = w * xa;
      const row = a * k;
      for (let b = 0; b <= a; b++) H[row + b] = H[row + b]! + wa * x[o + b]!;
    }
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) H[b * k + a] = H[a * k + b]!;
}

/**
 * Fit P(y = 1) = 1/(1 + e^(−Xβ)) by IRLS from β = 0. Converged when max |Δβ| ≤ tol·(1 + max |β|).
 * Standard errors: (XᵀWX)⁻¹ without `cluster`, else the sandwich of `clusterVcov`.
 *
 * @example logit(y, design, { cluster: rows.map((r) => r.model) }).terms // term, estimate, se, OR…
 */
export function logit(y: readonly number[], d: Design, options: FitOptions = {}): RegressionResult {
  const { n, k, x, names } = d;
  checkOutcome(y, n, true);
  checkBothValues(y, n);
  checkDummySeparation(d, y);
  const maxIter = options.maxIter ?? 100;
  const tol = options.tol ?? 1e-10;
  const beta = new Float64Array(k);
  const mu = new Float64Array(n);
  const H = new Float64Array(k * k);
  const g = new Float64Array(k);
  let L: Float64Array = new Float64Array(0);
  let iterations = 0;
  let converged = false;
  const yy = Float64Array.from(y);
  const update = (): void => {
    accumulate(x, n, k, beta, yy, mu, H, g);
    L = cholesky(H, k, names, 'information matrix XᵀWX');
  };
  // effect of a term across its observed range on the log-odds scale (scale-free, unlike |β|)
  const range = termRanges(x, n, k);
  const effect = (j: number): number => Math.abs(beta[j]!) * range[j]!;
  const largestTerm = (): number => largestEffect(effect, range);
  const updateOrSeparation = (): void => {
    try {
      update();
    } catch (err) {
      // At β = 0 every weight is ¼, so XᵀWX ∝ XᵀX: singular there means a singular design. Later,
      // weights collapsing to 0 mean fitted probabilities of exactly 0 or 1: separation.
      if (iterations === 0 || (err as StimkitError).code !== 'E_STATS_SINGULAR') throw err;
      const w = largestTerm();
      throw separationError(
        names[w]!,
        `fitted probabilities reached 0 or 1 after ${iterations} iterations; coefficient of ${names[w]} = ${beta[w]!.toPrecision(4)}`,
      );
    }
  };
  while (iterations < maxIter) {
    updateOrSeparation();
    const step = cholSolve(L, k, g);
    let maxStep = 0;
    let maxBeta = 0;
    for (let j = 0; j < k; j++) {
      beta[j] = beta[j]! + step[j]!;
      maxStep = Math.max(maxStep, Math.abs(step[j]!));
      maxBeta = Math.max(maxBeta, Math.abs(beta[j]!));
    }
    iterations++;
    if (maxStep <= tol * (1 + maxBeta)) {
      converged = true;
      break;
    }
  }
  updateOrSeparation(); // information and μ at the final β
  const worst = largestTerm();
  if (!converged || (options.largeEffects !== 'keep' && effect(worst) > SEPARATION_LOGODDS)) {
    const why = converged
      ? `its effect across the observed range is ${effect(worst).toPrecision(4)} on the log-odds scale (odds ratio beyond e^${SEPARATION_LOGODDS})`
      : `no convergence after ${iterations} iterations`;
    throw separationError(
      names[worst]!,
      `${why}; coefficient of ${names[worst]} = ${beta[worst]!.toPrecision(4)}`,
    );
  }
  const bread = cholInverse(L, k);
  const { llf, resid } = logLikelihood(y, mu);
  return finishFit(
    'logit',
    { d, names, beta, resid, bread, modelVcov: bread, llf, iterations },
    options,
    false,
  );
}

/** A logit outcome must take both values 0 and 1. */
function checkBothValues(y: readonly number[], n: number): void {
  const ones = y.reduce((s, v) => s + v, 0);
  if (ones === 0 || ones === n) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_OUTCOME',
      message: 'the logit outcome takes only one value',
      expected: 'both 0 and 1',
      got: `all ${n} rows = ${ones === 0 ? 0 : 1}`,
      fix: 'check the outcome column and any filter applied to the table',
    });
  }
}

/** Each column's observed range (max − min) of the row-major n × k design `x`. */
function termRanges(x: Float64Array, n: number, k: number): Float64Array {
  const range = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = x[i * k + j]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    range[j] = hi - lo;
  }
  return range;
}

/** The term of largest `effect` among those that vary (the first term when none does). */
function largestEffect(effect: (j: number) => number, range: Float64Array): number {
  let worst = -1;
  for (let j = 0; j < range.length; j++)
    if (range[j]! > 0 && (worst < 0 || effect(j) > effect(worst))) worst = j;
  return worst < 0 ? 0 : worst;
}

/** The log-likelihood of `y` under fitted probabilities `mu`, and the residuals y − μ. */
function logLikelihood(
  y: readonly number[],
  mu: Float64Array,
): { llf: number; resid: Float64Array } {
  let llf = 0;
  const resid = new Float64Array(mu.length);
  for (let i = 0; i < mu.length; i++) {
    const m = mu[i]!;
    llf += y[i] === 1 ? Math.log(m) : Math.log1p(-m);
    resid[i] = y[i]! - m;
  }
  return { llf, resid };
}
