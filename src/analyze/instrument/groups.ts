/**
 * Model-level origin comparisons (Welch t and Mann–Whitney on per-model net bias, as the paper's
 * primary origin inference), abstention rates per model × topic with Wilson intervals, and the
 * response-level OLS of stance with cluster-robust SEs clustered by model and by cell.
 */
import { StimkitError } from '../../core/errors.js';
import {
  buildDesign,
  mannWhitney,
  ols,
  welchT,
  wildClusterBootstrap,
  wilson,
  type Design,
  type Term,
  type WildResult,
} from '../../stats/index.js';
import { FEW_CLUSTERS, type BootstrapParams } from '../regress.js';
import { cellKey, groupBy, type CellSummary } from './cells.js';
import type { ModelSummary } from './models.js';

/** Welch and Mann–Whitney between two origin groups of models. */
export interface OriginComparison {
  a: string;
  b: string;
  nA: number;
  nB: number;
  meanA: number;
  meanB: number;
  welch: { t: number; df: number; p: number; ci: [number, number] };
  mannWhitney: { U: number; p: number; method: 'exact' | 'normal' };
  /** the same on answered-only net bias */
  answeredOnly: { welchP: number; mannWhitneyP: number } | null;
}

/** Every pair of origins with at least two models each. */
export function originComparisons(models: readonly ModelSummary[]): OriginComparison[] {
  const byOrigin = [...groupBy(models, (m) => m.origin)]
    .filter(([, ms]) => ms.length >= 2)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const out: OriginComparison[] = [];
  for (let i = 0; i < byOrigin.length; i++) {
    for (let j = i + 1; j < byOrigin.length; j++) {
      const [a, ma] = byOrigin[i]!;
      const [b, mb] = byOrigin[j]!;
      const xa = ma.map((m) => m.net);
      const xb = mb.map((m) => m.net);
      const w = welchT(xa, xb);
      const u = mannWhitney(xa, xb);
      const aa = ma.map((m) => m.answeredOnly.net).filter((v): v is number => v !== null);
      const ab = mb.map((m) => m.answeredOnly.net).filter((v): v is number => v !== null);
      out.push({
        a,
        b,
        nA: xa.length,
        nB: xb.length,
        meanA: w.mean1,
        meanB: w.mean2,
        welch: { t: w.t, df: w.df, p: w.p, ci: w.ci },
        mannWhitney: { U: u.U1, p: u.p, method: u.method },
        answeredOnly:
          aa.length >= 2 && ab.length >= 2
            ? { welchP: welchT(aa, ab).p, mannWhitneyP: mannWhitney(aa, ab).p }
            : null,
      });
    }
  }
  return out;
}

/** Abstention (score 0) per model × topic. */
export interface AbstentionRate {
  model: string;
  topic: string;
  n: number;
  abstained: number;
  rate: number;
  lower: number;
  upper: number;
}

/** Abstention rates with Wilson 95 % intervals, sorted by model and topic. */
export function abstentionRates(cells: readonly CellSummary[]): AbstentionRate[] {
  const out: AbstentionRate[] = [];
  for (const mt of groupBy(cells, (c) => `${c.model}\u0000${c.topic}`).values()) {
    const n = mt.reduce((s, c) => s + c.n, 0);
    const x = mt.reduce((s, c) => s + c.abstained, 0);
    const w = wilson(x, n);
    out.push({
      model: mt[0]!.model,
      topic: mt[0]!.topic,
      n,
      abstained: x,
      rate: w.pHat,
      lower: w.lower,
      upper: w.upper,
    });
  }
  return out.sort((a, b) =>
    a.model < b.model
      ? -1
      : a.model > b.model
        ? 1
        : a.topic < b.topic
          ? -1
          : a.topic > b.topic
            ? 1
            : 0,
  );
}

/** One clustered fit. */
interface ClusteredFit {
  clusterBy: 'model' | 'cell';
  nClusters: number;
  /** empty when the clustered SE was refused (`refused` says why) */
  terms: Term[];
  /** why there are no clustered SEs: fewer clusters than coefficients */
  refused: string | null;
  /** with --wild-bootstrap: a wild cluster bootstrap test of each coefficient but the intercept */
  bootstrap: WildResult[] | null;
}

