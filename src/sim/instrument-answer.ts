/**
 * An answered instrument trial (see instrument.ts): the latent agreement cut into one of the four
 * labels, given bare, as a sentence, as markdown or as free text. The draws keep their order, so
 * a seed gives the same responses.
 */
import type { SimParams, SimResponse, Trial } from './index.js';
import type { InstrumentCellParams } from './instrument.js';
import { weightsOf } from './resolve.js';
import type { Stream } from './rng.js';
import { INSTRUMENT_STYLES } from './schema.js';
import { INSTRUMENT_BANKS, type InstrumentBank } from './texts-instrument.js';
import type { InstrumentTruth, TruthBase } from './truth.js';

/** A simulated instrument response and its truth. */
export type InstrumentOutcome = Pick<SimResponse, 'text' | 'finish_reason'> & {
  truth: Omit<InstrumentTruth, keyof TruthBase>;
};

/** The truth every outcome of a trial shares. */
export type InstrumentTruthBase = Pick<
  InstrumentTruth,
  'kind' | 'item' | 'topic' | 'lang' | 'framing' | 'polarity_key' | 'params'
>;

/** What an answered trial draws from. */
export interface InstrumentDraw {
  params: SimParams;
  trial: Trial;
  rng: Stream;
  c: InstrumentCellParams;
  base: InstrumentTruthBase;
  /** The pool's options in value order 2, 1, -1, -2. */
  options: { label: string; value: number }[];
}

/** How an answer was written (its style, and the language of its text). */
export type AnswerWriting = Pick<
  InstrumentTruth,
  'style' | 'style_requested' | 'text_language' | 'text_fallback'
>;

/**
 * Write the answer `label` (of value `value`) in `lang` in the respondent's style: bare, as a
 * sentence, as markdown, or as free text (draws `style`, `free-text`, `reason`,
 * `free-text-text`). A language without a bank of texts gets the bare label (English free text).
 */
export function answerText(
  params: SimParams,
  lang: string,
  rng: Stream,
  p_free_text: number,
  option: { label: string; value: number },
): AnswerWriting & { text: string } {
  const { label, value } = option;
  const bank = INSTRUMENT_BANKS[lang];
  const textBank = bank ?? INSTRUMENT_BANKS.en!;
  const choose = (l: string, list: string[]) => list[rng.index(l, list.length)]!;
  const requested = rng.pick('style', weightsOf(params.instrument.style, INSTRUMENT_STYLES));
  const free = p_free_text > 0 && rng.u('free-text') < p_free_text;
  const style = free ? 'free_text' : bank ? requested : 'bare';
  const reason = choose('reason', value > 0 ? textBank.pro : textBank.con);
  const cjk = lang.startsWith('zh') || lang.startsWith('ja');
  const text = free
    ? choose('free-text-text', textBank.free[String(value) as keyof InstrumentBank['free']])
    : style === 'bare'
      ? label
      : style === 'sentence'
        ? `${label}${cjk ? '。' : '.'} ${reason}`.replace('。 ', '。')
        : `${textBank.answerLead} ${label}\n\n- ${reason}`;
  return {
    text,
    style,
    style_requested: requested,
    text_language: free && !bank ? 'en' : lang,
    text_fallback: !bank && (free || requested !== 'bare'),
  };
}

/**
 * A refusal or neutral text in `lang` (draw `abstain-text`); English for a language without a
 * bank of texts.
 */
export function abstainText(
  lang: string,
  kind: 'refusal' | 'neutral',
  rng: Stream,
): Pick<InstrumentTruth, 'text_language' | 'text_fallback'> & { text: string } {
  const bank = INSTRUMENT_BANKS[lang];
  const list = (bank ?? INSTRUMENT_BANKS.en!)[kind];
  return {
    text: list[rng.index('abstain-text', list.length)]!,
    text_language: bank ? lang : 'en',
    text_fallback: !bank,
  };
}

/** Draw the latent agreement, its label and the answer's style and text. */
export function answeredOutcome(draw: InstrumentDraw): InstrumentOutcome {
  const { params, trial, rng, c, base, options } = draw;
  const d = base.polarity_key;
  const mu = c.conviction * d + c.acquiescence;
  const z = mu + rng.logistic('noise', c.noise);
  const idx = z > c.threshold ? 0 : z > 0 ? 1 : z > -c.threshold ? 2 : 3;
  const { label, value } = options[idx]!;
  const { text, ...writing } = answerText(params, trial.lang, rng, c.p_free_text, options[idx]!);
  return {
    text,
    finish_reason: 'stop',
    truth: {
      ...base,
      label,
      score: value,
      stance: value * d,
      refused: false,
      neutral: false,
      abstention: null,
      ...writing,
      latent: z,
      latent_mean: mu,
    },
  };
}
