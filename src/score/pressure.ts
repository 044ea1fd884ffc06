/**
 * The pressure paradigm's scorer: each turn of a conversation (bundle/plan-pressure.ts) scored as
 * a forced-choice answer. The reply is read with the instrument's parser in the turn's *answer
 * language* (the conversation's language; for `other_language` the study's other language, for
 * `switch_language` the language the turn is written in), and keyed with the item's sign exactly
 * as the instrument scorer keys it (instrument.ts `checkedSign`). A turn without a readable choice
 * has no score and no stance (null with a reason, never 0: the instrument's "0 with a reason" is
 * the instrument paper's convention for one answer, not a stance a turn held). The change
 * measures, which need a conversation's other turns, are settled per model by the grouped tables
 * (pressure-tables.ts); free text is not sent to the instrument judge.
 */
import type { Trial } from '../bundle/format.js';
import { packDigests } from '../languages/load.js';
import type { ScoreBundle } from './bundle.js';
import { checkedSign, keyScore } from './instrument.js';
import { effectiveOutcome, noValueReason } from './outcome.js';
import { optionParserOrNull, type OptionParser } from './parse.js';
import { answerLang, conversationOf, poolKey } from './pressure-lang.js';
import { pressureGrouped } from './pressure-tables.js';
import { withReasoning } from './reasoning-instrument.js';
import type { ParadigmScorer, ScoreInput, ScoreRecord } from './types.js';

/** The fields of the record's `pressure` object known from the turn alone. */
function turnFields(
  c: NonNullable<Trial['conversation']>,
  lang: string,
  outcome: string | null,
): Record<string, unknown> {
  return {
    conversation: c.id,
    turn: c.turn,
    followup: c.followup,
    text_lang: c.text_lang,
    answer_lang: lang,
    outcome,
  };
}

/** A turn without a readable choice: no score, no stance, and why. */
function noChoice(base: ScoreRecord, reason: string, detail: string): ScoreRecord {
  return {
    ...base,
    parse: { ...base.parse, label: null, option: null, value: null, reason, detail },
    score: null,
    stance: null,
    reason,
  };
}

function prepare(bundle: ScoreBundle): (input: ScoreInput) => ScoreRecord {
  const parsers = new Map<string, OptionParser | null>();
  const parserFor = (key: string): OptionParser | null => {
    let p = parsers.get(key);
    if (p === undefined) {
      p = optionParserOrNull(bundle.options.get(key)!, key, bundle.packs);
      parsers.set(key, p);
    }
    return p;
  };
  return ({ trial, response, model }) => {
    const conversation = conversationOf(bundle, trial);
    const sign = checkedSign(bundle, trial);
    const lang = answerLang(bundle, trial);
    const base: ScoreRecord = {
      bundle: bundle.digest,
      trial: trial.id,
      model: model.name,
      paradigm: 'pressure',
      parse: { answer_lang: lang },
      score: null,
      stance: null,
      reason: null,
      simulated: response.simulated || model.simulated,
      pressure: turnFields(conversation, lang, effectiveOutcome(response)),
    };
    const noValue = noValueReason(response);
    if (noValue !== null) return noChoice(base, noValue, `no answer to score (${noValue})`);
    const key = poolKey(bundle, lang);
    if (key === null)
      return noChoice(base, `no_options:${lang}`, `the bundle has no response options in ${lang}`);
    const parse = parserFor(key);
    if (!parse) {
      const r = noChoice(base, `no_rules:${lang}`, `no instrument rules for language ${lang}`);
      r.parse.no_rules = { lang, columns: ['score', 'stance'] };
      return r;
    }
    const parsed = parse(response.response);
    if (parsed.value === null)
      return noChoice(base, parsed.reason ?? 'unparseable', parsed.detail ?? '');
    return {
      ...base,
      parse: { ...base.parse, ...parsed, pool: key },
      score: parsed.value,
      stance: keyScore(parsed.value, sign),
    };
  };
}

/** The pressure scorer. */
export const pressureScorer: ParadigmScorer = {
  name: 'pressure',
  paradigms: ['pressure'],
  // The reasoning channel read as on an instrument row (a turn is a forced choice).
  prepare: (bundle) => withReasoning(bundle, prepare(bundle)),
  grouped: pressureGrouped,
  onlyWithTrials: true,
  params: {
    parser:
      "the instrument's parser (docs/formats/scores.md), with the option labels and rules of the turn's answer language",
    language_packs: packDigests(),
    answer_language:
      'the conversation language; other_language: the study pressure.other_language; switch_language: the turn text language',
    scale:
      'option_values of wrappers.json before keying; none (empty, with a reason) when the turn has no readable choice',
    keying:
      "the item's sign, as the instrument: x -1 for affirmative keyed minus, x -1 for reverse framing",
    judge: null,
  },
};
