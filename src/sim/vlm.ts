/**
 * The simulated respondent of the VLM paradigms (describe, comment-image, comment-text,
 * abstraction, narrative), and its expected rates.
 *
 * Generative model of one trial (docs/simulated-respondents.md): drift decides the response
 * language; an image trial is recognised with the variant's recognition factor (text trials
 * always); a recognised subject may be caught by a content filter, else refused (style by
 * weight), else answered: each expected fact conveyed independently with the paradigm's
 * coverage, the answer reframed with the entry's narrative markers at the reframe rate (one
 * discourse strategy by weight), and an answered image trial may invent a visual detail. An
 * unrecognised image gets a generic description with no facts, no refusal and no reframing.
 * `truth.labels` holds the audit dimensions D1–D5 as a perfect judge would label them.
 */
import { StimkitError } from '../core/errors.js';
import type { SimBundle, SimEntry, SimResponse, Trial } from './index.js';
import type { TruthBase, VlmLabels, VlmTruth } from './truth.js';
import { langRate, sensLangRate, weightsOf } from './resolve.js';
import type { Stream } from './rng.js';
import { STRATEGIES, VLM_STYLES, type SimParams, type Strategy } from './schema.js';
import { VLM_BANKS } from './texts-vlm.js';
import { answerOutcome, refusalOutcome } from './vlm-outcome.js';

/** The language a respondent drifts into: en ↔ zh (and zh-Hant → en); any other → en. */
function otherLanguage(lang: string): string {
  return lang === 'en' ? 'zh' : 'en';
}

/** What a VLM trial's rates depend on. */
export interface VlmTrialKey {
  paradigm: string;
  lang: string;
  sensitivity: 'high' | 'low';
  /** Variant code of the image (A0 … A6), or null for a text trial. */
  variant: string | null;
}

/** Unconditional probabilities of one trial's outcomes. */
export interface ExpectedVlm {
  p_recognised: number;
  p_content_filter: number;
  p_refusal: number;
  p_reframe: number;
  p_drift: number;
  /** Expected share of the entry's facts conveyed, over all trials (refusals convey none). */
  fact_share: number;
  /** The same among answered, recognised trials: the paradigm's coverage. */
  fact_share_given_answer: number;
  /** A visual detail not in the image (image trials that are answered). */
  p_hallucination: number;
  /** P(reframed with this strategy). */
  p_strategy: Record<Strategy, number>;
}

/** The expected outcome rates of a VLM trial, in closed form. */
export function expectedVlm(params: SimParams, key: VlmTrialKey): ExpectedVlm {
  const v = params.vlm;
  const recog =
    key.variant === null ? 1 : (v.recognition[key.variant as keyof typeof v.recognition] ?? 1);
  const cf = sensLangRate(v.content_filter, key.sensitivity, key.lang);
  const ref = sensLangRate(v.refusal, key.sensitivity, key.lang);
  const rf = sensLangRate(v.reframe, key.sensitivity, key.lang);
  const cov = langRate(v.fact_coverage, key.paradigm);
  const answered = recog * (1 - cf) * (1 - ref);
  const w = new Map(weightsOf(v.reframe_strategies, STRATEGIES));
  const p_strategy = Object.fromEntries(
    STRATEGIES.map((s) => [s, answered * rf * (w.get(s) ?? 0)]),
  ) as Record<Strategy, number>;
  return {
    p_recognised: recog,
    p_content_filter: recog * cf,
    p_refusal: recog * (1 - cf) * ref,
    p_reframe: answered * rf,
    p_drift: langRate(v.drift, key.lang),
    fact_share: answered * cov,
    fact_share_given_answer: cov,
    p_hallucination:
      key.variant === null ? 0 : (1 - recog * cf - recog * (1 - cf) * ref) * v.hallucination,
    p_strategy,
  };
}

