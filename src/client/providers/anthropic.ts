/**
 * `provider: anthropic`: the Anthropic Messages API (`POST {endpoint}/v1/messages`, headers
 * `x-api-key` and `anthropic-version`). The system prompt is the top-level `system`; images are
 * base64 `image` blocks; `max_tokens` is required (the trial's, else the model's). A trial's `thinking` is sent as is:
 * `false` → `{type: disabled}`, `true` → `{type: adaptive}`, or `{type: enabled, budget_tokens}`
 * with the model's `thinking_budget` (added to max_tokens, so the answer keeps its limit; the
 * models file refuses a budget of 1–1023, and 0 turns thinking off). API
 * version 2026-10-21 (the SDK's) takes no temperature, top_p, top_k or seed: a trial's values are
 * left out and recorded as dropped. The request body is
 * typed against the official SDK (`satisfies`), so a field the API does not define fails `tsc`.
 * Reply: text blocks joined as the response, thinking blocks as `reasoning_text` (visibility:
 * reasoning.ts); `stop_reason`
 * `max_tokens` → length, `refusal` → provider_block (Anthropic's streaming classifiers stopped
 * the output: a filter outside the model; its `stop_details` kept as the error body), else
 * answer / suppressed. The reply `id` is the route's response id (the `request-id` header is
 * read by classify.ts).
 */
import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  ThinkingConfigParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Conversation } from '../conversation.js';
import { sha256 } from '../../core/fsio.js';
import { canonicalJson } from '../../core/json.js';
import { ANTHROPIC_VERSION, type ModelSpec } from '../../models/schema.js';
import type { Verdict } from '../classify.js';
import { IMAGE_REF } from '../request.js';
import { anthropicReasoning } from '../reasoning.js';
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
 * The `max_tokens` and `thinking` a trial is sent with (the request and the dry run's output
 * ceiling): the limit (the trial's, else the model's), plus the thinking budget when thinking is
 * on with one, so the answer keeps its limit; thinking_budget 0 turns thinking off. No
 * `thinking` when the trial sets none or the mapping drops it. `max_tokens` is undefined only
 * without any limit (run refuses such a model before sending, E_RUN_MAX_TOKENS).
 */
export function anthropicLimits(
  conv: Conversation,
  model: ModelSpec,
): { max_tokens: number | undefined; thinking?: ThinkingConfigParam } {
  const s = conv.sampling;
  const limit = s.max_tokens ?? model.max_tokens;
  const budget = model.thinking_budget;
  if (s.thinking === undefined || model.sampling.thinking === 'drop') return { max_tokens: limit };
  if (s.thinking === false || budget === 0)
    return { max_tokens: limit, thinking: { type: 'disabled' } };
  if (budget === undefined) return { max_tokens: limit, thinking: { type: 'adaptive' } };
  return {
    max_tokens: limit === undefined ? undefined : limit + budget,
    thinking: { type: 'enabled', budget_tokens: budget },
  };
}

/** The Messages API body of a trial (images as `sha256:` references). */
function anthropicBody(
  conv: Conversation,
  model: ModelSpec,
): { body: MessageCreateParamsNonStreaming; dropped: string[] } {
  const s = conv.sampling;
  const map = model.sampling;
  const dropped: string[] = [];
  const { system, rest } = splitSystem(conv.messages);
  const messages: MessageParam[] = rest.map((m) => ({
    role: m.role === 'assistant' ? 'assistant' : 'user',
    content: m.content.map((p): ContentBlockParam =>
      p.type === 'text'
        ? { type: 'text', text: p.text }
        : {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: `${IMAGE_REF}${p.sha256}` },
          },
    ),
  }));
  const limits = anthropicLimits(conv, model);
  const body: MessageCreateParamsNonStreaming = {
    model: model.api_model ?? model.name,
    max_tokens: limits.max_tokens!,
    messages,
  };
  if (system !== null) body.system = system;
  // The Messages API of version 2026-10-21 takes no sampling parameters and no seed.
  if (s.temperature !== undefined) dropped.push('temperature');
  if (s.top_p !== undefined) dropped.push('top_p');
  if (s.top_k !== undefined && s.top_k !== -1) dropped.push('top_k');
  if (conv.seed !== null && conv.seed !== undefined) dropped.push('seed');
  if (s.thinking !== undefined && map.thinking === 'drop') dropped.push('thinking');
  if (limits.thinking) body.thinking = limits.thinking;
  return { body: { ...body, ...model.extra_body }, dropped };
}

/** Read a 2xx Messages API reply. */
export function readAnthropic(json: unknown, status: number): Verdict {
  if (!isRecord(json) || json.type !== 'message' || !Array.isArray(json.content))
    return malformed('no_content', json, status);
  const blocks = json.content.filter(isRecord);
  const texts = blocks.filter((b) => b.type === 'text').map((b) => str(b.text) ?? '');
  const text = texts.length ? texts.join('') : null;
  const stop = str(json.stop_reason);
  const outcome =
    stop === 'refusal'
      ? 'provider_block'
      : stop === 'max_tokens' || stop === 'model_context_window_exceeded'
        ? 'length'
        : textOutcome(text);
  const usage = isRecord(json.usage) ? json.usage : null;
  return finalReply({
    outcome,
    text,
    ...anthropicReasoning(blocks, str(json.model)),
    finish_reason: stop,
    usage: withTokenCounts(usage, usage?.input_tokens, usage?.output_tokens),
    served_model: str(json.model),
    http_status: status,
    error_class: stop === 'refusal' ? 'refusal' : null,
    // The classifier's category and explanation (the ledger redacts and truncates it).
    error_body:
      stop === 'refusal' && json.stop_details != null ? JSON.stringify(json.stop_details) : null,
    route: { ...NO_ROUTE, response_id: str(json.id) },
  });
}

export const anthropic: ProviderWire = {
  name: 'anthropic',
  imageStyle: 'base64',
  build(conv, model): BuiltBody {
    const { body, dropped } = anthropicBody(conv, model);
    return { body: { ...body }, dropped, sha256: sha256(canonicalJson(body)) };
  },
  http(endpoint, model, apiKey) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'anthropic-version': model.anthropic_version ?? ANTHROPIC_VERSION,
    };
    if (apiKey) headers['x-api-key'] = apiKey;
    return { url: `${endpoint.replace(/(?<!\/)\/+$/, '')}/v1/messages`, headers };
  },
  read: readAnthropic,
};
