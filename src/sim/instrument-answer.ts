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
  /** The language's bank of texts, or undefined (English texts are used). */
  bank: InstrumentBank | undefined;
  base: InstrumentTruthBase;
  /** The pool's options in value order 2, 1, -1, -2. */
  options: { label: string; value: number }[];
}

/** Draw the latent agreement, its label and the answer's style and text. */
export function answeredOutcome(draw: InstrumentDraw): InstrumentOutcome {
  const { params, trial, rng, c, bank, base, options } = draw;
  const d = base.polarity_key;
  const textBank = bank ?? INSTRUMENT_BANKS.en!;
  const choose = (label: string, list: string[]) => list[rng.index(label, list.length)]!;
  const mu = c.conviction * d + c.acquiescence;
  const z = mu + rng.logistic('noise', c.noise);
  const idx = z > c.threshold ? 0 : z > 0 ? 1 : z > -c.threshold ? 2 : 3;
  const { label, value } = options[idx]!;
  const requested = rng.pick('style', weightsOf(params.instrument.style, INSTRUMENT_STYLES));
  const free = c.p_free_text > 0 && rng.u('free-text') < c.p_free_text;
  const style = free ? 'free_text' : bank ? requested : 'bare';
  const reason = choose('reason', value > 0 ? textBank.pro : textBank.con);
  const cjk = trial.lang.startsWith('zh') || trial.lang.startsWith('ja');
  const text = free
    ? choose('free-text-text', textBank.free[String(value) as keyof InstrumentBank['free']])
    : style === 'bare'
      ? label
      : style === 'sentence'
        ? `${label}${cjk ? '。' : '.'} ${reason}`.replace('。 ', '。')
        : `${textBank.answerLead} ${label}\n\n- ${reason}`;
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
      style,
      style_requested: requested,
      text_language: free && !bank ? 'en' : trial.lang,
      text_fallback: !bank && (free || requested !== 'bare'),
      latent: z,
      latent_mean: mu,
    },
  };
}
