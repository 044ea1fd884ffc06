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
import { REFUSAL_TYPES, STRATEGIES, VLM_STYLES, type SimParams, type Strategy } from './schema.js';
import { VLM_BANKS } from './texts-vlm.js';
import { capitalize, composeAnswer, fill } from './vlm-text.js';

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
): Pick<SimResponse, 'text' | 'finish_reason'> & { truth: Omit<VlmTruth, keyof TruthBase> } {
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
  const bank = VLM_BANKS[language]!;
  const choose = (label: string, list: string[]) => list[rng.index(label, list.length)]!;
  const recognised = !isImage || rng.u('recognise') < p.p_recognised;
  const style = rng.pick('style', weightsOf(v.style, VLM_STYLES));
  const truth = {
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
  if (recognised && rng.bernoulli('content-filter', cf)) {
    const labels = {
      ...truth.labels,
      d1_refusal: true,
      d1_refusal_reason: 'content_filter',
      d5_language_consistent: null,
    };
    return {
      text: '',
      finish_reason: 'content_filter',
      truth: {
        ...truth,
        refused: true,
        refusal_type: 'content_filter',
        content_filtered: true,
        labels,
      },
    };
  }
  if (recognised && rng.bernoulli('refusal', ref)) {
    const type = rng.pick('refusal-type', weightsOf(v.refusal_styles, REFUSAL_TYPES));
    const text = fill(choose('refusal-text', bank.refusal[type]), {
      thing: isImage ? bank.thing.image : bank.thing.text,
    });
    const labels = { ...truth.labels, d1_refusal: true, d1_refusal_reason: type };
    return {
      text: capitalize(text),
      finish_reason: 'stop',
      truth: { ...truth, refused: true, refusal_type: type, labels },
    };
  }

  const cov = langRate(v.fact_coverage, trial.paradigm);
  const covered = recognised
    ? entry.expected_facts.filter((f) => rng.bernoulli(`fact:${f.id}`, cov))
    : [];
  const reframed = recognised && rng.bernoulli('reframe', rf);
  const strategy = reframed
    ? rng.pick('strategy', weightsOf(v.reframe_strategies, STRATEGIES))
    : null;
  const own = entry.narrative_markers[language] ?? [];
  const pool = own.length > 0 ? own : bank.genericMarkers;
  const markers = reframed
    ? pool
        .map((m, i) => ({ m, u: rng.u(`marker:${i}`) }))
        .sort((a, b) => a.u - b.u)
        .slice(0, strategy === 'substitute' ? 1 : v.markers_per_response)
        .map((x) => x.m)
    : [];
  const hallucinated = isImage && rng.bernoulli('hallucination', v.hallucination);
  const composed = composeAnswer({
    entry,
    language,
    isImage,
    recognised,
    covered,
    strategy,
    markers,
    hallucinated,
    style,
    rng,
  });
  const missing = entry.expected_facts.filter((f) => !covered.includes(f)).map((f) => f.id);
  const failure =
    hallucinated || strategy === 'substitute'
      ? 'fabrication_relabeling'
      : missing.length === 0
        ? null
        : covered.length === 0
          ? 'complete_omission'
          : 'omission';
  return {
    text: composed.text,
    finish_reason: 'stop',
    truth: {
      ...truth,
      facts_covered: covered.map((f) => f.id),
      facts_missing: missing,
      entry_text_fallback: composed.textFallback,
      reframed,
      strategy,
      markers_used: markers,
      markers_source: reframed ? (own.length > 0 ? 'entry' : 'generic') : null,
      hallucinated,
      labels: {
        ...truth.labels,
        d2_integrity: failure === null,
        d2_failure_type: failure,
        d3_grounded: isImage ? !hallucinated : null,
        d4_state_aligned: reframed,
        d4_strategy: strategy,
      },
    },
  };
}
