/**
 * What a reply means. Infrastructure faults are retried (429, 5xx, 408, timeouts, dropped
 * connections, a body that is not JSON, a reply without choices). What the model or its gateway
 * said is a final result, kept and scored, never retried ("who said no", ledger/schema.ts
 * Outcome): `provider_block` (a 400/403/422 whose body names a content policy, a
 * `content_filter` finish), `model_refusal` (a `message.refusal`), `length` (the token limit),
 * `suppressed` (an empty or whitespace-only reply with a normal stop), or an answer. Other 4xx are
 * permanent failures, recorded and not retried; a 401 (and a 403 that names no policy) stops the
 * model's run, and so does a 3xx (error class `redirect`: never followed, see redirect.ts).
 */
import type { Outcome, ReasoningVisibility } from '../ledger/schema.js';
import { completionReasoning, NO_REASONING } from './reasoning.js';
import { redirectBody } from './redirect.js';
import { headerRoute, NO_ROUTE, type Route } from './route.js';
import type { RawReply } from './transport.js';

/** A final result read from a reply. */
export interface Reply {
  outcome: Outcome;
  text: string | null;
  reasoning: string | null;
  /** How much of the reasoning the server showed (reasoning.ts). */
  reasoning_visibility: ReasoningVisibility;
  /** Reasoning tokens the server reported apart; null when it reports none. */
  reasoning_tokens: number | null;
  finish_reason: string | null;
  usage: Record<string, unknown> | null;
  served_model: string | null;
  system_fingerprint: string | null;
  http_status: number | null;
  error_class: string | null;
  error_body: string | null;
  /** The serving route that answered (route.ts); headers filled in by `classify`. */
  route?: Route;
}

/** The verdict on one attempt. */
export type Verdict =
  | { kind: 'final'; reply: Reply }
  | {
      kind: 'retry';
      errorClass: string;
      httpStatus: number | null;
      body: string | null;
      retryAfterMs: number | null;
    }
  | { kind: 'failed'; errorClass: string; httpStatus: number | null; body: string | null }
  | { kind: 'auth'; httpStatus: number; body: string }
  | { kind: 'interrupted' };

/** A 400/422 body that names a content policy or moderation rather than a malformed request. */
const POLICY_RE =
  /content[ _-]?(filter|policy|management)|moderation|safety[ _-]?(system|filter|policy)|policy[ _-]?violation|violates?[^.]{0,40}polic|flagged|data_inspection_failed|responsible ai/i;

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) =>
        typeof p === 'string'
          ? p
          : p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
            ? (p as { text: string }).text
            : '',
      )
      .join('');
  }
  return null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Azure OpenAI's content filter results of a filtered reply (the choice's and the prompt's), or
 * null when the reply has none
 * (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter).
 */
function filterResults(choice: Record<string, unknown>, o: Record<string, unknown>): string | null {
  const c = choice.content_filter_results;
  const p = o.prompt_filter_results;
  if (c === undefined && p === undefined) return null;
  return JSON.stringify({ content_filter_results: c ?? null, prompt_filter_results: p ?? null });
}

/** Read a 2xx chat-completions body. */
export function readCompletion(json: unknown, status: number): Verdict {
  const o = json as Record<string, unknown> | null;
  const choices = o && typeof o === 'object' ? o.choices : undefined;
  if (
    !Array.isArray(choices) ||
    choices.length === 0 ||
    typeof choices[0] !== 'object' ||
    choices[0] === null
  ) {
    return {
      kind: 'retry',
      errorClass: 'no_choices',
      httpStatus: status,
      // Whole: the ledger redacts the key first, then cuts (a cut here could split an echoed key).
      body: JSON.stringify(json),
      retryAfterMs: null,
    };
  }
  const choice = choices[0] as Record<string, unknown>;
  const message = (choice.message ?? {}) as Record<string, unknown>;
  // A leading <think> block of the content is reasoning, not answer.
  const { channel, content: text } = completionReasoning(
    message,
    textOf(message.content),
    o!.usage,
  );
  const refusal = str(message.refusal);
  const finish = str(choice.finish_reason);
  let outcome: Outcome = 'answer';
  if (finish === 'content_filter') outcome = 'provider_block';
  else if (refusal) outcome = 'model_refusal';
  else if (finish === 'length') outcome = 'length';
  else if (!text || text.trim() === '') outcome = 'suppressed';
  return {
    kind: 'final',
    reply: {
      outcome,
      text: text ?? refusal,
      ...channel,
      finish_reason: finish,
      usage:
        o!.usage && typeof o!.usage === 'object' ? (o!.usage as Record<string, unknown>) : null,
      served_model: str(o!.model),
      system_fingerprint: str(o!.system_fingerprint),
      http_status: status,
      error_class: null,
      // A filter's stop keeps Azure's filter results, for the score's block provenance.
      error_body: finish === 'content_filter' ? filterResults(choice, o!) : null,
      // OpenRouter names the upstream provider that served the request in `provider`.
      route: { ...NO_ROUTE, route_provider: str(o!.provider), response_id: str(o!.id) },
    },
  };
}

