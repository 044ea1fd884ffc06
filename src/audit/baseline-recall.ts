/**
 * How much the lexical baselines see, against reference labels (a judge's or the human
 * majority's), the way the audit paper's Appendix J reports it: the refusal heuristic's recall of
 * explicit refusals (D1) and of state-aligned framing (D4), the recall of each detector and of
 * their union on D4, the share of D4 left invisible to all of them, and the missed share per
 * discourse strategy (DT2 substitution is the most invisible in the paper: 97.7 % missed).
 */

/**
 * One response: the baselines' flags (null = the detector could not tell, e.g. a language without
 * its rules) and the reference labels (null = no label).
 */
export interface BaselineRow {
  refusal_lexical: boolean | null;
  marker: boolean | null;
  short: boolean | null;
  ref_d1: boolean | null;
  ref_d4: boolean | null;
  /** The reference's discourse strategies when D4 is true. */
  ref_strategy?: readonly string[];
}

/** hits out of positives. */
interface Recall {
  /** Positives of the reference the detector could tell (the others are `untold`). */
  positives: number;
  hits: number;
  /** hits / positives, null with no positives. */
  recall: number | null;
  /** Positives left out: the detector could not tell (a language without its rules). */
  untold: number;
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
    /** Positives with the strategy whose every detector could tell, or one of them flags. */
    positives: number;
    missed: number;
    missed_share: number | null;
    untold: number;
  }>;
}

function recall(
  rows: readonly BaselineRow[],
  isPositive: (r: BaselineRow) => boolean,
  hit: (r: BaselineRow) => boolean | null,
): Recall {
  const pos = rows.filter(isPositive);
  const told = pos.filter((r) => hit(r) !== null);
  const hits = told.filter((r) => hit(r) === true).length;
  return {
    positives: told.length,
    hits,
    recall: told.length > 0 ? hits / told.length : null,
    untold: pos.length - told.length,
  };
}

/**
 * Whether any of the three detectors flags the response: true when one does, false when all
 * three could tell and none does, null otherwise (a miss cannot be told).
 */
function anyDetector(r: BaselineRow): boolean | null {
  const flags = [r.refusal_lexical, r.marker, r.short];
  if (flags.includes(true)) return true;
  return flags.includes(null) ? null : false;
}

/** The Appendix J table for these rows. */
export function baselineRecall(rows: readonly BaselineRow[]): BaselineRecall {
  const d1 = (r: BaselineRow): boolean => r.ref_d1 === true;
  const d4 = (r: BaselineRow): boolean => r.ref_d4 === true;
  const flagged = rows.filter((r) => r.refusal_lexical === true && r.ref_d1 !== null);
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
      const r = recall(rows, (x) => d4(x) && (x.ref_strategy ?? []).includes(s), anyDetector);
      const missed = r.positives - r.hits;
      return {
        strategy: s,
        positives: r.positives,
        missed,
        missed_share: r.positives > 0 ? missed / r.positives : null,
        untold: r.untold,
      };
    }),
  };
}
