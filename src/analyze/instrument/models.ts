/**
 * Per-model quantities of the instrument paper (Methods 4.4 and 4.6, Table S4): net bias, swing
 * and raw agreement; one-sample t and Wilcoxon of net bias against 0 on the 28 cell means and on
 * the 14 framing-collapsed values, Holm-adjusted across models; the answered-only sensitivity;
 * flip rates.
 */
import { holm, mean, oneSampleT, wilcoxonSignedRank } from '../../stats/index.js';
import { groupBy, type CellSummary } from './cells.js';
import { stanceOf, type InstrumentRow } from './types.js';

/** A test of "mean = 0" on a set of values. */
interface ZeroTest {
  n: number;
  mean: number;
  t: number;
  df: number;
  pT: number;
  ci: [number, number];
  /**
   * Wilcoxon signed-rank two-sided p and method; null (method `none`) when no cell mean differs
   * from 0: nothing to rank (scipy refuses it)
   */
  pWilcoxon: number | null;
  wilcoxonMethod: 'exact' | 'normal' | 'none';
  /** Holm-adjusted pT / pWilcoxon across models (same unit; Wilcoxon over the models that have one) */
  pTHolm?: number;
  pWilcoxonHolm?: number | null;
}

/** Everything per model. */
export interface ModelSummary {
  model: string;
  origin: string;
  /** mean of the cell means (= mean stance in a balanced design) */
  net: number;
  /** |mean stance affirmative − mean stance reverse|/2 over the cell means */
  swing: number;
  /** the same without the absolute value (positive: stance higher under affirmative framing) */
  swingSigned: number;
  /** mean over topic × language of the per-pair |aff − rev|/2 (the cell-level swing of net_swing.json), for comparison */
  swingCellMean: number | null;
  /** mean raw agreement (before keying): positive = yea-saying */
  raw: number;
  /** the 28 cell means (topic × language × framing) */
  cellTest: ZeroTest | null;
  /** the 14 framing-collapsed values (topic × language): (aff + rev)/2 */
  collapsedTest: ZeroTest | null;
  /** answered-only sensitivity: responses scored 0 dropped */
  answeredOnly: {
    net: number | null;
    swing: number | null;
    excludedShare: number;
    cellTest: ZeroTest | null;
  };
  /** flip rates: how often the raw answer flips when the proposition is reversed (the paper's) */
  flip: FlipRates;
}

/**
 * Flip rates as the instrument paper reports them ("side-takers flip their answer when the
 * proposition reverses", 77–93 %; the acquiescent cluster 29–50 %): among affirmative/reverse
 * pairs where both sides took a side (non-zero), the share whose raw answer flips (agree ↔
 * disagree), which is the share whose keyed stance keeps its sign. High = conviction, low =
 * acquiescence (agreeing with a proposition and with its reverse).
 */
interface FlipRates {
  /** topic × language pairs whose affirmative and reverse cell means are both non-zero */
  cellPairs: number;
  /** of those, pairs whose cell means have the same stance sign (the raw answer flips) */
  cellFlips: number;
  cellRate: number | null;
  /** the same at the response level, pairing affirmative and reverse by iteration (null without an iteration column): the paper's per-model flip rate */
  responsePairs: number | null;
  responseFlips: number | null;
  responseRate: number | null;
}

function zeroTest(values: number[]): ZeroTest | null {
  if (values.length < 2) return null;
  const t = oneSampleT(values, 0);
  const w = wilcoxonSignedRank(values);
  return {
    n: values.length,
    mean: t.mean,
    t: t.t,
    df: t.df,
    pT: t.p,
    ci: t.ci,
    pWilcoxon: w.p,
    wilcoxonMethod: w.method,
  };
}

function netSwing(
  cells: readonly { framing: string; value: number }[],
): { net: number; swingSigned: number } | null {
  const aff = cells.filter((c) => c.framing === 'affirmative').map((c) => c.value);
  const rev = cells.filter((c) => c.framing === 'reverse').map((c) => c.value);
  if (aff.length === 0 || rev.length === 0) return null;
  return { net: mean(cells.map((c) => c.value)), swingSigned: (mean(aff) - mean(rev)) / 2 };
}

/** Per topic × language with both framings: the collapsed value (aff + rev)/2 and the half-difference (aff − rev)/2. */
function framingPairs(
  cells: readonly { topic: string; lang: string; framing: string; value: number }[],
): { sum: number; diff: number }[] {
  const out: { sum: number; diff: number }[] = [];
  for (const pair of groupBy(cells, (c) => `${c.topic}\u0000${c.lang}`).values()) {
    const a = pair.find((c) => c.framing === 'affirmative');
    const r = pair.find((c) => c.framing === 'reverse');
    if (a && r) out.push({ sum: (a.value + r.value) / 2, diff: (a.value - r.value) / 2 });
  }
  return out;
}

