/**
 * The instrument analysis the report's instrument sections share, computed once per report by
 * the analysis stage's `analyzeInstrument` (never re-implemented here) on the rows of
 * `instrument.csv`. The primary arm (the one with the most responses, e.g. `main`) is analysed,
 * chosen by `analyzeArm` as `stimkit analyze instrument` chooses it; other arms (e.g. a Portuguese
 * control) are named in the text and shown in the per-arm section. A model without an origin in the
 * models file gets origin `unknown`.
 */
import { analyzeArm } from '../../analyze/instrument/arms.js';
import type { InstrumentAnalysis, InstrumentRow } from '../../analyze/instrument/index.js';
import { absentModels, instrumentRowOf, type AbsentModel } from '../../analyze/instrument-csv.js';
import type { ReportContext } from '../types.js';

export interface InstrumentData {
  arm: string;
  otherArms: { arm: string; responses: number }[];
  rows: InstrumentRow[];
  analysis: InstrumentAnalysis;
  /** Cells (topic × language × framing) per model in the analysed arm, and responses per cell. */
  cellsPerModel: number;
  perCell: number;
  /** Topic ids in the order of instrument.csv (the bundle's plan order). */
  topics: string[];
  langs: string[];
  /** Models of the arm with no estimate (every answer refused or unscored), and why. */
  absent: AbsentModel[];
}

/** True when the scores hold instrument responses. */
export function hasInstrument(ctx: ReportContext): Promise<boolean> {
  return Promise.resolve(
    (ctx.header.counts.by_paradigm.instrument ?? 0) > 0 &&
      ctx.header.files.some((f) => f.file === 'instrument.csv'),
  );
}

/** The analysis of the primary arm (memoized per report). */
export function instrumentData(ctx: ReportContext): Promise<InstrumentData> {
  return ctx.memo('instrument-analysis', async () => {
    const table = (await ctx.table('instrument.csv'))!;
    // the arm and shift rule of `stimkit analyze instrument`, so both print the same numbers
    const chosen = analyzeArm(table.rows.map(instrumentRowOf));
    const { arm, rows, analysis } = chosen;
    const langs = [...new Set(rows.map((r) => r.lang))];
    const models = analysis.counts.models;
    const cellsPerModel = Math.round(analysis.counts.cells / Math.max(1, models));
    const analysed = new Set(analysis.models.map((m) => m.model));
    return {
      arm,
      otherArms: chosen.arms.slice(1),
      rows,
      analysis,
      cellsPerModel,
      perCell: Math.round(analysis.counts.scored / Math.max(1, analysis.counts.cells)),
      topics: [...new Set(rows.map((r) => r.topic))],
      langs,
      absent: absentModels(
        { columns: table.header, rows: [...table.rows, ...(table.leftOut ?? [])] },
        arm,
        analysed,
      ),
    };
  });
}

/**
 * "No estimate for m: no scored answer (model_refusal 72)." for each model of the arm the
 * analysis could not estimate (as `stimkit analyze instrument` names them), or nothing.
 */
export function absentSentence(d: InstrumentData): string[] {
  return d.absent.length === 0
    ? []
    : [d.absent.map((m) => `No estimate for ${m.model}: ${m.reason}.`).join(' ')];
}

/** Origins in a stable order for colours: CN, US, then the rest sorted, `unknown` last. */
export function originOrder(origins: Iterable<string>): string[] {
  const set = [...new Set(origins)];
  const rank = (o: string) => (o === 'CN' ? 0 : o === 'US' ? 1 : o === 'unknown' ? 3 : 2);
  return set.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Colours per origin (colour-blind-safe Okabe–Ito picks), in `originOrder`. */
export function originColours(order: string[]): string[] {
  const palette: Record<string, string> = { CN: '#D55E00', US: '#0072B2', unknown: '#999999' };
  const rest = ['#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#F0E442', '#000000'];
  let i = 0;
  return order.map((o) => palette[o] ?? rest[i++ % rest.length]!);
}

/**
 * A y (or x) domain around `values` with `pad` of its range on both sides, so that no point or
 * direct label sits on the axis.
 */
export function paddedDomain(values: Array<number | null>, pad = 0.08): [number, number] {
  const v = values.filter((x): x is number => x !== null && Number.isFinite(x));
  if (v.length === 0) return [-1, 1];
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  const span = hi - lo || Math.max(Math.abs(hi), 1);
  return [lo - pad * span, hi + pad * span];
}

/** "a, b and c". */
export function listWords(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
