/**
 * The pressure respondent's expected flip measures in closed form (docs/simulated-respondents.md,
 * "The pressure respondent"), for the conversations whose turn 1 has a stance. With the rates
 * f_j (flip) and r_j (structured refusal) of turns j = 2 … K, and flips to the mirror option (so
 * that two flips return to the first answer):
 *   P(turn k has a stance)          = Π_{j=2..k} (1 − r_j)
 *   P(stance_k ≠ stance_{k−1})      = f_k                              (both with a stance)
 *   P(stance_k ≠ stance_1)          = (1 − Π_{j=2..k} (1 − 2 f_j)) / 2  (turn k with a stance)
 * and, with M the last turn with a stance (P(M = l) = Π_{j≤l}(1 − r_j) · r_{l+1}, r_{K+1} = 1),
 * the conversation measures of the scorer's pressure-conversations.csv given M ≥ 2.
 */
import type { FollowupKind } from '../stimuli/pressure-schema.js';
import { turnRates } from './pressure.js';
import type { SimParams } from './schema.js';

/** Expected values of one turn k ≥ 2. */
interface ExpectedTurn {
  turn: number;
  followup: FollowupKind;
  flip_rate: number;
  refusal_rate: number;
  /** P(the turn is sent): no earlier follow-up refused. */
  p_sent: number;
  /** P(the turn has a stance). */
  p_stance: number;
  /** P(its stance differs from the previous turn's), both with a stance: the flip rate. */
  changed_from_previous: number;
  /** P(its stance differs from turn 1's), given it has one (= side_changed: flips are mirror moves). */
  changed: number;
}

/** Expected values of one topic × language cell's conversations with the follow-ups `kinds`. */
export interface ExpectedPressure {
  topic: string;
  lang: string;
  turns: ExpectedTurn[];
  /** P(some later turn has a stance); the measures below are conditional on it. */
  p_later_stance: number;
  /** E[changed_ever]: some later turn's stance differs from turn 1's. */
  changed_ever: number;
  /** E[flips]: changes between consecutive turns with a stance. */
  mean_flips: number;
  /** P(the final planned turn has a stance). */
  p_final_stance: number;
  /** E[final_changed] given the final turn has a stance. */
  final_changed: number;
  /** P(first_change_turn = k) for k = 2 … K, and P(never_changed). */
  first_change_turn: Record<string, number>;
}

/**
 * The expected flip measures of the conversations on `topic` in `lang` whose follow-ups are
 * `kinds` (turns 2, 3, …), among those whose turn 1 has a stance.
 */
export function expectedPressure(
  params: SimParams,
  topic: string,
  lang: string,
  kinds: readonly FollowupKind[],
): ExpectedPressure {
  const rates = kinds.map((k) => turnRates(params, topic, lang, k));
  const K = kinds.length + 1;
  // stance[l] = P(turn l has a stance) = P(M ≥ l), turn 1 given.
  const stance = [1, 1];
  for (let l = 2; l <= K; l++) stance.push(stance[l - 1]! * (1 - rates[l - 2]!.refusal));
  const pL = (l: number) => stance[l]! - (l < K ? stance[l + 1]! : 0);
  let keep = 1; // Π (1 − f_j), j ≤ l
  let mirror = 1; // Π (1 − 2 f_j), j ≤ l
  let flips = 0; // Σ f_j, j ≤ l
  let ever = 0;
  let meanFlips = 0;
  const turns: ExpectedTurn[] = [];
  const first: Record<string, number> = {};
  for (let l = 2; l <= K; l++) {
    const { flip, refusal } = rates[l - 2]!;
    first[String(l)] = stance[l]! * keep * flip;
    keep *= 1 - flip;
    mirror *= 1 - 2 * flip;
    flips += flip;
    ever += pL(l) * (1 - keep);
    meanFlips += pL(l) * flips;
    turns.push({
      turn: l,
      followup: kinds[l - 2]!,
      flip_rate: flip,
      refusal_rate: refusal,
      p_sent: stance[l - 1]!,
      p_stance: stance[l]!,
      changed_from_previous: flip,
      changed: (1 - mirror) / 2,
    });
  }
  const later = stance[2]!;
  const norm = (x: number) => (later > 0 ? x / later : NaN);
  const firstChange = Object.fromEntries(Object.entries(first).map(([k, p]) => [k, norm(p)]));
  firstChange.never = 1 - Object.values(firstChange).reduce((s, p) => s + p, 0);
  return {
    topic,
    lang,
    turns,
    p_later_stance: later,
    changed_ever: norm(ever),
    mean_flips: norm(meanFlips),
    p_final_stance: stance[K]!,
    final_changed: (1 - mirror) / 2,
    first_change_turn: firstChange,
  };
}
