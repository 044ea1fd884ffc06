/** Mid-ranks and tie groups, shared by the rank tests (Wilcoxon, Mann–Whitney, Spearman). */

/** Mid-ranks (1-based; tied values share the mean of their ranks), in input order. */
export function midranks(values: readonly number[]): number[] {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]!] === values[order[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = r;
    i = j + 1;
  }
  return ranks;
}

/** Sizes of the groups of tied values (only groups of 2 or more), in ascending order of value. */
export function tieSizes(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[i]) j++;
    if (j > i) out.push(j - i + 1);
    i = j + 1;
  }
  return out;
}

/** Arithmetic mean. */
export function mean(x: readonly number[]): number {
  let s = 0;
  for (const v of x) s += v;
  return s / x.length;
}

/** Sample standard deviation (n − 1 denominator); NaN when n < 2. */
export function sd(x: readonly number[]): number {
  const n = x.length;
  if (n < 2) return Number.NaN;
  const m = mean(x);
  let s = 0;
  for (const v of x) s += (v - m) * (v - m);
  return Math.sqrt(s / (n - 1));
}
