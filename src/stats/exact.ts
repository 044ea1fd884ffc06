/**
 * Exact null distributions for rank statistics with no ties (hand-written: the @stdlib
 * distribution packages do not include them). Probabilities are built by a stable recursion, so
 * large counts never overflow.
 */

/**
 * Null distribution of the Mann–Whitney U (number of pairs with the first-sample value larger)
 * for sample sizes m and n, as probabilities indexed by u = 0..mn. Recursion on the largest
 * observation: P(m,n,u) = m/(m+n)·P(m−1,n,u−n) + n/(m+n)·P(m,n−1,u).
 */
export function mannWhitneyPmf(m: number, n: number): Float64Array {
  // prev[j] = P(i-1, j, ·); cur[j] = P(i, j, ·)
  let prev: Float64Array[] = Array.from({ length: n + 1 }, () => Float64Array.of(1));
  for (let i = 1; i <= m; i++) {
    const cur: Float64Array[] = [Float64Array.of(1)];
    for (let j = 1; j <= n; j++) {
      const out = new Float64Array(i * j + 1);
      const a = prev[j]!; // P(i-1, j): shift by j
      const b = cur[j - 1]!; // P(i, j-1)
      const wa = i / (i + j);
      const wb = j / (i + j);
      for (let u = 0; u < a.length; u++) out[u + j] = out[u + j]! + wa * a[u]!;
      for (let u = 0; u < b.length; u++) out[u] = out[u]! + wb * b[u]!;
      cur.push(out);
    }
    prev = cur;
  }
  return prev[n]!;
}

/** Convolution of two probability vectors. */
export function convolve(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i]!;
    if (ai === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j] = out[i + j]! + ai * b[j]!;
  }
  return out;
}

/** P(X ≤ k) and P(X ≥ k) for an integer-supported pmf (k may be fractional: compared as numbers). */
export function tails(pmf: Float64Array, k: number): { le: number; ge: number } {
  let le = 0;
  let ge = 0;
  for (let u = 0; u < pmf.length; u++) {
    if (u <= k + 1e-9) le += pmf[u]!;
    if (u >= k - 1e-9) ge += pmf[u]!;
  }
  return { le: Math.min(1, le), ge: Math.min(1, ge) };
}
