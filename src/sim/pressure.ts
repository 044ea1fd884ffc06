/**
 * The simulated respondent of the pressure paradigm (docs/simulated-respondents.md, "The
 * pressure respondent"). Turn 1 of a conversation is answered as an instrument trial (the same
 * parameters, the turn's own draws). At each later turn j, with the rates of its follow-up kind:
 *   with probability r_j (pressure.refusal_rate) a structured refusal (ledger `model_refusal`:
 *   the run sends no later turn); else, when the respondent holds a choice, with probability f_j
 *   (pressure.flip_rate × followup_factor[kind], at most 1) it changes to the mirror option (the
 *   other side, the same strength: +2 ↔ −2, +1 ↔ −1), else it repeats its choice. An abstention
 *   at turn 1 (refusal or neutral text) is repeated at every later turn.
 * The answer is written with the option labels of the turn's answer language. A turn's answer
 * depends on the choices before it: they are recomputed from the bundle's earlier turns (every
 * draw is a function of seed, model and trial id), never read back from the ledger, so a reply
 * is a pure function of (params, model, trial, bundle).
 */
import { StimkitError } from '../core/errors.js';
import { packFor } from '../languages/load.js';
import type { FollowupKind } from '../stimuli/pressure-schema.js';
import type { SimBundle, SimResponse, Trial } from './index.js';
import { abstainText, answerText } from './instrument-answer.js';
import { fourOptions, simulateInstrument, trialInputs } from './instrument.js';
import { cellValue } from './resolve.js';
import { stream } from './rng.js';
import type { SimParams } from './schema.js';
import type { PressureTruth, TruthBase } from './truth.js';

/** A simulated pressure turn and its truth. */
export type PressureOutcome = Pick<SimResponse, 'text' | 'finish_reason' | 'refusal'> & {
  truth: Omit<PressureTruth, keyof TruthBase>;
};

/** The flip and structured-refusal rates of a follow-up turn. */
export interface TurnRates {
  flip: number;
  refusal: number;
}

/** The rates of a follow-up of `kind` on `topic` in a conversation in `lang`; 0 without a pressure block. */
export function turnRates(
  params: SimParams,
  topic: string,
  lang: string,
  kind: FollowupKind,
): TurnRates {
  const p = params.pressure;
  if (!p) return { flip: 0, refusal: 0 };
  const flip = cellValue(p.flip_rate, topic, lang, 0, 1) * (p.followup_factor[kind] ?? 1);
  return { flip: Math.min(1, flip), refusal: cellValue(p.refusal_rate, topic, lang, 0, 1) };
}

function fail(trial: Trial, message: string, fix: string): never {
  throw StimkitError.fromProblem({ code: 'E_SIM_TRIAL', field: `trial ${trial.id}`, message, fix });
}

/** The turns of `trial`'s conversation up to it, turn 1 first. */
function chainOf(trial: Trial, bundle: SimBundle): Trial[] {
  const chain = [trial];
  for (let id = trial.conversation!.previous; id !== null;) {
    const t = bundle.trials?.get(id);
    if (!t?.conversation)
      fail(trial, `its conversation's turn ${id} is not in the bundle`, 'seal the bundle again');
    chain.unshift(t);
    id = t.conversation.previous;
  }
  if (chain.some((t, i) => t.conversation!.turn !== i + 1))
    fail(trial, 'its conversation does not number its turns 1, 2, …', 'seal the bundle again');
  return chain;
}

/** The canonical tag of a language (`zh` → `zh-Hans`), through the shipped language packs. */
const canon = (tag: string) => packFor(tag)?.pack.tag ?? tag;

/**
 * The language whose option labels a turn's answer is written with (the scorer's `answer_lang`):
 * the other language for `other_language`, the turn's text language for `switch_language`, else
 * the conversation's; and that language's four options (the bundle's pool, matched through the
 * language packs), or the conversation's options when the bundle has no such pool.
 */
function answerPool(trial: Trial, bundle: SimBundle, own: Array<{ label: string; value: number }>) {
  const c = trial.conversation!;
  let want = trial.lang;
  if (c.followup === 'switch_language') want = c.text_lang;
  else if (c.followup === 'other_language') {
    const other = bundle.otherLanguage?.get(trial.lang);
    if (other === undefined)
      fail(
        trial,
        `an other_language turn in ${trial.lang}, and the study names no pressure.other_language.${trial.lang}`,
        'seal the bundle again',
      );
    want = other;
  }
  const key =
    [...bundle.wrappers.keys()].find((k) => k === want) ??
    [...bundle.wrappers.keys()].find((k) => canon(k) === canon(want));
  const options = key === undefined ? null : fourOptions(bundle.wrappers.get(key)!);
  return options && key !== undefined
    ? { lang: key, options, fallback: false }
    : { lang: trial.lang, options: own, fallback: true };
}

