/**
 * The reasoning channel of a reply: its text, how much of it the server showed
 * (ledger/schema.ts `ReasoningVisibility`) and the reasoning tokens it reported. One reader per
 * reply shape; the rule table is in docs/formats/ledger.md ("The reasoning channel").
 *
 * - OpenAI-compatible chat completions: `message.reasoning_content` (vLLM, DeepSeek:
 *   api-docs.deepseek.com/guides/reasoning_model), `message.reasoning` and
 *   `message.reasoning_details` (OpenRouter: openrouter.ai/docs/use-cases/reasoning-tokens;
 *   `reasoning.text` shown whole, `reasoning.summary` a summary, `reasoning.encrypted` withheld),
 *   a leading `<think>…</think>` in the content (split off: core/think.ts), and
 *   `usage.completion_tokens_details.reasoning_tokens` (OpenAI's reasoning models report the
 *   tokens and show no text: `redacted`).
 * - Anthropic Messages: `thinking` blocks (Claude Sonnet 3.7 returns the full trace, Claude 4 and
 *   later models a summary: docs.claude.com/en/docs/build-with-claude/extended-thinking,
 *   "Differences in thinking across model versions"); a `thinking` block whose text is empty but
 *   signed is withheld (`thinking.display: omitted`, the default of Claude Opus 4.7), and
 *   `redacted_thinking` blocks are encrypted: both `redacted`. The usage reports no thinking
 *   tokens apart (they are in `output_tokens`).
 * - Gemini: parts with `thought: true` are thought summaries; `usageMetadata.thoughtsTokenCount`
 *   the thinking tokens (ai.google.dev/gemini-api/docs/thinking).
 *
 * `absent`: the reply has no reasoning channel at all; `empty`: the channel is there and holds
 * only whitespace (DeepSeek's `<think>\n\n</think>`).
 */
import { splitLeadingThink } from '../core/think.js';
import type { ReasoningVisibility } from '../ledger/schema.js';

/** What a reply says of its reasoning. */
export interface ReasoningChannel {
  /** The reasoning text as shown (null when none is shown). */
  reasoning: string | null;
  reasoning_visibility: ReasoningVisibility;
  /** Reasoning tokens the server reported (null: not reported apart). */
  reasoning_tokens: number | null;
}

/** A reply without a reasoning channel (an error body, a blocked prompt). */
export const NO_REASONING: ReasoningChannel = {
  reasoning: null,
  reasoning_visibility: 'absent',
  reasoning_tokens: null,
};

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
const blank = (s: string): boolean => s.trim() === '';

/** Pieces joined by a newline, or null when there are none. */
const joined = (parts: readonly string[]): string | null =>
  parts.length ? parts.join('\n') : null;

/** OpenRouter's `reasoning_details`: the text of its text and summary entries, and their types. */
function details(message: Rec): {
  text: string | null;
  summary: string | null;
  kinds: Set<string>;
} {
  const list = Array.isArray(message.reasoning_details)
    ? message.reasoning_details.filter(isRec)
    : [];
  const of = (type: string, field: string) =>
    joined(list.filter((d) => d.type === type).map((d) => str(d[field]) ?? ''));
  return {
    text: of('reasoning.text', 'text'),
    summary: of('reasoning.summary', 'summary'),
    kinds: new Set(list.map((d) => String(d.type))),
  };
}

/**
 * The reasoning of an OpenAI-compatible chat completion, and its content with a leading
 * `<think>` block split off (`content` as read; null stays null).
 */
export function completionReasoning(
  message: Rec,
  content: string | null,
  usage: unknown,
): { channel: ReasoningChannel; content: string | null } {
  const split = content === null ? null : splitLeadingThink(content);
  const d = details(message);
  const field = str(message.reasoning_content) ?? str(message.reasoning) ?? d.text ?? d.summary;
  const parts = [field, split?.reasoning ?? null].filter((s): s is string => s !== null);
  const text = joined(parts);
  const usageDetails = isRec(usage) ? usage.completion_tokens_details : null;
  const tokens = isRec(usageDetails) ? count(usageDetails.reasoning_tokens) : null;
  const summaryOnly = d.kinds.has('reasoning.summary') && !d.kinds.has('reasoning.text') && !split;
  let visibility: ReasoningVisibility;
  if (text !== null && !blank(text)) visibility = summaryOnly ? 'summary' : 'full';
  else if (d.kinds.has('reasoning.encrypted')) visibility = 'redacted';
  else if (text !== null || d.kinds.size > 0) visibility = 'empty';
  else if ((tokens ?? 0) > 0) visibility = 'redacted';
  else visibility = 'absent';
  return {
    channel: { reasoning: text, reasoning_visibility: visibility, reasoning_tokens: tokens },
    content: split ? split.answer : content,
  };
}

/**
 * Claude Sonnet 3.7 (`claude-3-7-sonnet-…`, also behind a prefix) shows its full thinking;
 * Claude 4 and later models a summary.
 */
const FULL_THINKING = 'claude-3-7-';

/** The reasoning of an Anthropic Messages reply (its content blocks and `model`). */
export function anthropicReasoning(blocks: readonly Rec[], model: string | null): ReasoningChannel {
  const thinking = blocks.filter((b) => b.type === 'thinking');
  const redacted = blocks.some((b) => b.type === 'redacted_thinking');
  const texts = thinking.map((b) => str(b.thinking) ?? '');
  // `display: omitted`: the block's text is empty and its signature carries the thinking.
  const omitted =
    thinking.length > 0 && thinking.every((b, i) => texts[i] === '' && str(b.signature));
  const text = omitted ? null : joined(texts);
  let visibility: ReasoningVisibility;
  if (redacted || omitted) visibility = 'redacted';
  else if (text === null) visibility = 'absent';
  else if (blank(text)) visibility = 'empty';
  else visibility = model?.includes(FULL_THINKING) ? 'full' : 'summary';
  return { reasoning: text, reasoning_visibility: visibility, reasoning_tokens: null };
}

/** The reasoning of a Gemini candidate (its parts) with the reply's `usageMetadata`. */
export function geminiReasoning(parts: readonly Rec[], meta: Rec | null): ReasoningChannel {
  const thoughts = parts
    .filter((p) => p.thought === true && typeof p.text === 'string')
    .map((p) => p.text as string);
  const tokens = count(meta?.thoughtsTokenCount);
  const text = joined(thoughts);
  let visibility: ReasoningVisibility;
  if (text !== null) visibility = blank(text) ? 'empty' : 'summary';
  else visibility = (tokens ?? 0) > 0 ? 'redacted' : 'absent';
  return { reasoning: text, reasoning_visibility: visibility, reasoning_tokens: tokens };
}
