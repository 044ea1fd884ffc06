/**
 * Cells of the instrument design (model × topic × language × framing): per-cell n, mean and sd of
 * the polarity-aligned stance, mean raw agreement, and abstentions (score 0).
 */
import { mean, sd } from '../../stats/index.js';
import { keySign, stanceOf, type InstrumentRow } from './types.js';

/** One condition cell. */
export interface CellSummary {
  model: string;
  origin: string;
  topic: string;
  lang: string;
  framing: 'affirmative' | 'reverse';
  /** responses with a score (missing ones excluded) */
  n: number;
  /** mean stance (after keying) */
  mean: number;
  /** sample sd of the stance (n − 1); null when n < 2 */
  sd: number | null;
  /** mean raw agreement (before keying) */
  raw: number;
  /** responses scored 0 (neutral, refusal, ambiguous, unparseable) */
  abstained: number;
  /** mean stance over answered (non-zero) responses; null when all abstained */
  meanAnswered: number | null;
  nAnswered: number;
  /** rows with a missing score */
  missing: number;
  /** stances of the responses (for within-cell variance); not serialised by the CLI */
  stances: number[];
}

/** Stable key of a cell. */
export const cellKey = (r: Pick<InstrumentRow, 'model' | 'topic' | 'lang' | 'framing'>): string =>
  `${r.model}\u0000${r.topic}\u0000${r.lang}\u0000${r.framing}`;

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Cells sorted by model, topic, language, framing. */
export function summariseCells(rows: readonly InstrumentRow[]): CellSummary[] {
  const groups = new Map<
    string,
    { first: InstrumentRow; stances: number[]; raws: number[]; missing: number }
  >();
  for (const r of rows) {
    const k = cellKey(r);
    let g = groups.get(k);
    if (!g) {
      g = { first: r, stances: [], raws: [], missing: 0 };
      groups.set(k, g);
    }
    const s = stanceOf(r);
    if (s === null) g.missing++;
    else {
      g.stances.push(s);
      g.raws.push(s * keySign(r));
    }
  }
  const cells: CellSummary[] = [];
  for (const g of groups.values()) {
    const { model, origin, topic, lang, framing } = g.first;
    const answered = g.stances.filter((v) => v !== 0);
    if (g.stances.length === 0) continue;
    cells.push({
      model,
      origin,
      topic,
      lang,
      framing,
      n: g.stances.length,
      mean: mean(g.stances),
      sd: g.stances.length >= 2 ? sd(g.stances) : null,
      raw: mean(g.raws),
      abstained: g.stances.length - answered.length,
      meanAnswered: answered.length > 0 ? mean(answered) : null,
      nAnswered: answered.length,
      missing: g.missing,
      stances: g.stances,
    });
  }
  return cells.sort(
    (a, b) =>
      cmp(a.model, b.model) ||
      cmp(a.topic, b.topic) ||
      cmp(a.lang, b.lang) ||
      cmp(a.framing, b.framing),
  );
}

/** Group items by a key, keeping first-seen order of keys. */
export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}