/**
 * The provider a gateway names in a policy error (OpenRouter's moderation error carries
 * `error.metadata.provider_name`: https://openrouter.ai/docs/api/reference/errors-and-debugging).
 */
function blockingProvider(text: string): string | null {
  try {
    const e = (JSON.parse(text) as { error?: { metadata?: { provider_name?: unknown } } }).error;
    return str(e?.metadata?.provider_name);
  } catch {
    return null;
  }
}

/** Reads a 2xx reply body (parsed JSON) of one provider. */
export type ReplyReader = (json: unknown, status: number) => Verdict;

/** Classify one raw reply; `read` reads a 2xx body (OpenAI chat completions by default). */
export function classify(raw: RawReply, read: ReplyReader = readCompletion): Verdict {
  const v = classifyRaw(raw, read);
  if (v.kind === 'final' && raw.kind === 'http')
    v.reply.route = { ...(v.reply.route ?? NO_ROUTE), ...headerRoute(raw.headers) };
  return v;
}

/** A request that brought no HTTP answer to read: a redirect (not followed) or a transport fault. */
function notAnswered(raw: Exclude<RawReply, { kind: 'http' }>): Verdict {
  // A 3xx is not followed (transport.ts): a permanent failure of this endpoint, never retried.
  if (raw.kind === 'redirect')
    return {
      kind: 'failed',
      errorClass: 'redirect',
      httpStatus: raw.status,
      body: redirectBody(raw.status, raw.location),
    };
  if (raw.errorClass === 'interrupted') return { kind: 'interrupted' };
  // The same request would bring the same oversized reply: a permanent failure, not retried.
  if (raw.errorClass === 'response_too_large')
    return { kind: 'failed', errorClass: raw.errorClass, httpStatus: null, body: raw.message };
  return {
    kind: 'retry',
    errorClass: raw.errorClass,
    httpStatus: null,
    body: raw.message,
    retryAfterMs: null,
  };
}

function classifyRaw(raw: RawReply, read: ReplyReader): Verdict {
  if (raw.kind !== 'http') return notAnswered(raw);
  const { status, text } = raw;
  if (status >= 200 && status < 300) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return {
        kind: 'retry',
        errorClass: 'invalid_json',
        httpStatus: status,
        body: text,
        retryAfterMs: null,
      };
    }
    return read(json, status);
  }
  if (status === 429)
    return {
      kind: 'retry',
      errorClass: 'rate_limited',
      httpStatus: status,
      body: text,
      retryAfterMs: raw.retryAfterMs,
    };
  if (status === 408)
    return {
      kind: 'retry',
      errorClass: 'timeout',
      httpStatus: status,
      body: text,
      retryAfterMs: raw.retryAfterMs,
    };
  if (status >= 500)
    return {
      kind: 'retry',
      errorClass: 'server_error',
      httpStatus: status,
      body: text,
      retryAfterMs: raw.retryAfterMs,
    };
  // A 403 whose body names a policy is a filter's block (Azure, DashScope), not a refused key.
  if ((status === 400 || status === 403 || status === 422) && POLICY_RE.test(text)) {
    return {
      kind: 'final',
      reply: {
        outcome: 'provider_block',
        text: null,
        ...NO_REASONING,
        finish_reason: null,
        usage: null,
        served_model: null,
        system_fingerprint: null,
        http_status: status,
        error_class: 'policy_block',
        error_body: text,
        route: { ...NO_ROUTE, route_provider: blockingProvider(text) },
      },
    };
  }
  if (status === 401 || status === 403) return { kind: 'auth', httpStatus: status, body: text };
  return { kind: 'failed', errorClass: `http_${status}`, httpStatus: status, body: text };
}

/** A final reply as the ledger records it: the attempt's end and the result (with `base`: hash, attempts, latency). */
export function recordOf<B extends { request_sha256: string; attempts: number }>(
  r: Reply,
  base: B,
) {
  const fault = {
    http_status: r.http_status,
    error_class: r.error_class,
    error_body: r.error_body,
  };
  return {
    end: { outcome: r.outcome, ...fault },
    final: {
      ...base,
      outcome: r.outcome,
      response_text: r.text,
      reasoning_text: r.reasoning,
      reasoning_visibility: r.reasoning_visibility,
      reasoning_tokens: r.reasoning_tokens,
      finish_reason: r.finish_reason,
      usage: r.usage,
      served_model: r.served_model,
      system_fingerprint: r.system_fingerprint,
      ...(r.route ?? NO_ROUTE),
      ...fault,
    },
  };
}
