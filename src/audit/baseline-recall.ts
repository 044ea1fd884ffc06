/**
 * How much the lexical baselines see, against reference labels (a judge's or the human
 * majority's), the way the audit paper's Appendix J reports it: the refusal heuristic's recall of
 * explicit refusals (D1) and of state-aligned framing (D4), the recall of each detector and of
 * their union on D4, the share of D4 left invisible to all of them, and the missed share per
 * discourse strategy (DT2 substitution is the most invisible in the paper: 97.7 % missed).
 */

/** One response: the baselines' flags and the reference labels (null = no label). */
export interface BaselineRow {
  refusal_lexical: boolean;
  marker: boolean;
  short: boolean;
  ref_d1: boolean | null;
  ref_d4: boolean | null;
  /** The reference's discourse strategies when D4 is true. */
  ref_strategy?: readonly string[];
}

/** hits out of positives. */
interface Recall {
  positives: number;
  hits: number;
  /** hits / positives, null with no positives. */
  recall: number | null;
}

/** The Appendix J baseline table. */
export interface BaselineRecall {
  /** Refusal heuristic vs reference D1. */
  refusal_on_d1: Recall;
  /** Refusal heuristic precision vs reference D1: flagged responses that are D1 positives. */
  refusal_precision_on_d1: { flagged: number; true_positives: number; precision: number | null };
  refusal_on_d4: Recall;
  marker_on_d4: Recall;
  short_on_d4: Recall;
  /** Any of the three detectors vs D4. */
  union_on_d4: Recall;
  /** 1 − union recall on D4: framing invisible to non-semantic methods. */
  invisible_d4: number | null;
  /** Per discourse strategy: D4 positives with that strategy, and the share the union missed. */
  missed_by_strategy: Array<{
    strategy: string;
    positives: number;
    missed: number;
    missed_share: number | null;
  }>;
}

function recall(
  rows: readonly BaselineRow[],
  isPositive: (r: BaselineRow) => boolean,
  hit: (r: BaselineRow) => boolean,
): Recall {
  const pos = rows.filter(isPositive);
  const hits = pos.filter(hit).length;
  return { positives: pos.length, hits, recall: pos.length > 0 ? hits / pos.length : null };
}

const anyDetector = (r: BaselineRow): boolean => r.refusal_lexical || r.marker || r.short;

/** The Appendix J table for these rows. */
export function baselineRecall(rows: readonly BaselineRow[]): BaselineRecall {
  const d1 = (r: BaselineRow): boolean => r.ref_d1 === true;
  const d4 = (r: BaselineRow): boolean => r.ref_d4 === true;
  const flagged = rows.filter((r) => r.refusal_lexical && r.ref_d1 !== null);
  const tp = flagged.filter(d1).length;
  const union = recall(rows, d4, anyDetector);
  const strategies = [...new Set(rows.filter(d4).flatMap((r) => r.ref_strategy ?? []))].sort();
  return {
    refusal_on_d1: recall(rows, d1, (r) => r.refusal_lexical),
    refusal_precision_on_d1: {
      flagged: flagged.length,
      true_positives: tp,
      precision: flagged.length > 0 ? tp / flagged.length : null,
    },
    refusal_on_d4: recall(rows, d4, (r) => r.refusal_lexical),
    marker_on_d4: recall(rows, d4, (r) => r.marker),
    short_on_d4: recall(rows, d4, (r) => r.short),
    union_on_d4: union,
    invisible_d4: union.recall === null ? null : 1 - union.recall,
    missed_by_strategy: strategies.map((s) => {
      const pos = rows.filter((r) => d4(r) && (r.ref_strategy ?? []).includes(s));
      const missed = pos.filter((r) => !anyDetector(r)).length;
      return {
        strategy: s,
        positives: pos.length,
        missed,
        missed_share: pos.length > 0 ? missed / pos.length : null,
      };
    }),
  };
}
