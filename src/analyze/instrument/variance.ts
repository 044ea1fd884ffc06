/**
 * Variance partition of the stance (Methods 4.6, Supplementary Table S2): percent of the total
 * sum of squares for origin, language, framing and topic and their two-way interactions, as
 * sequential (type I) sums of squares in that order — equal to statsmodels `anova_lm(typ=1)` and
 * R `anova(lm(...))`, and order-free when the design is balanced — at the response level and on
 * the cell means; plus the systematic share 1 − mean within-cell variance / total variance.
 *
 * Every term is a function of the cell, so the response-level fits are done on the cell means
 * weighted by the cell sizes: RSS(responses) = within-cell SS + Σ n_c (ȳ_c − ŷ_c)², which is
 * exact and ~60 times faster on 19,712 responses than fitting the responses themselves.
 */
import { StimkitError } from '../../core/errors.js';
import { buildDesign, mean, type DesignSpec } from '../../stats/index.js';
import { cholesky, cholSolve } from '../../stats/linalg.js';
import type { CellSummary } from './cells.js';

/** The factors of the partition, in entry order. */
const FACTORS = ['origin', 'lang', 'framing', 'topic'] as const;
type Factor = (typeof FACTORS)[number];

/** One effect's share. */
interface VarianceTerm {
  /** e.g. `origin`, `lang:topic` */
  term: string;
  df: number;
  ss: number | null;
  percent: number | null;
  /** why the term was left out (a factor with one level, or a term not estimable) */
  note?: string;
}

/** A partition of one outcome. */
interface Partition {
  n: number;
  totalSS: number;
  terms: VarianceTerm[];
  residualSS: number;
  residualPercent: number;
}

/** Both partitions and the systematic share. */
export interface VariancePartition {
  responseLevel: Partition;
  cellMeans: Partition;
  /** sample variance (n − 1) of all response stances */
  totalVariance: number;
  /** mean over cells (n ≥ 2) of the within-cell sample variance */
  meanWithinCellVariance: number;
  /** 1 − meanWithinCellVariance / totalVariance */
  systematicShare: number;
}

type Row = Record<Factor, string>;

/** Weighted residual sum of squares Σ w (y − Xβ̂)² of the least-squares fit. */
function weightedRss(
  rows: readonly Row[],
  y: readonly number[],
  w: readonly number[],
  spec: DesignSpec,
): { rss: number; k: number } {
  const d = buildDesign(rows, spec);
  const { n, k, x } = d;
  const A = new Float64Array(k * k);
  const b = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const wi = w[i]!;
    for (let a = 0; a < k; a++) {
      const xa = x[i * k + a]! * wi;
      if (xa === 0) continue;
      b[a] = b[a]! + xa * y[i]!;
      for (let c = 0; c <= a; c++) A[a * k + c] = A[a * k + c]! + xa * x[i * k + c]!;
    }
  }
  for (let a = 0; a < k; a++) for (let c = 0; c < a; c++) A[c * k + a] = A[a * k + c]!;
  const beta = cholSolve(cholesky(A, k, d.names, 'design matrix'), k, b);
  let rss = 0;
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let j = 0; j < k; j++) f += x[i * k + j]! * beta[j]!;
    rss += w[i]! * (y[i]! - f) ** 2;
  }
  return { rss, k };
}

/**
 * Sequential SS of cell-level terms for an outcome summarised per cell: `y` the cell means, `w` the
 * cell sizes, `withinSS` the pooled within-cell sum of squares, `totalSS` of the underlying data.
 */
function partition(
  rows: readonly Row[],
  y: readonly number[],
  w: readonly number[],
  withinSS: number,
  totalSS: number,
): Partition {
  const n = w.reduce((s, v) => s + v, 0);
  const levels = (f: Factor) => new Set(rows.map((r) => r[f])).size;
  const effects: (Factor | [Factor, Factor])[] = [...FACTORS];
  for (let i = 0; i < FACTORS.length; i++)
    for (let j = i + 1; j < FACTORS.length; j++) effects.push([FACTORS[i]!, FACTORS[j]!]);
  let predictors: Factor[] = [];
  let interactions: [Factor, Factor][] = [];
  let rss = totalSS;
  let kPrev = 1;
  // rss includes withinSS throughout; the intercept-only fit gives exactly totalSS
  const terms: VarianceTerm[] = [];
  for (const e of effects) {
    const name = typeof e === 'string' ? e : `${e[0]}:${e[1]}`;
    const fs = typeof e === 'string' ? [e] : e;
    if (fs.some((f) => levels(f) < 2)) {
      terms.push({
        term: name,
        df: 0,
        ss: null,
        percent: null,
        note: 'a factor has a single level',
      });
      continue;
    }
    const nextP = typeof e === 'string' ? [...predictors, e] : predictors;
    const nextI = typeof e === 'string' ? interactions : [...interactions, e];
    try {
      const fit = weightedRss(rows, y, w, { predictors: nextP, interactions: nextI });
      const newRss = withinSS + fit.rss;
      terms.push({
        term: name,
        df: fit.k - kPrev,
        ss: rss - newRss,
        percent: totalSS > 0 ? ((rss - newRss) / totalSS) * 100 : null,
      });
      rss = newRss;
      kPrev = fit.k;
      predictors = nextP;
      interactions = nextI;
    } catch (err) {
      if (!(err instanceof StimkitError) || err.code !== 'E_STATS_SINGULAR') throw err;
      terms.push({
        term: name,
        df: 0,
        ss: null,
        percent: null,
        note: `not estimable: ${err.problems[0]?.got ?? err.message}`,
      });
    }
  }
  return {
    n,
    totalSS,
    terms,
    residualSS: rss,
    residualPercent: totalSS > 0 ? (rss / totalSS) * 100 : 0,
  };
}

/** Variance partition from the cells (each cell carries its response stances). */
export function variancePartition(cells: readonly CellSummary[]): VariancePartition {
  const cellRows: Row[] = cells.map((c) => ({
    origin: c.origin,
    lang: c.lang,
    framing: c.framing,
    topic: c.topic,
  }));
  const all = cells.flatMap((c) => c.stances);
  const ybar = mean(all);
  const totalSS = all.reduce((s, v) => s + (v - ybar) ** 2, 0);
  const withinSS = cells.reduce(
    (s, c) => s + c.stances.reduce((t, v) => t + (v - c.mean) ** 2, 0),
    0,
  );
  const means = cells.map((c) => c.mean);
  const mbar = mean(means);
  const cellSS = means.reduce((s, v) => s + (v - mbar) ** 2, 0);
  const within = cells.filter((c) => c.sd !== null).map((c) => c.sd! ** 2);
  const totalVariance = totalSS / (all.length - 1);
  const meanWithinCellVariance = within.length > 0 ? mean(within) : Number.NaN;
  return {
    responseLevel: partition(
      cellRows,
      means,
      cells.map((c) => c.n),
      withinSS,
      totalSS,
    ),
    cellMeans: partition(
      cellRows,
      means,
      cells.map(() => 1),
      0,
      cellSS,
    ),
    totalVariance,
    meanWithinCellVariance,
    systematicShare: 1 - meanWithinCellVariance / totalVariance,
  };
}
