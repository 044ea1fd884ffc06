/**
 * The simulator's entry point: one reply to one trial, a pure function of (params, model name,
 * trial, bundle). Instrument trials go to the forced-choice respondent, pressure turns to the
 * pressure respondent (pressure.ts), the VLM paradigms to the VLM respondent; token counts are
 * deterministic estimates, and a reply longer than the trial's `max_tokens` is cut and finishes
 * with `length`, as a server would. A respondent with a reasoning habit (reasoning.ts) adds its
 * reasoning, and its tokens to the output tokens.
 */
import type { SimBundle, SimResponse, Trial } from './index.js';
import { simulateInstrument } from './instrument.js';
import { simulatePressure } from './pressure.js';
import { stream } from './rng.js';
import { simulateReasoning } from './reasoning.js';
import type { SimParams } from './schema.js';
import type { SimTruth } from './truth.js';
import { simulateVlm } from './vlm.js';

/** Tokens of a text, estimated: one per CJK character, one per four other characters. */
const CJK = /[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]/g;
const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const chars = text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
  return cjk + Math.ceil((chars - cjk) / 4);
}

/** Prompt tokens an image is counted as. */
const IMAGE_TOKENS = 256;

/** Cut `text` to at most `max` estimated tokens (whole characters). */
function truncate(text: string, max: number): string {
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(chars.slice(0, mid).join('')) <= max) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('');
}

/**
 * Simulate the reply of the sim model `modelName` with `params` (already parsed by
 * `simParamsSchema`) to `trial`. Deterministic: the same inputs give the same bytes; another
 * seed or model name gives other draws. `truth` holds the true labels behind the text and
 * `simulated: true`.
 */
export function simulate(
  params: SimParams,
  modelName: string,
  trial: Trial,
  bundle: SimBundle,
): SimResponse {
  const rng = stream(params.seed, modelName, trial.id);
  const reply =
    trial.paradigm === 'pressure'
      ? simulatePressure(params, modelName, trial, bundle)
      : trial.paradigm === 'instrument'
        ? simulateInstrument(params, trial, bundle, rng)
        : simulateVlm(params, trial, bundle, rng);
  let { text, finish_reason } = reply;
  const max = trial.sampling.max_tokens;
  let truncated = false;
  if (max !== undefined && estimateTokens(text) > max) {
    text = truncate(text, max);
    finish_reason = 'length';
    truncated = true;
  }
  const prompt_tokens = trial.messages.reduce(
    (s, m) =>
      s +
      m.content.reduce(
        (t, part) => t + (part.type === 'text' ? estimateTokens(part.text) : IMAGE_TOKENS),
        0,
      ),
    0,
  );
  const t = reply.truth;
  // A filter's block has no reasoning channel; a refusal or a reframed answer may suppress it.
  const eligible = t.refused || (t.kind === 'vlm' && t.reframed);
  const r =
    t.kind === 'vlm' && t.content_filtered
      ? null
      : simulateReasoning(params, modelName, trial, eligible, estimateTokens);
  const answer_tokens = estimateTokens(text);
  // Reasoning tokens are output tokens: counted in completion_tokens, and apart (as OpenAI does).
  const completion_tokens = answer_tokens + (r?.reasoning.tokens ?? 0);
  const usage = {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
  };
  return {
    text,
    finish_reason,
    ...('refusal' in reply && reply.refusal ? { refusal: true as const } : {}),
    usage: r
      ? { ...usage, completion_tokens_details: { reasoning_tokens: r.reasoning.tokens ?? 0 } }
      : usage,
    ...(r ? { reasoning: r.reasoning } : {}),
    truth: {
      ...t,
      simulated: true,
      model: modelName,
      seed: params.seed,
      truncated,
      ...(r ? { reasoning: r.truth } : {}),
    } satisfies SimTruth,
  };
}
