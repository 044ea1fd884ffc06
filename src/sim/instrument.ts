/**
 * The simulated respondent of the forced-choice instrument, and its expected values.
 *
 * Generative model of one trial (item with polarity key d = ±1: agreeing supports pole d):
 *   with probability r (refusal_rate) an explicit refusal, else with probability n (neutral_rate)
 *   side-free text; both score 0. Otherwise the latent agreement
 *     z = conviction·d + acquiescence + ε,   ε ~ Logistic(mean 0, sd noise)
 *   is cut into the four labels at t (strong_threshold), 0 and −t (no midpoint):
 *     z > t → +2,  0 < z ≤ t → +1,  −t < z ≤ 0 → −1,  z ≤ −t → −2.
 * With probability f (free_text_rate) an answer is given as prose that states its label's
 * direction and strength without naming an option (scored by a judge; 0 as unparseable without).
 * Everything is closed-form, so the expected net bias and swing follow from the parameters.
 */
import { StimkitError } from '../core/errors.js';
import type { SimBundle, Trial } from './index.js';
import type { SimPool } from './bundle.js';
import { cellValue } from './resolve.js';
import { logisticCdf, type Stream } from './rng.js';
import type { SimParams } from './schema.js';
import {
  abstainText,
  answeredOutcome,
  type InstrumentOutcome,
  type InstrumentTruthBase,
} from './instrument-answer.js';

/** Option values of the four-label pool, in pool order. */
const VALUES = [2, 1, -1, -2] as const;

/** The resolved parameters of one topic × language cell. */
export interface InstrumentCellParams {
  conviction: number;
  acquiescence: number;
  noise: number;
  threshold: number;
  p_refusal: number;
  p_neutral: number;
  /** Rate of free-text answers among answers. */
  p_free_text: number;
}

/** Resolve the instrument parameters for one topic × language. */
function cellParams(params: SimParams, topic: string, lang: string): InstrumentCellParams {
  const p = params.instrument;
  const p_refusal = cellValue(p.refusal_rate, topic, lang, 0, 1);
  return {
    conviction: cellValue(p.conviction, topic, lang),
    acquiescence: cellValue(p.acquiescence, topic, lang),
    noise: cellValue(p.noise, topic, lang, 0.01, 10),
    threshold: p.strong_threshold,
    p_refusal,
    p_neutral: cellValue(p.neutral_rate, topic, lang, 0, 1 - p_refusal),
    p_free_text: cellValue(p.free_text_rate, topic, lang, 0, 1),
  };
}

/** P(+2), P(+1), P(−1), P(−2) of an answer with latent mean mu. */
function labelProbs(mu: number, noise: number, t: number): [number, number, number, number] {
  const F = (x: number) => logisticCdf(x, noise);
  const sa = F(mu - t);
  const gt0 = F(mu);
  const gtm = F(mu + t);
  return [sa, gt0 - sa, gtm - gt0, 1 - gtm];
}

/** E[score | answered] = F(μ−t) + 2F(μ) + F(μ+t) − 2. */
function expectedScore(mu: number, noise: number, t: number): number {
  const p = labelProbs(mu, noise, t);
  return VALUES.reduce((s, v, i) => s + v * p[i]!, 0);
}

/** Net bias, acquiescence (mean raw agreement) and swing of one cell. */
interface NetSwing {
  net: number;
  acq: number;
  swing: number;
}

/** Expected values of one topic × language cell. */
export interface ExpectedInstrumentCell extends NetSwing, InstrumentCellParams {
  topic: string;
  lang: string;
  affirmative_pole: 'plus' | 'minus';
  /** Label probabilities among answers, per framing, in the order +2, +1, −1, −2. */
  label_probs: { affirmative: number[]; reverse: number[] };
  /** Expected raw agreement score per framing (abstentions scored 0). */
  raw: { affirmative: number; reverse: number };
  /** Expected keyed stance per framing (abstentions scored 0). */
  stance: { affirmative: number; reverse: number };
  /** As net_swing.json computes it: refusals excluded as invalid, neutral answers scored 0. */
  refusals_excluded: NetSwing;
  /** Answered only: refusals and neutral answers excluded. */
  answered: NetSwing;
}

/**
 * The expected keyed stance, net bias and swing of one topic × language cell, in closed form
 * (docs/simulated-respondents.md). `key` is the pole the topic's affirmative supports. The top
 * level (net, acq, swing) scores abstentions 0, as the instrument paper does.
 */
export function expectedInstrument(
  params: SimParams,
  topic: string,
  lang: string,
  key: 'plus' | 'minus',
): ExpectedInstrumentCell {
  const c = cellParams(params, topic, lang);
  const k = key === 'plus' ? 1 : -1;
  const gAff = expectedScore(c.conviction * k + c.acquiescence, c.noise, c.threshold);
  const gRev = expectedScore(-c.conviction * k + c.acquiescence, c.noise, c.threshold);
  const ns = (factor: number): NetSwing => {
    const net = (factor * k * (gAff - gRev)) / 2;
    const acq = (factor * (gAff + gRev)) / 2;
    return { net, acq, swing: Math.abs(acq) };
  };
  const answer = 1 - c.p_refusal - c.p_neutral;
  const top = ns(answer);
  return {
    topic,
    lang,
    affirmative_pole: key,
    ...c,
    label_probs: {
      affirmative: labelProbs(c.conviction * k + c.acquiescence, c.noise, c.threshold),
      reverse: labelProbs(-c.conviction * k + c.acquiescence, c.noise, c.threshold),
    },
    raw: { affirmative: answer * gAff, reverse: answer * gRev },
    stance: { affirmative: answer * k * gAff, reverse: -answer * k * gRev },
    ...top,
    refusals_excluded:
      c.p_refusal < 1 ? ns(answer / (1 - c.p_refusal)) : { net: NaN, acq: NaN, swing: NaN },
    answered: answer > 0 ? ns(1) : { net: NaN, acq: NaN, swing: NaN },
  };
}