/** The OLS of stance on origin, language, framing and topic, with its reference levels. */
export interface StanceRegression {
  nobs: number;
  predictors: string[];
  reference: Record<string, string>;
  fits: ClusteredFit[];
  /** too few clusters for one of the fits, and what to do */
  warnings: string[];
}

const prefer = (levels: string[], wanted: string[]): string =>
  wanted.find((w) => levels.includes(w)) ?? [...levels].sort()[0]!;

/**
 * stance ~ origin + lang + framing + topic (factors with one level dropped), cluster-robust SEs
 * (statsmodels correction, normal inference) clustered by model and by cell. References: origin
 * US (else the first sorted), language en, framing affirmative, topic the first sorted.
 */
export function stanceRegression(
  cells: readonly CellSummary[],
  bootstrap: BootstrapParams | null = null,
): StanceRegression {
  const rows: Record<string, string>[] = [];
  const y: number[] = [];
  const byModel: string[] = [];
  const byCell: string[] = [];
  for (const c of cells) {
    for (const s of c.stances) {
      rows.push({ origin: c.origin, lang: c.lang, framing: c.framing, topic: c.topic });
      y.push(s);
      byModel.push(c.model);
      byCell.push(cellKey(c));
    }
  }
  const reference: Record<string, string> = {};
  const predictors: string[] = [];
  for (const [f, wanted] of [
    ['origin', ['US', 'us', 'U.S.']],
    ['lang', ['en']],
    ['framing', ['affirmative']],
    ['topic', []],
  ] as const) {
    const levels = [...new Set(rows.map((r) => r[f]!))];
    if (levels.length < 2) continue;
    predictors.push(f);
    reference[f] = prefer(levels, [...wanted]);
  }
  const d = buildDesign(rows, { predictors, reference });
  const fits: ClusteredFit[] = [];
  const warnings: string[] = [];
  for (const [clusterBy, labels] of [
    ['model', byModel],
    ['cell', byCell],
  ] as const) {
    const g = new Set(labels).size;
    if (g < 2) continue;
    const fit = clusteredFit(y, d, labels, clusterBy, bootstrap);
    fits.push(fit);
    if (g < FEW_CLUSTERS)
      warnings.push(
        `only ${g} clusters of ${clusterBy} in the OLS of stance (cluster-robust SEs want ${FEW_CLUSTERS} or more): ${fit.refused ? 'no clustered SEs (fewer clusters than coefficients)' : 'the SEs are biased downward, the p values too small'}. ` +
          (bootstrap
            ? 'Read the wild cluster bootstrap p values instead.'
            : 'Fix: add --wild-bootstrap (a wild cluster bootstrap test per coefficient), or read these numbers as a demonstration, not as evidence.'),
      );
  }
  return { nobs: y.length, predictors, reference, fits, warnings };
}

/** Data the stance regression cannot be fitted to (every cell mean the same; no residual). */
const UNFITTABLE = new Set(['E_STATS_OUTCOME', 'E_STATS_PERFECT_FIT', 'E_STATS_NO_DF']);

/** One clustering: the cluster-robust fit (or why not) and, when asked, the wild bootstrap. */
function clusteredFit(
  y: number[],
  d: Design,
  labels: string[],
  clusterBy: 'model' | 'cell',
  bootstrap: BootstrapParams | null,
): ClusteredFit {
  let terms: Term[] = [];
  let refused: string | null = null;
  let fitted = true; // false when the data leave nothing to fit (then no bootstrap either)
  try {
    terms = ols(y, d, { cluster: labels }).terms;
  } catch (err) {
    const code = (err as StimkitError).code;
    if (code !== 'E_STATS_FEW_CLUSTERS' && !UNFITTABLE.has(code)) throw err;
    refused = (err as StimkitError).message;
    fitted = !UNFITTABLE.has(code);
  }
  const boot =
    bootstrap && fitted
      ? d.names.flatMap((name, j) =>
          name === 'Intercept'
            ? []
            : [wildClusterBootstrap(y, d, labels, { term: j, ...bootstrap, conf: 0.95 })],
        )
      : null;
  return { clusterBy, nClusters: new Set(labels).size, terms, refused, bootstrap: boot };
}
