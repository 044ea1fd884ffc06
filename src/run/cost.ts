/**
 * What a result cost, from the `usage` its reply reported and the model's `price` block
 * (src/models/price.ts). Each vendor reports usage its own way, and each is read as it bills:
 *
 * - OpenAI chat completions (and OpenAI-compatible servers): `prompt_tokens` includes the
 *   cached `prompt_tokens_details.cached_tokens`; `completion_tokens` includes reasoning tokens
 *   (platform.openai.com/docs/api-reference/chat/object, `usage`).
 * - Anthropic Messages: `input_tokens` excludes `cache_read_input_tokens` and
 *   `cache_creation_input_tokens`, which are billed apart (cache reads at the cached price,
 *   writes at the cache-write price); `output_tokens` includes thinking
 *   (docs.claude.com/en/docs/build-with-claude/prompt-caching, "Tracking cache performance").
 * - Gemini `usageMetadata`: `promptTokenCount` includes `cachedContentTokenCount`; thinking
 *   tokens (`thoughtsTokenCount`) are billed as output on top of `candidatesTokenCount`
 *   (ai.google.dev/gemini-api/docs/tokens and /pricing: "output price, including thinking tokens").
 *
 * Vendor fields are read first when a usage object carries both (a reply mapped onto OpenAI's
 * names keeps the vendor's own). Results that came back through a batch file are charged
 * `1 − batch_discount` of the price (OpenAI Batch, Anthropic Message Batches and Gemini Batch
 * Mode all document 50 %).
 */
import type { PriceBlock } from '../models/price.js';
import type { ModelStats } from './model-stats.js';

/** Input and output tokens as a vendor bills them. */
export interface BilledTokens {
  /** Input tokens at the full input price. */
  input: number;
  /** Input tokens read from a prompt cache. */
  cachedInput: number;
  /** Input tokens written to a prompt cache. */
  cacheWrite: number;
  /** Output tokens, reasoning or thinking included. */
  output: number;
}

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const has = (u: Record<string, unknown>, k: string) => typeof u[k] === 'number';

/** The billed token counts of a reply's usage, or null when it reports none. */
export function billedTokens(
  usage: Record<string, unknown> | null | undefined,
): BilledTokens | null {
  if (!usage || typeof usage !== 'object') return null;
  if (has(usage, 'input_tokens') || has(usage, 'output_tokens')) {
    return {
      input: n(usage.input_tokens),
      cachedInput: n(usage.cache_read_input_tokens),
      cacheWrite: n(usage.cache_creation_input_tokens),
      output: n(usage.output_tokens),
    };
  }
  if (has(usage, 'promptTokenCount') || has(usage, 'candidatesTokenCount')) {
    const cached = n(usage.cachedContentTokenCount);
    return {
      input: Math.max(0, n(usage.promptTokenCount) + n(usage.toolUsePromptTokenCount) - cached),
      cachedInput: cached,
      cacheWrite: 0,
      output: n(usage.candidatesTokenCount) + n(usage.thoughtsTokenCount),
    };
  }
  if (has(usage, 'prompt_tokens') || has(usage, 'completion_tokens')) {
    const details = usage.prompt_tokens_details as Record<string, unknown> | null | undefined;
    const cached = Math.min(n(details?.cached_tokens), n(usage.prompt_tokens));
    return {
      input: n(usage.prompt_tokens) - cached,
      cachedInput: cached,
      cacheWrite: 0,
      output: n(usage.completion_tokens),
    };
  }
  return null;
}

/** USD of `tokens` and `images` images at `price` (before any batch discount). */
export function priceOf(tokens: BilledTokens, images: number, price: PriceBlock): number {
  const perToken =
    tokens.input * price.input_per_mtok +
    tokens.cachedInput * (price.cached_input_per_mtok ?? price.input_per_mtok) +
    tokens.cacheWrite * (price.cache_write_per_mtok ?? price.input_per_mtok) +
    tokens.output * price.output_per_mtok;
  return perToken / 1_000_000 + images * (price.per_image_usd ?? 0);
}

/**
 * The cost of one result in USD, or null when the model has no price or the reply reported no
 * usage (a cost never guessed). `batch`: the result came back through a batch file.
 *
 * @example costOfUsage({prompt_tokens: 1000, completion_tokens: 100}, {input_per_mtok: 2.5, output_per_mtok: 10, …}, 0) // 0.0035
 */
export function costOfUsage(
  usage: Record<string, unknown> | null | undefined,
  price: PriceBlock | undefined,
  images: number,
  batch = false,
): number | null {
  if (!price) return null;
  const tokens = billedTokens(usage);
  if (!tokens) return null;
  return priceOf(tokens, images, price) * (batch ? 1 - price.batch_discount : 1);
}

/** Count a result's cost (null: usage without a price) in a model's counters. */
export function addCost(
  stats: ModelStats,
  usd: number | null,
  usage: Record<string, unknown> | null | undefined,
): void {
  if (usd !== null) stats.cost_usd += usd;
  else if (billedTokens(usage)) stats.unpriced++;
}