/** One topic × language cell of a design. */
export interface InstrumentCellKey {
  topic: string;
  lang: string;
  affirmative_pole: 'plus' | 'minus';
}

/** The topic × language cells of a bundle's instrument items (optionally only some languages), sorted. */
export function instrumentCells(bundle: SimBundle, langs?: readonly string[]): InstrumentCellKey[] {
  const cells = new Map<string, InstrumentCellKey>();
  for (const i of bundle.items.values()) {
    if (!langs || langs.includes(i.lang))
      cells.set(`${i.topic}/${i.lang}`, {
        topic: i.topic,
        lang: i.lang,
        affirmative_pole: i.affirmative_pole,
      });
  }
  return [...cells.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/** Per-model expected values over a balanced design (equal trials per cell and framing). */
export interface ExpectedInstrumentModel {
  /** Mean of the cells' net bias. */
  net: number;
  /** |mean keyed stance of affirmative trials − that of reverse trials| / 2 (Table S4's swing). */
  swing: number;
  /** Mean raw agreement over every trial (Table S4's raw). */
  raw: number;
  /** Mean over cells of the per-cell swing |acq| (net_swing.json's cell swing). */
  mean_cell_swing: number;
  /** The same four quantities on answered trials only. */
  answered: { net: number; swing: number; raw: number; mean_cell_swing: number };
  cells: ExpectedInstrumentCell[];
}

function aggregate(cells: Array<NetSwing & { k: number }>) {
  const mean = (f: (c: NetSwing & { k: number }) => number) =>
    cells.reduce((s, c) => s + f(c), 0) / cells.length;
  return {
    net: mean((c) => c.net),
    swing: Math.abs(mean((c) => c.k * c.acq)),
    raw: mean((c) => c.acq),
    mean_cell_swing: mean((c) => c.swing),
  };
}

/** Expected per-model net bias, swing and raw agreement of a respondent over the given cells. */
export function expectedInstrumentModel(
  params: SimParams,
  cells: InstrumentCellKey[],
): ExpectedInstrumentModel {
  if (cells.length === 0) throw new Error('expectedInstrumentModel needs at least one cell');
  const list = cells.map((c) => expectedInstrument(params, c.topic, c.lang, c.affirmative_pole));
  const k = (c: ExpectedInstrumentCell) => (c.affirmative_pole === 'plus' ? 1 : -1);
  return {
    ...aggregate(list.map((c) => ({ ...c, k: k(c) }))),
    answered: aggregate(list.map((c) => ({ ...c.answered, k: k(c) }))),
    cells: list,
  };
}

function fail(trial: Trial, message: string, fix: string): never {
  throw StimkitError.fromProblem({ code: 'E_SIM_TRIAL', field: `trial ${trial.id}`, message, fix });
}

/** Simulate one instrument trial. */
export function simulateInstrument(
  params: SimParams,
  trial: Trial,
  bundle: SimBundle,
  rng: Stream,
): InstrumentOutcome {
  const { item, options } = trialInputs(trial, bundle);
  const c = cellParams(params, item.topic, trial.lang);
  const d = item.polarity_key;
  const a = rng.u('abstain');
  const base: InstrumentTruthBase = {
    kind: 'instrument' as const,
    item: item.id,
    topic: item.topic,
    lang: trial.lang,
    framing: item.framing,
    polarity_key: d,
    params: c,
  };
  if (a < c.p_refusal + c.p_neutral) {
    const kind = a < c.p_refusal ? 'refusal' : 'neutral';
    const { text, ...written } = abstainText(trial.lang, kind, rng);
    return {
      text,
      finish_reason: 'stop',
      truth: {
        ...base,
        label: null,
        score: 0,
        stance: 0,
        refused: kind === 'refusal',
        neutral: kind === 'neutral',
        abstention: kind,
        style: 'text',
        ...written,
        latent: null,
      },
    };
  }
  return answeredOutcome({ params, trial, rng, c, base, options });
}

/** A pool's four options in value order (2, 1, -1, -2), or null when it has other values. */
export function fourOptions(pool: SimPool): SimPool['options'] | null {
  const options = VALUES.map((v) => pool.options.find((o) => o.value === v));
  if (pool.options.length !== 4 || options.some((o) => !o)) return null;
  return options as SimPool['options'];
}

/** The trial's item and its language's four options in value order (2, 1, -1, -2). */
export function trialInputs(trial: Trial, bundle: SimBundle) {
  const item = trial.item ? bundle.items.get(trial.item) : undefined;
  if (!item)
    fail(
      trial,
      `item ${JSON.stringify(trial.item)} is not in the bundle's data/items.json`,
      'seal the bundle again',
    );
  const pool = bundle.wrappers.get(trial.lang);
  if (!pool)
    fail(
      trial,
      `no wrapper pool for language ${trial.lang} in data/wrappers.json`,
      'seal the bundle again',
    );
  const options = fourOptions(pool);
  if (!options)
    fail(
      trial,
      `the ${trial.lang} pool's option values are not 2, 1, -1, -2`,
      'the simulator answers four-option pools only',
    );
  return { item, options };
}
