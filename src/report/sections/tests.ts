/**
 * The per-model tests (the instrument paper's Table S4): net bias, swing and raw agreement; the
 * one-sample t and Wilcoxon signed-rank tests of net bias on the cell means and on the
 * framing-collapsed values, Holm across models; the answered-only sensitivity; the flip rates.
 * Plus the origin comparisons and the variance partition when the analysis has them.
 */
import type { InstrumentAnalysis } from '../../analyze/instrument/index.js';
import { INSTRUMENT_COLUMNS } from '../columns/instrument.js';
import { fmt, fullNumber } from '../format.js';
import type { Cell } from '../../score/types.js';
import type { ReportSection, ReportTable } from '../types.js';
import { absentSentence, hasInstrument, instrumentData } from './instrument-data.js';

/**
 * The variance partition (percent of the total sum of squares per term) and the paper's
 * systematic share, 1 − mean within-cell variance / total variance: a share of variances, not
 * 100 − the residual's share of sums of squares, so it has its own table, and the caption
 * computes it from that table's rounded numbers.
 */
export function varianceTables(
  a: InstrumentAnalysis,
  of: { id: string; title: string } = { id: '', title: '' },
): ReportTable[] {
  const v = a.variance;
  const total = fullNumber(v.totalVariance)!;
  const within = fullNumber(v.meanWithinCellVariance)!;
  const share = fullNumber(v.systematicShare);
  return [
    {
      id: `${of.id}variance-partition`,
      title: `${of.title}Variance partition (response level, percent of total sum of squares)`,
      columnInfo: INSTRUMENT_COLUMNS['variance-partition'],
      columns: ['term', 'percent', 'note'],
      rows: [
        ...v.responseLevel.terms.map((t) => [t.term, fullNumber(t.percent), t.note ?? null]),
        ['residual', fullNumber(v.responseLevel.residualPercent), null],
      ],
      n: `n = ${a.counts.scored} scored responses`,
      interval: `Sequential sums of squares in the order listed (descriptive; no intervals); everything but the residual: ${fmt(100 - v.responseLevel.residualPercent, 'percent')} of the sum of squares`,
    },
    {
      id: `${of.id}variance-summary`,
      title: `${of.title}Systematic share (variance between cells)`,
      columnInfo: INSTRUMENT_COLUMNS['variance-summary'],
      columns: ['total_variance', 'within_cell_variance', 'systematic_share'],
      rows: [[total, within, share]],
      n: `n = ${a.counts.scored} scored responses in ${a.counts.cells} cells`,
      interval: `Point estimates (no intervals): systematic share = 1 − mean within-cell variance / total variance = ${fmt(share, 'proportion')}, the instrument paper's measure of how much of the variance is stable structure rather than decoding noise; it is a share of variances, not 100 % minus the residual share of sums of squares above`,
    },
  ];
}

/** One model's results in the instrument analysis. */
type ModelResult = InstrumentAnalysis['models'][number];

/** The per-model test columns, by name (Table S4; an arm's table shows a subset). */
const MODEL_COLUMN: Record<string, (m: ModelResult) => Cell> = {
  model: (m) => m.model,
  origin: (m) => m.origin,
  net: (m) => fullNumber(m.net),
  ci_lower: (m) => fullNumber(m.cellTest?.ci[0]),
  ci_upper: (m) => fullNumber(m.cellTest?.ci[1]),
  swing: (m) => fullNumber(m.swing),
  raw: (m) => fullNumber(m.raw),
  n_cells: (m) => m.cellTest?.n ?? null,
  t: (m) => fullNumber(m.cellTest?.t),
  p_t: (m) => fullNumber(m.cellTest?.pT),
  p_wilcoxon: (m) => fullNumber(m.cellTest?.pWilcoxon),
  p_holm: (m) => fullNumber(m.cellTest?.pTHolm),
  n_collapsed: (m) => m.collapsedTest?.n ?? null,
  p_t_collapsed: (m) => fullNumber(m.collapsedTest?.pT),
  net_answered: (m) => fullNumber(m.answeredOnly.net),
  abstained_share: (m) => fullNumber(m.answeredOnly.excludedShare),
  flip_rate: (m) => fullNumber(m.flip.responseRate),
  cell_flip_rate: (m) => fullNumber(m.flip.cellRate),
};

