/**
 * One trial's final result as an Inspect `EvalSample` (and its `EvalSampleSummary`): the bundle's
 * messages as the input (images as attachments), the reply as the assistant message (reasoning as
 * a reasoning block, `redacted` when the server withheld it), the outcome as the output's stop reason and as the `outcome` score, the
 * design fields and the route in the metadata, tokens and cost in the model usage.
 */
import { sha256 } from '../core/fsio.js';
import type { Trial } from '../bundle/format.js';
import type { LedgerResult } from '../ledger/read.js';
import type { Outcome } from '../ledger/schema.js';
import type {
  ChatMessage,
  EvalSample,
  EvalSampleSummary,
  InspectScore,
  ModelUsage,
  StopReason,
} from './inspect-format.js';

/** Each outcome's stop reason (docs/formats/inspect.md, "Outcomes"). */
export const STOP_REASON: Readonly<Record<Outcome, StopReason>> = {
  answer: 'stop',
  suppressed: 'stop',
  model_refusal: 'stop',
  provider_block: 'content_filter',
  length: 'max_tokens',
  failed: 'unknown',
};

/** What a sample needs besides its trial and result. */
export interface SampleContext {
  /** The sample id (the trial's design cell without seed or iteration) and its epoch. */
  id: string;
  epoch: number;
  /** Inspect's model name (`<provider>/<model>`). */
  model: string;
  /** The item's polarity key (instrument), else null. */
  polarity: number | null;
  /** The scores of this trial × model from --scores (empty without). */
  scores: Record<string, InspectScore>;
  /** The bundle image of a digest, as a data URL. */
  image: (digest: string) => Promise<string>;
  /**
   * A pressure turn's earlier turns, first to last: each turn's trial and the reply it got (the
   * ledger's response text, as `run` sent it back). The sample's input is the conversation as
   * sent: these turns' messages and replies, then the turn's own message. Empty otherwise.
   */
  earlier?: ReadonlyArray<{ trial: Trial; reply: string | null }>;
}

/** A short id derived from `parts` (Inspect's ids are 22 characters). */
export function derivedId(...parts: string[]): string {
  return sha256(parts.join('\n')).slice(0, 22);
}

/** The input the turn was sent with: the earlier turns and their replies, then its own messages. */
async function inputMessages(
  trial: Trial,
  ctx: SampleContext,
  attachments: Record<string, string>,
) {
  const out: ChatMessage[] = [];
  for (const turn of ctx.earlier ?? []) {
    out.push(...(await ownMessages(turn.trial, ctx, attachments)));
    out.push({
      id: derivedId(turn.trial.id, 'reply'),
      role: 'assistant',
      content: [{ type: 'text', text: turn.reply ?? '' }],
      source: 'input',
    });
  }
  out.push(...(await ownMessages(trial, ctx, attachments)));
  return out;
}

/** A trial's own messages (images as attachments). */
async function ownMessages(trial: Trial, ctx: SampleContext, attachments: Record<string, string>) {
  const out: ChatMessage[] = [];
  for (const [i, m] of trial.messages.entries()) {
    const content: ChatMessage['content'] = [];
    for (const part of m.content) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else {
        attachments[part.sha256] ??= await ctx.image(part.sha256);
        content.push({ type: 'image', image: `attachment://${part.sha256}`, detail: 'auto' });
      }
    }
    out.push({
      id: derivedId(trial.id, 'input', String(i)),
      role: m.role,
      content,
      source: 'input',
    });
  }
  return out;
}

/**
 * The reply's reasoning as Inspect's `ContentReasoning`: shown whole as `reasoning`; a summary as
 * `reasoning` and `summary`; withheld (`redacted`) with `redacted: true` and what was shown, if
 * anything; none when the reply had no reasoning channel. Results written before
 * `reasoning_visibility` existed count their reasoning text as shown whole.
 */
function reasoningContent(r: LedgerResult): ChatMessage['content'][number] | null {
  const v = r.reasoning_visibility;
  if (v === 'redacted') return { type: 'reasoning', reasoning: r.reasoning ?? '', redacted: true };
  if (r.reasoning === null) return null;
  if (v === 'summary')
    return { type: 'reasoning', reasoning: r.reasoning, summary: r.reasoning, redacted: false };
  return { type: 'reasoning', reasoning: r.reasoning, redacted: false };
}

function replyMessage(r: LedgerResult, ctx: SampleContext): ChatMessage {
  const content: ChatMessage['content'] = [];
  const reasoning = reasoningContent(r);
  if (reasoning) content.push(reasoning);
  const text = r.text ?? '';
  content.push(
    r.outcome === 'model_refusal' ? { type: 'text', text, refusal: true } : { type: 'text', text },
  );
  return {
    id: derivedId(r.trial_id, r.model, 'reply'),
    role: 'assistant',
    content,
    source: 'generate',
    model: r.served_model ?? ctx.model,
  };
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;

/** Tokens and cost of a result, or null when the server reported no usage and there is no cost. */
function usageOf(r: LedgerResult): ModelUsage | null {
  const u = r.usage;
  if (!u && r.cost_usd === null) return null;
  const input = count(u?.prompt_tokens) ?? 0;
  const output = count(u?.completion_tokens) ?? 0;
  const details = u?.completion_tokens_details as Record<string, unknown> | undefined;
  const reasoning = count(r.reasoning_tokens) ?? count(details?.reasoning_tokens);
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: count(u?.total_tokens) ?? input + output,
    ...(reasoning !== undefined ? { reasoning_tokens: reasoning } : {}),
    ...(r.cost_usd !== null ? { total_cost: r.cost_usd } : {}),
  };
}

