/**
 * The input of the instrument analysis: one scored forced-choice response per row (the columns of
 * `instrument.csv` that the analysis needs), and the keying rule of the instrument paper.
 */

/** One response. `score` is the raw agreement −2..+2 before keying (0 = neutral, refusal, ambiguous or unparseable); null = missing. */
export interface InstrumentRow {
  model: string;
  origin: string;
  topic: string;
  lang: string;
  framing: 'affirmative' | 'reverse';
  /** the pole of the topic's affirmative item: plus (e.g. Pro-U.S.) or minus (e.g. Pro-China) */
  key: 'plus' | 'minus';
  score: number | null;
  /** optional: pairs an affirmative and a reverse response for the response-level flip rate */
  iteration?: string | number;
  /** optional: the instrument arm (e.g. main, pt-control); see arms.ts */
  arm?: string;
}

/**
 * Polarity-aligned stance (Methods 4.4): the raw score multiplied by −1 once for an affirmative
 * pole keyed minus and once for reverse framing (both → no flip). Null stays null.
 */
export function stanceOf(row: Pick<InstrumentRow, 'framing' | 'key' | 'score'>): number | null {
  if (row.score === null) return null;
  const sign = (row.key === 'minus' ? -1 : 1) * (row.framing === 'reverse' ? -1 : 1);
  return sign * row.score + 0; // + 0 turns −0 into 0
}

/** Sign that turns a stance back into raw agreement for this row (its own inverse). */
export function keySign(row: Pick<InstrumentRow, 'framing' | 'key'>): number {
  return (row.key === 'minus' ? -1 : 1) * (row.framing === 'reverse' ? -1 : 1);
}
