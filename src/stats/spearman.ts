/**
 * Spearman rank correlation with the t-approximation p-value (scipy `spearmanr`; R
 * `cor.test(method='spearman')` uses an exact/Edgeworth p for small untied samples instead).
 */
import { StimkitError } from '../core/errors.js';
import { pStudent2 } from './dist.js';
import { midranks } from './ranks.js';

/** Result of a Spearman correlation. */
export interface SpearmanResult {
  rho: number;
  t: number;
  p: number;
  n: number;
}

/** Pearson correlation of two equal-length vectors. */
function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const a = x[i]! - mx;
    const b = y[i]! - my;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** ρ = Pearson correlation of mid-ranks; t = ρ√((n−2)/(1−ρ²)); p = 2·P(T_{n−2} > |t|). */
export function spearman(x: readonly number[], y: readonly number[]): SpearmanResult {
  const n = x.length;
  if (n !== y.length || n < 3) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_TOO_FEW',
      message: 'a Spearman correlation needs two equal-length samples of at least 3 values',
      expected: '≥ 3 pairs',
      got: `${x.length} and ${y.length}`,
      fix: 'pass paired observations',
    });
  }
  const rho = pearson(midranks(x), midranks(y));
  const t = rho * Math.sqrt((n - 2) / (1 - rho * rho));
  const p = Math.abs(rho) >= 1 ? 0 : pStudent2(t, n - 2);
  return { rho, t, p, n };
}