/** What the respondent holds after a turn: an option (index in value order 2, 1, −1, −2), or an abstention. */
interface Held {
  idx: number | null;
  abstention: 'refusal' | 'neutral' | null;
}

/** The fields every turn of a conversation shares: turn 1's item and its instrument cell. */
type Shared = Pick<
  PressureTruth,
  'item' | 'topic' | 'lang' | 'framing' | 'polarity_key' | 'params'
>;

/** Simulate one turn of a pressure conversation. */
export function simulatePressure(
  params: SimParams,
  modelName: string,
  trial: Trial,
  bundle: SimBundle,
): PressureOutcome {
  const chain = chainOf(trial, bundle);
  const first = chain[0]!;
  const one = simulateInstrument(params, first, bundle, stream(params.seed, modelName, first.id));
  const { kind: _instrument, score, stance, abstention, ...t1 } = one.truth;
  const { item, topic, lang, framing, polarity_key } = t1;
  const shared: Shared = { item, topic, lang, framing, polarity_key, params: t1.params };
  const firstStance = t1.label === null ? null : stance;
  if (chain.length === 1)
    return {
      text: one.text,
      finish_reason: one.finish_reason,
      truth: {
        ...t1,
        kind: 'pressure',
        conversation: trial.conversation!.id,
        turn: 1,
        followup: null,
        answer_lang: trial.lang,
        answer_lang_fallback: false,
        score: t1.label === null ? null : score,
        stance: firstStance,
        abstention,
        first_stance: firstStance,
        previous_stance: null,
        flipped: null,
        flip_rate: null,
        refusal_rate: null,
      },
    };
  const { options } = trialInputs(first, bundle);
  const held: Held = {
    idx: t1.label === null ? null : options.findIndex((o) => o.value === score),
    abstention,
  };
  const stanceOf = (idx: number | null) =>
    idx === null ? null : options[idx]!.value * polarity_key;
  let previous = firstStance;
  for (const turn of chain.slice(1, -1)) {
    const step = followupStep(params, modelName, turn, held);
    if (step.flipped) held.idx = 3 - held.idx!;
    // A refused turn shows no choice (and the run sends no turn after it).
    previous = step.refused ? null : stanceOf(held.idx);
  }
  return lastTurn({
    params,
    modelName,
    trial,
    bundle,
    held,
    options,
    shared,
    firstStance,
    previous,
  });
}

/** The draws of a follow-up turn: a structured refusal, else a flip of the choice held. */
function followupStep(params: SimParams, modelName: string, turn: Trial, held: Held) {
  const rng = stream(params.seed, modelName, turn.id);
  const rates = turnRates(params, turn.topic!, turn.lang, turn.conversation!.followup!);
  const refused = rng.bernoulli('pressure-refusal', rates.refusal);
  const flipped = refused || held.idx === null ? null : rng.bernoulli('flip', rates.flip);
  return { rng, rates, refused, flipped };
}

interface LastTurn {
  params: SimParams;
  modelName: string;
  trial: Trial;
  bundle: SimBundle;
  held: Held;
  /** The conversation language's options, in value order. */
  options: Array<{ label: string; value: number }>;
  shared: Shared;
  firstStance: number | null;
  previous: number | null;
}

/** A later turn asked for: its draws, and its text in its answer language. */
function lastTurn(x: LastTurn): PressureOutcome {
  const { params, trial, held, shared } = x;
  const step = followupStep(params, x.modelName, trial, held);
  const idx = held.idx === null ? null : step.flipped ? 3 - held.idx : held.idx;
  const pool = answerPool(trial, x.bundle, x.options);
  const kind = step.refused ? 'refusal' : held.abstention;
  const option = idx === null || step.refused ? null : pool.options[idx]!;
  const { text, ...writing } = option
    ? answerText(params, pool.lang, step.rng, shared.params.p_free_text, option)
    : { ...abstainText(pool.lang, kind!, step.rng), style: 'text' as const };
  const score = option ? option.value : null;
  return {
    text,
    finish_reason: 'stop',
    ...(step.refused ? { refusal: true as const } : {}),
    truth: {
      kind: 'pressure',
      ...shared,
      conversation: trial.conversation!.id,
      turn: trial.conversation!.turn,
      followup: trial.conversation!.followup,
      answer_lang: pool.lang,
      answer_lang_fallback: pool.fallback,
      label: option?.label ?? null,
      score,
      stance: score === null ? null : score * shared.polarity_key,
      refused: kind === 'refusal',
      neutral: kind === 'neutral',
      abstention: step.refused ? 'structured' : held.abstention,
      ...writing,
      latent: null,
      first_stance: x.firstStance,
      previous_stance: x.previous,
      flipped: step.flipped,
      flip_rate: step.rates.flip,
      refusal_rate: step.rates.refusal,
    },
  };
}
