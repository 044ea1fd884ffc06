/**
 * The columns of the Pressure section's tables (`pressure`, `pressure-conversations` and the
 * chart's `pressure-turns`): the columns of `stimkit analyze pressure`'s pressure-turns.csv and
 * pressure-conversations-summary.csv (src/analyze/pressure.ts).
 */
import type { ColumnDefs } from '../dictionary.js';

type Def = ColumnDefs[string];

const NONE = 'no conversation had a value here (n = 0): see not_told_reasons';
const wilson = (side: 'Lower' | 'Upper', what: string) =>
  `${side} end of the Wilson 95 % interval of the share ${what}`;

/** x, n, rate, lower, upper of a 0/1 measure. */
function rateColumns(name: string, label: string, what: string, n: string, empty: string) {
  return Object.fromEntries<Def>([
    [`${name}_x`, [label, 'count', `Rows where ${what}`]],
    [`${name}_n`, [`${label}: n`, 'count', n]],
    [`${name}_rate`, [`${label}: share`, 'proportion', `Share of the n rows where ${what}`, empty]],
    [
      `${name}_lower`,
      [`${label}: 95 % CI low`, 'proportion', wilson('Lower', `where ${what}`), empty],
    ],
    [
      `${name}_upper`,
      [`${label}: 95 % CI high`, 'proportion', wilson('Upper', `where ${what}`), empty],
    ],
  ]);
}

const TURN_N = 'Conversations whose stance at this turn and at turn 1 were both read';
const CONV_N = 'Conversations where the measure has a value';
const CONV_EMPTY = 'no conversation of the model and language had a value: see reasons';

export const PRESSURE_COLUMNS: ColumnDefs = {
  turn: ['Turn', 'count', 'Turn of the conversation: 1 is the first answer, 2 … the follow-ups'],
  followup: [
    'Follow-up',
    'text',
    'The follow-up kind sent at this turn: are_you_sure, authority, counter_claim, other_language or switch_language (;-joined when conversations differ)',
    'turn 1 is the question itself',
  ],
  conversations: [
    'Conversations',
    'count',
    'Conversations of the model and language (every planned turn, sent or not)',
  ],
  with_stance: [
    'With a stance',
    'count',
    'Turns whose answer gave a readable stance (outcome answer)',
  ],
  ...rateColumns(
    'changed',
    'Changed',
    'the stance differs from turn 1’s',
    TURN_N,
    `${NONE}; turn 1 is the reference`,
  ),
  ...rateColumns(
    'side_changed',
    'Side changed',
    'the stance is on the other side (agree ↔ disagree) from turn 1’s',
    TURN_N,
    `${NONE}; turn 1 is the reference`,
  ),
  plus: [
    'Moved to plus',
    'count',
    'Changed turns whose stance is above turn 1’s (towards the plus pole)',
  ],
  minus: [
    'Moved to minus',
    'count',
    'Changed turns whose stance is below turn 1’s (towards the minus pole)',
  ],
  not_told: ['No value', 'count', 'Conversations without a value of changed at this turn'],
  not_told_reasons: [
    'Why no value',
    'text',
    'reason:count — first_turn (turn 1 is the reference), first_turn_no_stance, unparseable, a non-answer outcome (provider_block, model_refusal, suppressed, length, failed), not_sent:<why> (a turn never sent), unrecorded',
    'every conversation has a value',
  ],
  ...rateColumns(
    'changed_ever',
    'Changed ever',
    'a later turn’s stance differs from turn 1’s',
    CONV_N,
    CONV_EMPTY,
  ),
  ...rateColumns(
    'final_changed',
    'Final changed',
    'the last turn’s stance differs from turn 1’s (FlipFlop)',
    CONV_N,
    CONV_EMPTY,
  ),
  ...rateColumns(
    'side_changed_ever',
    'Side changed ever',
    'a later turn’s stance is on the other side from turn 1’s',
    CONV_N,
    CONV_EMPTY,
  ),
  flips_n: ['Flips: n', 'count', 'Conversations with a count of flips'],
  flips_mean: [
    'Mean flips',
    'statistic',
    'Mean number of stance changes between consecutive turns that both have a stance (SYCON-Bench Number of Flips)',
    'no conversation has a flip count: see reasons',
  ],
  flips_sd: [
    'Flips: SD',
    'statistic',
    'Standard deviation of the flips (n − 1)',
    'fewer than 2 conversations: see flips_reason',
  ],
  flips_lower: [
    'Flips: 95 % CI low',
    'statistic',
    'Lower end of the 95 % t interval of the mean flips',
    'fewer than 2 conversations: see flips_reason',
  ],
  flips_upper: [
    'Flips: 95 % CI high',
    'statistic',
    'Upper end of the 95 % t interval of the mean flips',
    'fewer than 2 conversations: see flips_reason',
  ],
  flips_reason: [
    'Flips: why empty',
    'text',
    'no_flip_count (no conversation has one) or one_conversation (no interval from one value)',
    'the mean and its interval were computed',
  ],
  first_change_turns: [
    'Turn of first change',
    'text',
    'turn:conversations — the first turn whose stance differs from turn 1’s (SYCON-Bench Turn of Flip)',
    'no conversation changed',
  ],
  never_changed: [
    'Never changed',
    'count',
    'Conversations whose every later stance equals turn 1’s',
  ],
  first_change_plus: [
    'First change to plus',
    'count',
    'Conversations whose first change moved towards the plus pole',
  ],
  first_change_minus: [
    'First change to minus',
    'count',
    'Conversations whose first change moved towards the minus pole',
  ],
  reasons: [
    'Why empty',
    'text',
    'reason:count of the conversations — never_changed, first_turn_no_stance, no_later_stance, final_turn_no_stance, final_turn_not_sent',
    'every measure has a value',
  ],
  x: ['Changed', 'count', 'Conversations whose stance at this turn differs from turn 1’s'],
  n: ['n', 'count', TURN_N],
  rate: ['Share changed', 'proportion', 'x / n', NONE],
  lower: ['95 % CI low', 'proportion', 'Lower end of the Wilson 95 % interval of the share', NONE],
  upper: ['95 % CI high', 'proportion', 'Upper end of the Wilson 95 % interval of the share', NONE],
};
