// A result's cost from its usage, as each vendor bills it (src/run/cost.ts cites the pages):
// OpenAI's prompt_tokens include cached tokens; Anthropic's input_tokens exclude cache reads and
// writes; Gemini's promptTokenCount includes cached content and thinking is billed as output.
import { describe, expect, it } from 'vitest';
import { PriceBlock } from '../../src/models/price.js';
import { readCompletion } from '../../src/client/classify.js';
import { readGemini } from '../../src/client/providers/gemini.js';
import { billedTokens, costOfUsage } from '../../src/run/cost.js';

const price = PriceBlock.parse({
  input_per_mtok: 2,
  output_per_mtok: 10,
  cached_input_per_mtok: 0.5,
  cache_write_per_mtok: 2.5,
  batch_discount: 0.5,
  per_image_usd: 0.001,
});

describe('costOfUsage', () => {
  it('OpenAI: cached tokens come out of prompt_tokens at the cached price', () => {
    const usage = {
      prompt_tokens: 1000,
      completion_tokens: 200,
      total_tokens: 1200,
      prompt_tokens_details: { cached_tokens: 400 },
    };
    expect(billedTokens(usage)).toEqual({
      input: 600,
      cachedInput: 400,
      cacheWrite: 0,
      output: 200,
    });
    expect(costOfUsage(usage, price, 0)).toBeCloseTo((600 * 2 + 400 * 0.5 + 200 * 10) / 1e6, 12);
  });

  it('Anthropic: cache reads and writes are billed apart from input_tokens', () => {
    const usage = {
      input_tokens: 50,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 200,
      output_tokens: 300,
    };
    expect(costOfUsage(usage, price, 0)).toBeCloseTo(
      (50 * 2 + 1000 * 0.5 + 200 * 2.5 + 300 * 10) / 1e6,
      12,
    );
  });

  it('Gemini: cached content out of promptTokenCount, thinking billed as output', () => {
    const usage = {
      promptTokenCount: 1000,
      cachedContentTokenCount: 600,
      candidatesTokenCount: 100,
      thoughtsTokenCount: 50,
      totalTokenCount: 1150,
    };
    expect(billedTokens(usage)).toEqual({
      input: 400,
      cachedInput: 600,
      cacheWrite: 0,
      output: 150,
    });
  });

  it('adds per-image prices, halves batch results, and never guesses without usage or price', () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 0 };
    expect(costOfUsage(usage, price, 2)).toBeCloseTo(0.002 + 0.002, 12);
    expect(costOfUsage(usage, price, 2, true)).toBeCloseTo(0.002, 12);
    expect(costOfUsage(null, price, 0)).toBeNull();
    expect(costOfUsage({}, price, 0)).toBeNull();
    expect(costOfUsage(usage, undefined, 0)).toBeNull();
  });

  it('reasoning tokens are output, counted once, as the reply was recorded', () => {
    const usageOf = (v: ReturnType<typeof readGemini>) =>
      v.kind === 'final' ? v.reply.usage : null;
    // OpenAI: completion_tokens already include completion_tokens_details.reasoning_tokens.
    const o3 = readCompletion(
      {
        choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: 10,
          completion_tokens: 1030,
          completion_tokens_details: { reasoning_tokens: 1024 },
        },
      },
      200,
    );
    expect(billedTokens(usageOf(o3))?.output).toBe(1030);
    // Gemini: thoughtsTokenCount is billed on top of candidatesTokenCount, also when a reply was
    // cut while thinking and reports no candidates tokens.
    const thought = (meta: Record<string, number>) =>
      readGemini(
        {
          candidates: [{ content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 8, ...meta },
        },
        200,
      );
    expect(
      billedTokens(usageOf(thought({ candidatesTokenCount: 4, thoughtsTokenCount: 30 })))?.output,
    ).toBe(34);
    expect(billedTokens(usageOf(thought({ thoughtsTokenCount: 30 })))?.output).toBe(30);
  });
});
