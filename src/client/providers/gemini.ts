/**
 * `provider: gemini`: the Gemini API (`POST {endpoint}/v1beta/models/{api_model}:generateContent`,
 * the key in the `x-goog-api-key` header, never in the URL where it would reach logs). The system
 * prompt is `systemInstruction`; images are `inlineData` parts; temperature, top_p, top_k,
 * max_tokens and the seed go into `generationConfig`, and the trial's `thinking` into its
 * `thinkingConfig` (`false` → `thinkingBudget: 0`; `true` → `includeThoughts: true`, with the
 * model's `thinking_budget` if set); `safety_settings` from the models file as `safetySettings`.
 * The parts are typed against the official SDK (`@google/genai`, `satisfies`).
 *
 * Reply: a prompt blocked before the model spoke (`promptFeedback.blockReason`, no candidates) and
 * a candidate stopped by a filter (`finishReason` SAFETY, PROHIBITED_CONTENT, BLOCKLIST, SPII,
 * RECITATION, IMAGE_SAFETY, …) are `provider_block`: a block by the provider, not an answer and
 * not the model's own refusal. `MAX_TOKENS` → length; thought parts → `reasoning_text` (visibility: reasoning.ts);
 * `responseId` is the route's response id and `modelVersion` the served model.
 */
import type { Content, GenerationConfig, Part } from '@google/genai';
import type { Conversation } from '../conversation.js';
import { sha256 } from '../../core/fsio.js';
import { canonicalJson } from '../../core/json.js';
import type { Outcome } from '../../ledger/schema.js';
import type { ModelSpec } from '../../models/schema.js';
import type { Verdict } from '../classify.js';
import { IMAGE_REF } from '../request.js';
import { geminiReasoning, NO_REASONING } from '../reasoning.js';
import { NO_ROUTE } from '../route.js';
import {
  finalReply,
  isRecord,
  malformed,
  splitSystem,
  str,
  textOutcome,
  withTokenCounts,
} from './common.js';
import type { BuiltBody, ProviderWire } from './types.js';

/**
 * Finish reasons that mean a filter outside the model stopped the output
 * (https://ai.google.dev/api/generate-content#FinishReason).
 */
export const GEMINI_FILTER_REASONS = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** The generateContent body of a trial (images as `sha256:` references). */
function geminiBody(
  conv: Conversation,
  model: ModelSpec,
): { body: Record<string, unknown>; dropped: string[] } {
  const s = conv.sampling;
  const map = model.sampling;
  const dropped: string[] = [];
  const { system, rest } = splitSystem(conv.messages);
  const contents = rest.map((m): Content => ({
    role: m.role === 'assistant' ? 'model' : 'user',
    parts: m.content.map((p): Part =>
      p.type === 'text'
        ? { text: p.text }
        : { inlineData: { mimeType: 'image/png', data: `${IMAGE_REF}${p.sha256}` } },
    ),
  })) satisfies Content[];
  const config: GenerationConfig = {};
  const put = (field: string, how: string, set: () => void, value: unknown) => {
    if (value === undefined || value === null) return;
    if (how === 'drop') dropped.push(field);
    else set();
  };
  put('temperature', map.temperature, () => (config.temperature = s.temperature), s.temperature);
  put('top_p', map.top_p, () => (config.topP = s.top_p), s.top_p);
  if (s.top_k !== -1) put('top_k', map.top_k, () => (config.topK = s.top_k), s.top_k);
  const limit = s.max_tokens ?? model.max_tokens;
  put(
    'max_tokens',
    map.max_tokens === 'drop' ? 'drop' : 'send',
    () => (config.maxOutputTokens = limit),
    limit,
  );
  put('seed', map.seed, () => (config.seed = conv.seed!), conv.seed);
  put(
    'thinking',
    map.thinking,
    () =>
      (config.thinkingConfig = s.thinking
        ? {
            includeThoughts: true,
            ...(model.thinking_budget !== undefined
              ? { thinkingBudget: model.thinking_budget }
              : {}),
          }
        : { thinkingBudget: 0 }),
    s.thinking,
  );
  const body: Record<string, unknown> = { contents };
  if (system !== null) body.systemInstruction = { parts: [{ text: system }] } satisfies Content;
  if (Object.keys(config).length > 0) body.generationConfig = config satisfies GenerationConfig;
  if (model.safety_settings) body.safetySettings = model.safety_settings;
  return { body: { ...body, ...model.extra_body }, dropped };
}

function candidateOutcome(finish: string | null, text: string | null): Outcome {
  if (finish !== null && GEMINI_FILTER_REASONS.has(finish)) return 'provider_block';
  if (finish === 'MAX_TOKENS') return 'length';
  return textOutcome(text);
}

/** Read a 2xx generateContent reply. */
export function readGemini(json: unknown, status: number): Verdict {
  if (!isRecord(json)) return malformed('no_candidates', json, status);
  const meta = isRecord(json.usageMetadata) ? json.usageMetadata : null;
  const completion =
    meta &&
    (typeof meta.candidatesTokenCount === 'number' || typeof meta.thoughtsTokenCount === 'number')
      ? Number(meta.candidatesTokenCount ?? 0) + Number(meta.thoughtsTokenCount ?? 0)
      : null;
  const usage = withTokenCounts(meta, meta?.promptTokenCount, completion, meta?.totalTokenCount);
  const served = str(json.modelVersion);
  const route = { ...NO_ROUTE, response_id: str(json.responseId) };
  const candidates = Array.isArray(json.candidates) ? json.candidates.filter(isRecord) : [];
  const feedback = isRecord(json.promptFeedback) ? json.promptFeedback : null;
  const blocked = str(feedback?.blockReason);
  if (candidates.length === 0) {
    if (blocked === null) return malformed('no_candidates', json, status);
    return finalReply({
      outcome: 'provider_block',
      text: null,
      ...NO_REASONING,
      finish_reason: `prompt_blocked:${blocked}`,
      usage,
      served_model: served,
      http_status: status,
      error_class: 'prompt_blocked',
      // The feedback with its safety ratings, for the score's block provenance.
      error_body: JSON.stringify(feedback),
      route,
    });
  }
  const c = candidates[0]!;
  const parts =
    isRecord(c.content) && Array.isArray(c.content.parts) ? c.content.parts.filter(isRecord) : [];
  const texts = parts
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string);
  const text = texts.length ? texts.join('') : null;
  const finish = str(c.finishReason);
  const filtered = finish !== null && GEMINI_FILTER_REASONS.has(finish);
  return finalReply({
    outcome: candidateOutcome(finish, text),
    text,
    ...geminiReasoning(parts, meta),
    finish_reason: finish,
    usage,
    served_model: served,
    http_status: status,
    // A filter's stop keeps the candidate's safety ratings, for the score's block provenance.
    error_body: filtered ? JSON.stringify({ safetyRatings: c.safetyRatings ?? null }) : null,
    route,
  });
}

export const gemini: ProviderWire = {
  name: 'gemini',
  imageStyle: 'base64',
  build(conv, model): BuiltBody {
    const { body, dropped } = geminiBody(conv, model);
    return { body, dropped, sha256: sha256(canonicalJson(body)) };
  },
  http(endpoint, model, apiKey) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers['x-goog-api-key'] = apiKey;
    const id = encodeURIComponent((model.api_model ?? model.name).replace(/^models\//, ''));
    return {
      url: `${endpoint.replace(/(?<!\/)\/+$/, '')}/v1beta/models/${id}:generateContent`,
      headers,
    };
  },
  read: readGemini,
};