/** Simulate one VLM trial. */
export function simulateVlm(
  params: SimParams,
  trial: Trial,
  bundle: SimBundle,
  rng: Stream,
): VlmOutcome {
  const entry: SimEntry | undefined = trial.entry ? bundle.entries.get(trial.entry) : undefined;
  if (!entry) {
    throw StimkitError.fromProblem({
      code: 'E_SIM_TRIAL',
      field: `trial ${trial.id}`,
      message: `entry ${JSON.stringify(trial.entry)} is not in the bundle's data/entries.json`,
      fix: 'seal the bundle again',
    });
  }
  const v = params.vlm;
  const isImage = trial.images.length > 0;
  const key: VlmTrialKey = {
    paradigm: trial.paradigm,
    lang: trial.lang,
    sensitivity: entry.sensitivity,
    variant: isImage ? (trial.variant ?? 'A0') : null,
  };
  const p = expectedVlm(params, key);
  const cf = sensLangRate(v.content_filter, key.sensitivity, key.lang);
  const ref = sensLangRate(v.refusal, key.sensitivity, key.lang);
  const rf = sensLangRate(v.reframe, key.sensitivity, key.lang);

  const drifted = rng.bernoulli('drift', p.p_drift);
  const target = drifted ? otherLanguage(trial.lang) : trial.lang;
  const language = VLM_BANKS[target] ? target : 'en';
  const recognised = !isImage || rng.u('recognise') < p.p_recognised;
  const style = rng.pick('style', weightsOf(v.style, VLM_STYLES));
  const truth = baseTruth(trial, entry, { key, p, target, language, drifted, recognised, style });
  const draw: VlmDraw = { params, trial, entry, rng, isImage, recognised, language, truth };
  return refusalOutcome(draw, cf, ref) ?? answerOutcome(draw, rf);
}

/** What one trial drew before its outcome: the response language, recognition, the style. */
interface TruthDraws {
  key: VlmTrialKey;
  p: ExpectedVlm;
  target: string;
  language: string;
  drifted: boolean;
  recognised: boolean;
  style: VlmTruth['style'];
}

/** The trial's truth before its outcome: nothing refused, covered or reframed yet. */
function baseTruth(trial: Trial, entry: SimEntry, d: TruthDraws) {
  const { key, p, target, language, drifted, recognised, style } = d;
  return {
    kind: 'vlm' as const,
    entry: entry.id,
    paradigm: trial.paradigm,
    variant: key.variant,
    sensitivity: entry.sensitivity,
    prompt_lang: trial.lang,
    language,
    language_fallback: language !== target,
    drifted,
    recognised,
    refused: false,
    refusal_type: null as string | null,
    content_filtered: false,
    facts_covered: [] as string[],
    facts_missing: entry.expected_facts.map((f) => f.id),
    facts_total: entry.expected_facts.length,
    entry_text_fallback: false,
    reframed: false,
    markers_used: [] as string[],
    markers_source: null as 'entry' | 'generic' | null,
    strategy: null as Strategy | null,
    hallucinated: false,
    style,
    p,
    /** The audit dimensions as a judge would label them (see docs/simulated-respondents.md). */
    labels: {
      d1_refusal: false,
      d1_refusal_reason: null as string | null,
      d2_integrity: null as boolean | null,
      d2_failure_type: null as VlmLabels['d2_failure_type'],
      d3_grounded: null as boolean | null,
      d4_state_aligned: false,
      d4_strategy: null as Strategy | null,
      d5_language_consistent: (language === trial.lang) as boolean | null,
    },
  };
}

/** A simulated VLM response and its truth. */
export type VlmOutcome = Pick<SimResponse, 'text' | 'finish_reason'> & {
  truth: Omit<VlmTruth, keyof TruthBase>;
};

/** One trial's draws so far, which its outcome builds on. */
export interface VlmDraw {
  params: SimParams;
  trial: Trial;
  entry: SimEntry;
  rng: Stream;
  isImage: boolean;
  recognised: boolean;
  language: string;
  truth: ReturnType<typeof baseTruth>;
}
