/**
 * The outcome of one simulated VLM trial after its draws (see vlm.ts): caught by a content
 * filter, refused, or answered with some expected facts, perhaps reframed or with an invented
 * detail. The draws keep their order, so a seed gives the same responses.
 */
import { langRate, weightsOf } from './resolve.js';
import { REFUSAL_TYPES, STRATEGIES } from './schema.js';
import { VLM_BANKS } from './texts-vlm.js';
import type { VlmDraw, VlmOutcome } from './vlm.js';
import { capitalize, composeAnswer, fill } from './vlm-text.js';

/** A recognised subject caught by the content filter (rate `cf`) or refused (rate `ref`), or null. */
export function refusalOutcome(d: VlmDraw, cf: number, ref: number): VlmOutcome | null {
  const { rng, recognised, truth, isImage } = d;
  const v = d.params.vlm;
  const bank = VLM_BANKS[d.language]!;
  const choose = (label: string, list: string[]) => list[rng.index(label, list.length)]!;
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

  return null;
}

/** The answer: expected facts conveyed, perhaps reframed (rate `rf`) or with an invented detail. */
export function answerOutcome(d: VlmDraw, rf: number): VlmOutcome {
  const { rng, recognised, truth, isImage, trial, entry, language } = d;
  const v = d.params.vlm;
  const bank = VLM_BANKS[language]!;
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
    ? drawMarkers(d, pool, strategy === 'substitute' ? 1 : v.markers_per_response)
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
    style: truth.style,
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

/** `count` markers of `pool` in a seeded order. */
function drawMarkers(d: VlmDraw, pool: string[], count: number): string[] {
  return pool
    .map((m, i) => ({ m, u: d.rng.u(`marker:${i}`) }))
    .sort((a, b) => a.u - b.u)
    .slice(0, count)
    .map((x) => x.m);
}
