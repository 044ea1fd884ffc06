/**
 * The request a conversation (a trial's turns: conversation.ts) becomes: one pure function from a
 * conversation and a model's settings to an OpenAI chat-completions body. Images appear as `sha256:<hex>` references until `withImages`
 * swaps in `data:image/png;base64,…` URLs read from the bag, so that the request hash (sha256 of
 * the RFC 8785 canonical body, with the references) neither depends on reading the images nor
 * costs a base64 pass, and stays the same bytes on every machine. Credentials never enter a body.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsNonStreaming as OpenAIChatBody,
} from 'openai/resources/chat/completions';
import type { Conversation } from './conversation.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import type { ModelSpec } from '../models/schema.js';

/** One content part of a request message (each a part the `openai` SDK defines: a wrong field fails tsc). */
type RequestPart = Extract<
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } },
  ChatCompletionContentPart
>;

/**
 * The fields a body may carry: those OpenAI's chat completions request defines (typed by the
 * `openai` SDK, generated from OpenAI's OpenAPI description, so a misspelt field fails tsc), and
 * the extra parameters of vLLM's OpenAI-compatible server that a models file can ask for.
 */
type BodyField = keyof OpenAIChatBody | (typeof VLLM_FIELDS)[number];

type SamplingField = Exclude<BodyField, 'model' | 'messages'>;

/** The vLLM extra parameters stimkit sends (models file: `top_k: send`, `thinking: chat_template_kwargs`). */
export const VLLM_FIELDS = ['top_k', 'chat_template_kwargs'] as const;

/** A chat-completions request body. */
export interface RequestBody {
  model: string;
  messages: Array<{ role: string; content: string | RequestPart[] }>;
  [field: string]: unknown;
}

/** What building a request gives: the body (images as references), the fields dropped, its hash. */
export interface BuiltRequest {
  body: RequestBody;
  /** Sampling fields the trial sets that this model's mapping leaves out (e.g. `top_k`). */
  dropped: string[];
  /** sha256 of the canonical body (images as `sha256:` references). */
  sha256: string;
}

/** The prefix of an image reference inside a built body. */
export const IMAGE_REF = 'sha256:';

/**
 * Build the request for `conv` on `model`. Pure: the same conversation and settings give the
 * same body and hash. Text-only messages are sent as a plain string, which every server accepts.
 *
 * @example buildRequest(conv, model).body.top_k // 20 with the default (vLLM) mapping
 */
export function buildRequest(conv: Conversation, model: ModelSpec): BuiltRequest {
  const map = model.sampling;
  const s = conv.sampling;
  const dropped: string[] = [];
  const messages = conv.messages.map((m) => {
    const parts: RequestPart[] = m.content.map((p) =>
      p.type === 'text'
        ? { type: 'text', text: p.text }
        : { type: 'image_url', image_url: imageUrl(`${IMAGE_REF}${p.sha256}`, model) },
    );
    const content = parts.length === 1 && parts[0]!.type === 'text' ? parts[0]!.text : parts;
    return { role: m.role, content };
  });
  const body: RequestBody = { model: model.api_model ?? model.name, messages };
  const put = (field: string, how: string, key: SamplingField, value: unknown) => {
    if (value === undefined || value === null) return;
    if (how === 'drop') dropped.push(field);
    else body[key] = value;
  };
  put('temperature', map.temperature, 'temperature', s.temperature);
  put('top_p', map.top_p, 'top_p', s.top_p);
  put('top_k', map.top_k, 'top_k', s.top_k);
  const maxField = map.max_tokens === 'drop' ? 'max_tokens' : map.max_tokens;
  put('max_tokens', map.max_tokens, maxField, s.max_tokens);
  put('seed', map.seed, 'seed', conv.seed);
  if (s.thinking !== undefined) {
    if (map.thinking === 'drop') dropped.push('thinking');
    else body.chat_template_kwargs = { enable_thinking: s.thinking };
  }
  // OpenRouter's provider routing (models file `routing`): part of the body, so of its hash.
  if (model.routing) body.provider = model.routing;
  for (const [k, v] of Object.entries(model.extra_body)) {
    if (k === 'chat_template_kwargs' && isObject(v) && isObject(body.chat_template_kwargs)) {
      body.chat_template_kwargs = { ...body.chat_template_kwargs, ...v };
    } else body[k] = v;
  }
  return { body, dropped, sha256: sha256(canonicalJson(body)) };
}

/** An image part's `image_url`, with the `detail` of the model's image block when it sets one. */
function imageUrl(
  url: string,
  model: ModelSpec,
): { url: string; detail?: 'auto' | 'low' | 'high' } {
  return model.image?.detail ? { url, detail: model.image.detail } : { url };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The digests a body refers to, in order. */
export function imageRefs(body: RequestBody): string[] {
  const out: string[] = [];
  for (const m of body.messages) {
    if (typeof m.content === 'string') continue;
    for (const p of m.content)
      if (p.type === 'image_url' && p.image_url.url.startsWith(IMAGE_REF))
        out.push(p.image_url.url.slice(IMAGE_REF.length));
  }
  return out;
}
