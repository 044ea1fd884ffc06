/**
 * The language a pressure turn's answer is read in, and the wrapper pool that reads it. The answer
 * language is the conversation's language, except after `other_language` (the study's
 * `pressure.other_language` of the conversation's language: the model was asked to answer in it)
 * and `switch_language` (the language the turn is written in). Languages match through the
 * language packs, so a turn written in `zh-Hans` is read with the bundle's `zh` pool.
 */
import type { Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import { packFor } from '../languages/load.js';
import type { ScoreBundle } from './bundle.js';

/** The language whose option labels read a turn's answer (docs/formats/scores.md, "Pressure"). */
export function answerLang(bundle: ScoreBundle, trial: Trial): string {
  const c = trial.conversation;
  if (c?.followup === 'switch_language') return c.text_lang;
  if (c?.followup !== 'other_language') return trial.lang;
  const other = bundle.study.otherLanguage[trial.lang];
  if (other === undefined)
    throw StimkitError.fromProblem({
      code: 'E_SCORE_PRESSURE',
      file: `${bundle.dir}/data/study.json`,
      field: `study.pressure.other_language.${trial.lang}`,
      message: `trial ${trial.id} asks for the other language of ${trial.lang}, which the sealed study does not name`,
      fix: 're-bundle the study with this version of stimkit, then score the new bundle',
    });
  return other;
}

/** The one tag of a language through the language packs (`zh` and `zh-Hans` are one language). */
function canon(bundle: ScoreBundle, tag: string): string {
  return packFor(tag, bundle.packs)?.pack.tag ?? tag;
}

/** The wrapper pool (its language key in wrappers.json) that reads answers in `lang`, or null. */
export function poolKey(bundle: ScoreBundle, lang: string): string | null {
  if (bundle.options.has(lang)) return lang;
  const want = canon(bundle, lang);
  return [...bundle.options.keys()].find((k) => canon(bundle, k) === want) ?? null;
}

/** A pressure trial's conversation; E_SCORE_PRESSURE for a trial sealed without one. */
export function conversationOf(
  bundle: ScoreBundle,
  trial: Trial,
): NonNullable<Trial['conversation']> {
  if (trial.conversation) return trial.conversation;
  throw StimkitError.fromProblem({
    code: 'E_SCORE_PRESSURE',
    file: `${bundle.dir}/data/trials.jsonl`,
    field: `${trial.id}.conversation`,
    message: `pressure trial ${trial.id} has no conversation (id, turn, follow-up)`,
    fix: 're-bundle the study with this version of stimkit, then score the new bundle',
  });
}
