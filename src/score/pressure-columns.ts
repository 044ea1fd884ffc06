/**
 * The columns of the pressure tables (docs/formats/scores.md, "Pressure"): `pressure.csv`, one row
 * per planned turn × model, sent or not, and `pressure-conversations.csv`, one row per
 * conversation × model. Their names are the contract `stimkit analyze pressure` and the report
 * read. Every cell that cannot be computed is empty, with its reason in the row's reason column.
 */
import type { Trial } from '../bundle/format.js';
import type { ConversationMeasures, TurnMeasures } from './pressure-measures.js';
import type { Cell, ModelMeta } from './types.js';

/** A turn × model row: what the ledger recorded of it, its reading and its measures. */
export interface TurnRow {
  trial: Trial;
  model: ModelMeta;
  /** The ledger outcome, `not_sent`, or null when the source has nothing for the turn. */
  outcome: string | null;
  answerLang: string;
  score: number | null;
  stance: number | null;
  reason: string | null;
  simulated: boolean;
  measures: TurnMeasures;
}

/** A conversation × model row. */
export interface ConversationRow {
  /** The conversation's first turn (its design fields). */
  trial: Trial;
  model: ModelMeta;
  simulated: boolean;
  measures: ConversationMeasures;
}

interface Column<R> {
  name: string;
  doc: string;
  value: (r: R) => Cell;
}

/** The columns both tables share, from the model and the design of the conversation. */
const model = <R extends { model: ModelMeta; simulated: boolean }>(): Column<R>[] => [
  { name: 'model', doc: 'model name', value: (r) => r.model.name },
  {
    name: 'origin',
    doc: 'model origin (models file or ledger); `unknown` when neither names it',
    value: (r) => r.model.origin ?? 'unknown',
  },
  { name: 'vendor', doc: 'model vendor; empty when unknown', value: (r) => r.model.vendor },
  {
    name: 'simulated',
    doc: '1 when a simulated respondent answered (or the model is simulated), 0 otherwise',
    value: (r) => (r.simulated ? 1 : 0),
  },
];

const design = <R extends { trial: Trial }>(): Column<R>[] => [
  { name: 'topic', doc: 'instrument topic', value: (r) => r.trial.topic },
  { name: 'item', doc: 'instrument item of the first turn', value: (r) => r.trial.item },
  { name: 'framing', doc: '`affirmative` or `reverse`', value: (r) => r.trial.framing },
  { name: 'arm', doc: 'instrument arm the conversation starts from', value: (r) => r.trial.arm },
  {
    name: 'iteration',
    doc: 'iteration of the instrument trial it starts from',
    value: (r) => r.trial.iteration,
  },
];

const language: Column<{ trial: Trial }> = {
  name: 'language',
  doc: "the conversation's language (the trial's `lang`)",
  value: (r) => r.trial.lang,
};

/** `pressure.csv`'s columns, in order. */
export const TURN_COLUMNS: Column<TurnRow>[] = [
  { name: 'trial', doc: 'trial id of the turn', value: (r) => r.trial.id },
  ...model<TurnRow>(),
  { name: 'conversation', doc: 'conversation id', value: (r) => r.trial.conversation!.id },
  { name: 'turn', doc: 'turn, 1-based', value: (r) => r.trial.conversation!.turn },
  {
    name: 'followup',
    doc: 'the follow-up kind the turn sends; empty on turn 1',
    value: (r) => r.trial.conversation!.followup,
  },
  language,
  {
    name: 'text_lang',
    doc: "the language the turn's own message is written in",
    value: (r) => r.trial.conversation!.text_lang,
  },
  {
    name: 'answer_lang',
    doc: 'the language whose option labels read the answer',
    value: (r) => r.answerLang,
  },
  ...design<TurnRow>(),
  {
    name: 'outcome',
    doc: 'the ledger outcome, `not_sent`, or empty when the source has nothing for the turn',
    value: (r) => r.outcome,
  },
  { name: 'score', doc: 'chosen option value before keying', value: (r) => r.score },
  { name: 'stance', doc: "score keyed with the item's sign", value: (r) => r.stance },
  { name: 'reason', doc: 'why score and stance are empty', value: (r) => r.reason },
  {
    name: 'first_stance',
    doc: "turn 1's stance of the conversation",
    value: (r) => r.measures.first_stance,
  },
  { name: 'changed', doc: 'stance ≠ first_stance', value: (r) => r.measures.changed },
  {
    name: 'side_changed',
    doc: 'sign of stance ≠ sign of first_stance',
    value: (r) => r.measures.side_changed,
  },
  {
    name: 'direction',
    doc: '`plus` or `minus` against turn 1',
    value: (r) => r.measures.direction,
  },
  {
    name: 'changed_from_previous',
    doc: "stance ≠ the previous turn's",
    value: (r) => r.measures.changed_from_previous,
  },
  {
    name: 'changed_reason',
    doc: 'why `changed` is empty',
    value: (r) => r.measures.changed_reason,
  },
];

const m = (k: keyof ConversationMeasures, doc: string): Column<ConversationRow> => ({
  name: k,
  doc,
  value: (r) => r.measures[k],
});

/** `pressure-conversations.csv`'s columns, in order. */
export const CONVERSATION_COLUMNS: Column<ConversationRow>[] = [
  { name: 'conversation', doc: 'conversation id', value: (r) => r.trial.conversation!.id },
  ...model<ConversationRow>(),
  language,
  ...design<ConversationRow>(),
  m('turns', 'planned turns'),
  m('turns_with_stance', 'turns with a stance'),
  m('turns_not_sent', 'turns the ledger records as not sent'),
  m('first_stance', "turn 1's stance"),
  m('final_stance', "the last planned turn's stance"),
  m('changed_ever', "any later turn's stance differs from turn 1's"),
  m('final_changed', "the final turn's stance differs from turn 1's (FlipFlop)"),
  m('first_change_turn', 'the first turn k ≥ 2 whose stance differs from turn 1’s (SYCON-Bench)'),
  m('first_change_direction', '`plus` or `minus`: the direction of that first change (SycEval)'),
  m('flips', 'changes between consecutive turns that both have a stance (SYCON-Bench)'),
  m('side_changed_ever', "any later turn's stance on the other side of turn 1's"),
  m('reason', 'why cells are empty, `;` between several'),
];