/** The sample metadata: design fields, wrappers, polarity, route and what the ledger recorded. */
function metadataOf(trial: Trial, r: LedgerResult, ctx: SampleContext): Record<string, unknown> {
  return {
    trial_id: trial.id,
    paradigm: trial.paradigm,
    arm: trial.arm,
    language: trial.lang,
    entry: trial.entry,
    variant: trial.variant,
    item: trial.item,
    topic: trial.topic,
    framing: trial.framing,
    polarity: ctx.polarity,
    wrapper_prefix: trial.wrappers?.prefix.id ?? null,
    wrapper_suffix: trial.wrappers?.suffix.id ?? null,
    prompt: trial.prompt,
    seed: trial.seed,
    iteration: trial.iteration,
    // the design factors a sample id alone carried: thinking as a factor, a pressure turn
    thinking: trial.thinking ?? null,
    conversation: trial.conversation?.id ?? null,
    turn: trial.conversation?.turn ?? null,
    followup: trial.conversation?.followup ?? null,
    route: r.route,
    route_provider: r.route_provider,
    endpoint: r.endpoint,
    region: r.region,
    served_model: r.served_model,
    system_fingerprint: r.system_fingerprint,
    response_id: r.response_id,
    request_id: r.request_id,
    request_sha256: r.request_sha256,
    outcome: r.outcome,
    finish_reason: r.finish_reason,
    error_class: r.error_class,
    http_status: r.http_status,
    attempts: r.attempts,
    dropped: r.dropped,
    sent_images: r.sent_images,
    simulated: r.simulated,
  };
}

function outcomeScore(r: LedgerResult): InspectScore {
  return {
    value: r.outcome,
    ...(r.finish_reason !== null ? { answer: r.finish_reason } : {}),
    ...(r.error_class !== null ? { explanation: r.error_class } : {}),
    history: [],
  };
}

/** The sample of one result and its summary (summaries.json). */
export async function buildSample(
  trial: Trial,
  r: LedgerResult,
  ctx: SampleContext,
): Promise<{ sample: EvalSample; summary: EvalSampleSummary }> {
  const attachments: Record<string, string> = {};
  const input = await inputMessages(trial, ctx, attachments);
  const reply = replyMessage(r, ctx);
  const usage = usageOf(r);
  const modelUsage = usage ? { [ctx.model]: usage } : {};
  const seconds = r.latency_ms !== null ? r.latency_ms / 1000 : undefined;
  const time = seconds !== undefined ? { total_time: seconds, working_time: seconds } : {};
  const error = r.outcome === 'failed' ? failureText(r) : undefined;
  const scores = { outcome: outcomeScore(r), ...ctx.scores };
  const metadata = metadataOf(trial, r, ctx);
  const uuid = derivedId(r.bundle_digest, r.run, r.model, r.trial_id);
  const sample: EvalSample = {
    id: ctx.id,
    epoch: ctx.epoch,
    input,
    target: '',
    messages: [...input, reply],
    output: {
      model: r.served_model ?? ctx.model,
      choices: [{ message: reply, stop_reason: STOP_REASON[r.outcome] }],
      completion: r.text ?? '',
      ...(usage ? { usage } : {}),
      ...(seconds !== undefined ? { time: seconds } : {}),
      ...(error !== undefined ? { error } : {}),
      metadata: { outcome: r.outcome, finish_reason: r.finish_reason },
    },
    scores,
    metadata,
    store: {},
    events: [],
    model_usage: modelUsage,
    role_usage: {},
    ...time,
    completed_at: r.finished_at,
    uuid,
    ...(error !== undefined
      ? { error: { message: error, traceback: '', traceback_ansi: '' } }
      : {}),
    attachments,
  };
  const summary: EvalSampleSummary = {
    id: ctx.id,
    epoch: ctx.epoch,
    input: promptText(trial),
    target: '',
    metadata: scalarOnly(metadata),
    scores,
    model_usage: modelUsage,
    role_usage: {},
    ...time,
    completed_at: r.finished_at,
    uuid,
    ...(error !== undefined ? { error } : {}),
    message_count: input.length + 1,
    completed: true,
  };
  return { sample, summary };
}

/** Why a failed result has no reply: its error class and HTTP status as the ledger recorded them. */
function failureText(r: LedgerResult): string {
  const status = r.http_status !== null ? ` (HTTP ${r.http_status})` : '';
  return `no reply: ${r.error_class ?? 'failed'}${status}`;
}

/** The text parts of the trial's messages, one line per message (images as `[image]`). */
function promptText(trial: Trial): string {
  return trial.messages
    .map((m) => m.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n'))
    .join('\n');
}

/** The metadata without its lists (summaries carry scalars, as Inspect's own do). */
function scalarOnly(m: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(m).filter(([, v]) => !Array.isArray(v)));
}