/** Every per-model test column, in Table S4's order. */
const MODEL_TEST_COLUMNS = Object.keys(MODEL_COLUMN);

/** The `columns` and `rows` of a per-model table of `a` with the columns `names`. */
export function modelColumns(
  a: InstrumentAnalysis,
  names: readonly string[],
): { columns: string[]; rows: Cell[][] } {
  return {
    columns: [...names],
    rows: a.models.map((m) => names.map((n) => MODEL_COLUMN[n]!(m))),
  };
}

/** The analysis the section reads (see `instrumentData`). */
type Data = Awaited<ReturnType<typeof instrumentData>>;

/**
 * Table S4: per model, net bias against 0 (t, Wilcoxon, Holm; framing-collapsed), the
 * answered-only net bias and the flip rates.
 */
function modelTestsTable(d: Data): ReportTable {
  const a = d.analysis;
  return {
    id: 'model-tests',
    title: 'Net bias against 0 per model',
    ...modelColumns(a, MODEL_TEST_COLUMNS),
    n: `n = ${d.cellsPerModel} cell means per model (Cells; about ${d.perCell} responses each) and ${Math.round(d.cellsPerModel / 2)} framing-collapsed values (Collapsed values)`,
    interval:
      '95 % CI and p (t): one-sample t of net bias on the cell means; p (Wilcoxon): Wilcoxon signed-rank on the same; p (Holm): p (t) adjusted by Holm across models; p (t, framing-collapsed): t on the framing-collapsed values; Net bias, answered only: without the responses scored 0; Flip rate: share of affirmative/reverse response pairs (same topic, language, iteration; both non-zero) whose raw answer flips, Cell flip rate the same on cell means (descriptive, no intervals)',
  };
}

/** The origins compared at the model level (Welch t and Mann–Whitney on the models' net biases). */
function originComparisonsTable(a: InstrumentAnalysis): ReportTable {
  return {
    id: 'origin-comparisons',
    title: 'Origins compared at the model level',
    columns: [
      'a',
      'b',
      'n_a',
      'n_b',
      'mean_a',
      'mean_b',
      'diff_ci_lower',
      'diff_ci_upper',
      'welch_t',
      'welch_p',
      'mann_whitney_p',
    ],
    rows: a.originComparisons.map((o) => [
      o.a,
      o.b,
      o.nA,
      o.nB,
      fullNumber(o.meanA),
      fullNumber(o.meanB),
      fullNumber(o.welch.ci[0]),
      fullNumber(o.welch.ci[1]),
      fullNumber(o.welch.t),
      fullNumber(o.welch.p),
      fullNumber(o.mannWhitney.p),
    ]),
    n: 'n = models per origin (Models A, Models B); each model contributes its net bias',
    interval:
      '95 % CI of Mean net A − Mean net B and p: Welch t; Mann–Whitney p (two-sided), both on model net biases; with few models per origin Mann–Whitney certifies separation rather than effect size',
  };
}

export const testsSection: ReportSection = {
  id: 'instrument-tests',
  title: 'Per-model tests',
  applies: hasInstrument,
  build: async (ctx) => {
    const d = await instrumentData(ctx);
    const a = d.analysis;
    const tables: ReportTable[] = [modelTestsTable(d)];
    if (a.originComparisons.length > 0) tables.push(originComparisonsTable(a));
    tables.push(...varianceTables(a));
    return {
      paragraphs: [
        `${a.counts.models} models, ${a.counts.cells} cells, ${a.counts.scored} scored responses (${a.counts.abstained} scored 0).`,
        ...absentSentence(d),
      ],
      charts: [],
      tables,
    };
  },
};
