// The reasoning channel of every vendor's documented reply shapes (vendor/reasoning-replies.ts
// cites the pages): the text, how visible it was and its tokens, read the same from a live reply
// and from a batch output line, and carried into the ledger's record of the result.
import { describe, expect, it } from 'vitest';
import { classify, recordOf, type Verdict } from '../../src/client/classify.js';
import { providerNamed } from '../../src/client/providers/index.js';
import { lineVerdict } from '../../src/batch/formats.js';
import { splitLeadingThink } from '../../src/core/think.js';
import { batchLineOf, REASONING_CASES } from './vendor/reasoning-replies.js';

const PROVIDERS = {
  openai: providerNamed('openai'),
  anthropic: providerNamed('anthropic'),
  gemini: providerNamed('gemini'),
};

const live = (provider: keyof typeof PROVIDERS, body: unknown): Verdict =>
  classify(
    {
      kind: 'http',
      status: 200,
      text: JSON.stringify(body),
      retryAfterMs: null,
      latencyMs: 1,
      headers: {},
    },
    (json, status) => PROVIDERS[provider].read(json, status),
  );

describe('the reasoning channel of each documented reply shape', () => {
  for (const c of REASONING_CASES) {
    it(`${c.provider}: ${c.name}`, () => {
      const v = live(c.provider, c.body);
      if (v.kind !== 'final') throw new Error(`not a final reply: ${JSON.stringify(v)}`);
      const { text, reasoning, reasoning_visibility, reasoning_tokens } = v.reply;
      const { outcome, ...expected } = c.expected;
      expect({ text, reasoning, reasoning_visibility, reasoning_tokens }).toEqual(expected);
      if (outcome) expect(v.reply.outcome).toBe(outcome);
      // The ledger's record carries the channel.
      const { final } = recordOf(v.reply, { request_sha256: 'x', attempts: 1 });
      expect(final).toMatchObject({
        reasoning_text: expected.reasoning,
        reasoning_visibility: expected.reasoning_visibility,
        reasoning_tokens: expected.reasoning_tokens,
      });
      // An imported batch line of the same reply reads the same.
      const line = batchLineOf(c, 't_1');
      const b = lineVerdict(PROVIDERS[c.provider], line, JSON.stringify(line));
      expect(b).toMatchObject({
        kind: 'final',
        reply: { text, reasoning, reasoning_visibility, reasoning_tokens },
      });
    });
  }

  it('a reply that is only a trace is suppressed, its trace kept as reasoning', () => {
    const v = live('openai', {
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: '<think>weighing</think>' },
          finish_reason: 'stop',
        },
      ],
    });
    expect(v).toMatchObject({
      kind: 'final',
      reply: {
        outcome: 'suppressed',
        text: '',
        reasoning: 'weighing',
        reasoning_visibility: 'full',
      },
    });
  });

  it('an HTTP policy block has no reasoning channel', () => {
    const v = classify({
      kind: 'http',
      status: 400,
      text: '{"error":{"code":"content_filter"}}',
      retryAfterMs: null,
      latencyMs: 1,
      headers: {},
    });
    expect(v).toMatchObject({
      kind: 'final',
      reply: { reasoning_visibility: 'absent', reasoning_tokens: null },
    });
  });
});

describe('splitLeadingThink', () => {
  it('splits only a leading block, case-insensitively, after whitespace', () => {
    expect(splitLeadingThink(' <THINK>a</think>b')).toEqual({ reasoning: 'a', answer: 'b' });
    expect(splitLeadingThink('x<think>a</think>b')).toBeNull();
    expect(splitLeadingThink('<think>cut while thinking')).toEqual({
      reasoning: 'cut while thinking',
      answer: '',
    });
  });

  it('500,000 unclosed <think> in one pass (the regex scan takes hours)', () => {
    const text = '<think>'.repeat(500_000);
    expect(splitLeadingThink(text)).toEqual({ reasoning: '<think>'.repeat(499_999), answer: '' });
    const closed = `${text}</think>ok`;
    expect(splitLeadingThink(closed)?.answer).toBe('ok');
    const v = live('openai', {
      choices: [
        { index: 0, message: { role: 'assistant', content: closed }, finish_reason: 'stop' },
      ],
    });
    expect(v).toMatchObject({ kind: 'final', reply: { text: 'ok', reasoning_visibility: 'full' } });
  });
});
