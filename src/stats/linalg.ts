/**
 * The small amount of dense linear algebra the regressions need: a Cholesky factorisation of a
 * K × K symmetric positive-definite matrix (K = number of terms, tens at most) that names the
 * first term found to be a linear combination of the earlier ones, plus solve and inverse.
 * Hand-written because a general library (ml-matrix) reports only "not positive definite", not
 * which term made the design singular. Matrices are row-major Float64Arrays.
 */
import { StimkitError } from '../core/errors.js';

/** Relative pivot below which a term counts as collinear with the earlier terms. */
const SINGULAR_TOL = 1e-10;

/**
 * Lower-triangular L with A = L·Lᵀ. Throws `E_STATS_SINGULAR` naming `names[j]` when column j's
 * pivot is ≤ SINGULAR_TOL × A_jj (or A_jj = 0): term j is (numerically) a linear combination of
 * terms 0..j−1, or constant zero.
 */
export function cholesky(
  A: Float64Array,
  k: number,
  names: readonly string[],
  what = 'design',
): Float64Array {
  const L = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    let d = A[j * k + j]!;
    for (let p = 0; p < j; p++) d -= L[j * k + p]! ** 2;
    const orig = A[j * k + j]!;
    if (!(orig > 0) || !(d > SINGULAR_TOL * orig)) {
      const term = names[j] ?? `column ${j + 1}`;
      throw StimkitError.fromProblem({
        code: 'E_STATS_SINGULAR',
        message: `the ${what} is singular: term "${term}" is ${orig > 0 ? 'a linear combination of the terms before it' : 'zero for every row'}`,
        field: term,
        expected: 'linearly independent terms',
        got:
          orig > 0
            ? `"${term}" collinear with ${
                names
                  .slice(0, j)
                  .map((s) => `"${s}"`)
                  .join(', ') || 'the intercept'
              }`
            : 'a column of zeros',
        fix: `drop "${term}" (or a term it duplicates), or merge the levels that make it redundant`,
      });
    }
    const ljj = Math.sqrt(d);
    L[j * k + j] = ljj;
    for (let i = j + 1; i < k; i++) {
      let s = A[i * k + j]!;
      for (let p = 0; p < j; p++) s -= L[i * k + p]! * L[j * k + p]!;
      L[i * k + j] = s / ljj;
    }
  }
  return L;
}

/** Solve (L·Lᵀ) x = b. */
export function cholSolve(L: Float64Array, k: number, b: Float64Array): Float64Array {
  const y = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let s = b[i]!;
    for (let p = 0; p < i; p++) s -= L[i * k + p]! * y[p]!;
    y[i] = s / L[i * k + i]!;
  }
  const x = new Float64Array(k);
  for (let i = k - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let p = i + 1; p < k; p++) s -= L[p * k + i]! * x[p]!;
    x[i] = s / L[i * k + i]!;
  }
  return x;
}

/** (L·Lᵀ)⁻¹ as a row-major K × K matrix. */
export function cholInverse(L: Float64Array, k: number): Float64Array {
  const inv = new Float64Array(k * k);
  const e = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    e.fill(0);
    e[c] = 1;
    const col = cholSolve(L, k, e);
    for (let r = 0; r < k; r++) inv[r * k + c] = col[r]!;
  }
  return inv;
}

/** C = A·B for K × K matrices. */
export function matMul(A: Float64Array, B: Float64Array, k: number): Float64Array {
  const C = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let p = 0; p < k; p++) {
      const a = A[i * k + p]!;
      if (a === 0) continue;
      for (let j = 0; j < k; j++) C[i * k + j] = C[i * k + j]! + a * B[p * k + j]!;
    }
  }
  return C;
}