function flipRates(cells: readonly CellSummary[], rows: readonly InstrumentRow[]): FlipRates {
  let cellPairs = 0;
  let cellFlips = 0;
  for (const pair of groupBy(cells, (c) => `${c.topic}\u0000${c.lang}`).values()) {
    const a = pair.find((c) => c.framing === 'affirmative');
    const r = pair.find((c) => c.framing === 'reverse');
    if (!a || !r || a.mean === 0 || r.mean === 0) continue;
    cellPairs++;
    if (Math.sign(a.mean) === Math.sign(r.mean)) cellFlips++;
  }
  let responsePairs: number | null = null;
  let responseFlips: number | null = null;
  if (rows.length > 0 && rows.every((r) => r.iteration !== undefined && r.iteration !== '')) {
    responsePairs = 0;
    responseFlips = 0;
    for (const pair of groupBy(
      rows,
      (r) => `${r.topic}\u0000${r.lang}\u0000${r.iteration}`,
    ).values()) {
      const a = pair.find((r) => r.framing === 'affirmative');
      const v = pair.find((r) => r.framing === 'reverse');
      const sa = a ? stanceOf(a) : null;
      const sv = v ? stanceOf(v) : null;
      if (!sa || !sv) continue;
      responsePairs++;
      if (Math.sign(sa) === Math.sign(sv)) responseFlips++;
    }
  }
  return {
    cellPairs,
    cellFlips,
    cellRate: cellPairs > 0 ? cellFlips / cellPairs : null,
    responsePairs,
    responseFlips,
    responseRate: responsePairs ? responseFlips! / responsePairs : null,
  };
}

/** Per-model summaries (sorted by model) with Holm adjustment across models on each unit. */
export function summariseModels(
  cells: readonly CellSummary[],
  rows: readonly InstrumentRow[],
): ModelSummary[] {
  const rowsByModel = groupBy(rows, (r) => r.model);
  const out: ModelSummary[] = [];
  for (const [model, mc] of [...groupBy(cells, (c) => c.model)].sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    const values = mc.map((c) => ({
      topic: c.topic,
      lang: c.lang,
      framing: c.framing,
      value: c.mean,
    }));
    const ns = netSwing(values);
    const pairs = framingPairs(values);
    const answered = mc
      .filter((c) => c.meanAnswered !== null)
      .map((c) => ({ topic: c.topic, lang: c.lang, framing: c.framing, value: c.meanAnswered! }));
    const nsA = netSwing(answered);
    const total = mc.reduce((s, c) => s + c.n, 0);
    const abstained = mc.reduce((s, c) => s + c.abstained, 0);
    out.push({
      model,
      origin: mc[0]!.origin,
      net: ns ? ns.net : mean(values.map((v) => v.value)),
      swing: ns ? Math.abs(ns.swingSigned) : Number.NaN,
      swingSigned: ns ? ns.swingSigned : Number.NaN,
      swingCellMean: pairs.length > 0 ? mean(pairs.map((p) => Math.abs(p.diff))) : null,
      raw: mean(mc.map((c) => c.raw)),
      cellTest: zeroTest(values.map((v) => v.value)),
      collapsedTest: zeroTest(pairs.map((p) => p.sum)),
      answeredOnly: {
        net: nsA ? nsA.net : answered.length > 0 ? mean(answered.map((v) => v.value)) : null,
        swing: nsA ? Math.abs(nsA.swingSigned) : null,
        excludedShare: total > 0 ? abstained / total : 0,
        cellTest: zeroTest(answered.map((v) => v.value)),
      },
      flip: flipRates(mc, rowsByModel.get(model) ?? []),
    });
  }
  for (const pick of [
    (m: ModelSummary) => m.cellTest,
    (m: ModelSummary) => m.collapsedTest,
    (m: ModelSummary) => m.answeredOnly.cellTest,
  ]) {
    const tests = out.map(pick).filter((t): t is ZeroTest => t !== null);
    const pt = holm(tests.map((t) => t.pT));
    const withW = tests.filter((t) => t.pWilcoxon !== null);
    const pw = holm(withW.map((t) => t.pWilcoxon!));
    tests.forEach((t, i) => {
      t.pTHolm = pt[i]!;
      t.pWilcoxonHolm = t.pWilcoxon === null ? null : pw[withW.indexOf(t)]!;
    });
  }
  return out;
}
