/**
 * Variance partition of the stance (Methods 4.6, Supplementary Table S2): percent of the total
 * sum of squares for origin, language, framing and topic and their two-way interactions, as
 * sequential (type I) sums of squares in that order — equal to statsmodels `anova_lm(typ=1)` and
 * R `anova(lm(...))`, and order-free when the design is balanced — at the response level and on
 * the cell means; plus the systematic share 1 − mean within-cell variance / total variance.
 */
import { buildDesign, mean, ols } from '../../stats/index.js';
import { StimkitError } from '../../core/errors.js';
import type { CellSummary } from './cells.js';

/** The factors of the partition, in entry order. */
export const FACTORS = ['origin', 'lang', 'framing', 'topic'] as const;
type Factor = (typeof FACTORS)[number];

/** One effect's share. */
export interface VarianceTerm {
  /** e.g. `origin`, `lang:topic` */
  term: string;
  df: number;
  ss: number | null;
  percent: number | null;
  /** why the term was left out (a factor with one level, or a term not estimable) */
  note?: string;
}

/** A partition of one outcome. */
export interface Partition {
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

function partition(rows: readonly Row[], y: readonly number[]): Partition {
  const n = y.length;
  const ybar = mean(y);
  const totalSS = y.reduce((s, v) => s + (v - ybar) ** 2, 0);
  const levels = (f: Factor) => new Set(rows.map((r) => r[f])).size;
  const effects: (Factor | [Factor, Factor])[] = [...FACTORS];
  for (let i = 0; i < FACTORS.length; i++) for (let j = i + 1; j < FACTORS.length; j++) effects.push([FACTORS[i]!, FACTORS[j]!]);
  let predictors: Factor[] = [];
  let interactions: [Factor, Factor][] = [];
  let rss = totalSS;
  let kPrev = 1;
  const terms: VarianceTerm[] = [];
  for (const e of effects) {
    const name = typeof e === 'string' ? e : `${e[0]}:${e[1]}`;
    const fs = typeof e === 'string' ? [e] : e;
    if (fs.some((f) => levels(f) < 2)) {
      terms.push({ term: name, df: 0, ss: null, percent: null, note: 'a factor has a single level' });
      continue;
    }
    const nextP = typeof e === 'string' ? [...predictors, e] : predictors;
    const nextI = typeof e === 'string' ? interactions : [...interactions, e];
    try {
      const d = buildDesign(rows, { predictors: nextP, interactions: nextI });
      const newRss = (1 - ols(y, d).rSquared!) * totalSS;
      terms.push({ term: name, df: d.k - kPrev, ss: rss - newRss, percent: totalSS > 0 ? ((rss - newRss) / totalSS) * 100 : null });
      rss = newRss;
      kPrev = d.k;
      predictors = nextP;
      interactions = nextI;
    } catch (err) {
      if (!(err instanceof StimkitError) || err.code !== 'E_STATS_SINGULAR') throw err;
      terms.push({ term: name, df: 0, ss: null, percent: null, note: `not estimable: ${err.problems[0]?.got ?? err.message}` });
    }
  }
  return { n, totalSS, terms, residualSS: rss, residualPercent: totalSS > 0 ? (rss / totalSS) * 100 : 0 };
}

/** Variance partition from the cells (each cell carries its response stances). */
export function variancePartition(cells: readonly CellSummary[]): VariancePartition {
  const rows: Row[] = [];
  const y: number[] = [];
  for (const c of cells) {
    for (const s of c.stances) {
      rows.push({ origin: c.origin, lang: c.lang, framing: c.framing, topic: c.topic });
      y.push(s);
    }
  }
  const cellRows = cells.map((c) => ({ origin: c.origin, lang: c.lang, framing: c.framing, topic: c.topic }));
  const ybar = mean(y);
  const totalVariance = y.reduce((s, v) => s + (v - ybar) ** 2, 0) / (y.length - 1);
  const within = cells.filter((c) => c.sd !== null).map((c) => c.sd! ** 2);
  const meanWithinCellVariance = within.length > 0 ? mean(within) : Number.NaN;
  return {
    responseLevel: partition(rows, y),
    cellMeans: partition(cellRows, cells.map((c) => c.mean)),
    totalVariance,
    meanWithinCellVariance,
    systematicShare: 1 - meanWithinCellVariance / totalVariance,
  };
}
