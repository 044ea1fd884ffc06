/**
 * Replies with a reasoning channel, in the shapes the vendors document (values shortened), and
 * the reading each must get (client/reasoning.ts; the rule table in docs/formats/ledger.md).
 * Sources, by shape:
 * - DeepSeek: https://api-docs.deepseek.com/guides/reasoning_model (`reasoning_content` beside
 *   `content`) and https://api-docs.deepseek.com/api/create-chat-completion (usage
 *   `completion_tokens_details.reasoning_tokens`).
 * - vLLM's reasoning parsers: https://docs.vllm.ai/en/latest/features/reasoning_outputs.html
 *   (`reasoning_content`, null when the model gave none).
 * - OpenRouter: https://openrouter.ai/docs/use-cases/reasoning-tokens (`message.reasoning` and
 *   `reasoning_details` entries of type `reasoning.text` {text, signature}, `reasoning.summary`
 *   {summary}, `reasoning.encrypted` {data}).
 * - OpenAI reasoning models: https://platform.openai.com/docs/guides/reasoning (reasoning tokens
 *   are not visible through the API, are billed as output tokens and are counted in
 *   `usage.completion_tokens_details.reasoning_tokens`); a model without reasoning reports 0.
 * - A reasoning model served without a reasoning parser writes its trace into the content as
 *   `<think>…</think>` (DeepSeek-R1's chat template); DeepSeek's models answer some prompts with
 *   the trace suppressed, `<think>\n\n</think>`.
 * - Anthropic: https://docs.claude.com/en/docs/build-with-claude/extended-thinking (`thinking`
 *   blocks with a `signature`; "Differences in thinking across model versions": Claude Sonnet 3.7
 *   returns the full thinking, Claude 4 models a summary; `redacted_thinking` blocks carry
 *   encrypted `data`; with `thinking.display: "omitted"` a thinking block comes with an empty
 *   `thinking` field and its signature).
 * - Gemini: https://ai.google.dev/gemini-api/docs/thinking (thought summaries: parts with
 *   `thought: true` when `includeThoughts` is set; `usageMetadata.thoughtsTokenCount`, also
 *   reported when no thought is returned) and
 *   https://ai.google.dev/api/generate-content#UsageMetadata.
 */
import type { Provider } from '../../../src/client/providers/index.js';
import { ANTHROPIC_EXAMPLE, GEMINI_EXAMPLE } from './replies.js';

/** One documented shape: the reply body and the reading expected of it. */
export interface ReasoningCase {
  name: string;
  provider: Provider['name'];
  body: Record<string, unknown>;
  expected: {
    text: string | null;
    reasoning: string | null;
    reasoning_visibility: 'full' | 'summary' | 'redacted' | 'absent' | 'empty';
    reasoning_tokens: number | null;
    outcome?: string;
  };
}

const completion = (message: Record<string, unknown>, usage?: Record<string, unknown>) => ({
  id: 'chatcmpl-123',
  object: 'chat.completion',
  created: 1741569952,
  model: 'deepseek-reasoner',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 19, completion_tokens: 50, total_tokens: 69, ...usage },
});
const reasoningTokens = (n: number) => ({ completion_tokens_details: { reasoning_tokens: n } });

const OPENAI_CASES: ReasoningCase[] = [
  {
    name: 'DeepSeek reasoning_content, with its reasoning tokens',
    provider: 'openai',
    body: completion(
      { content: '9.8 is greater.', reasoning_content: 'Compare 9.11 and 9.80 digit by digit.' },
      reasoningTokens(40),
    ),
    expected: {
      text: '9.8 is greater.',
      reasoning: 'Compare 9.11 and 9.80 digit by digit.',
      reasoning_visibility: 'full',
      reasoning_tokens: 40,
    },
  },
  {
    name: 'DeepSeek reasoning_content empty',
    provider: 'openai',
    body: completion({ content: 'I cannot help with that.', reasoning_content: '' }),
    expected: {
      text: 'I cannot help with that.',
      reasoning: '',
      reasoning_visibility: 'empty',
      reasoning_tokens: null,
    },
  },
  {
    name: 'vLLM reasoning_content null (no reasoning given)',
    provider: 'openai',
    body: completion({ content: 'Agree', reasoning_content: null }),
    expected: {
      text: 'Agree',
      reasoning: null,
      reasoning_visibility: 'absent',
      reasoning_tokens: null,
    },
  },
  {
    name: 'OpenRouter reasoning with reasoning.text details',
    provider: 'openai',
    body: completion({
      content: 'Agree',
      reasoning: 'The statement holds because…',
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: 'The statement holds because…',
          signature: 'sig',
          format: 'anthropic-claude-v1',
          index: 0,
        },
      ],
    }),
    expected: {
      text: 'Agree',
      reasoning: 'The statement holds because…',
      reasoning_visibility: 'full',
      reasoning_tokens: null,
    },
  },
  {
    name: 'OpenRouter reasoning.summary details',
    provider: 'openai',
    body: completion(
      {
        content: 'Agree',
        reasoning: '**Weighing the claim** I compare both sides.',
        reasoning_details: [
          {
            type: 'reasoning.summary',
            summary: '**Weighing the claim** I compare both sides.',
            format: 'openai-responses-v1',
            index: 0,
          },
        ],
      },
      reasoningTokens(192),
    ),
    expected: {
      text: 'Agree',
      reasoning: '**Weighing the claim** I compare both sides.',
      reasoning_visibility: 'summary',
      reasoning_tokens: 192,
    },
  },
  {
    name: 'OpenRouter reasoning.encrypted details only',
    provider: 'openai',
    body: completion(
      {
        content: 'Agree',
        reasoning: null,
        reasoning_details: [
          {
            type: 'reasoning.encrypted',
            data: 'gAAAAABo…',
            format: 'openai-responses-v1',
            index: 0,
          },
        ],
      },
      reasoningTokens(64),
    ),
    expected: {
      text: 'Agree',
      reasoning: null,
      reasoning_visibility: 'redacted',
      reasoning_tokens: 64,
    },
  },
  {
    name: 'OpenAI o-series: reasoning tokens without text',
    provider: 'openai',
    body: {
      ...completion({ content: 'Disagree', refusal: null }, reasoningTokens(1024)),
      model: 'o3-mini',
    },
    expected: {
      text: 'Disagree',
      reasoning: null,
      reasoning_visibility: 'redacted',
      reasoning_tokens: 1024,
    },
  },
  {
    name: 'a leading <think> block split off the content',
    provider: 'openai',
    body: completion({ content: '<think>\nThe user asks about the island.\n</think>\n\nAgree' }),
    expected: {
      text: '\n\nAgree',
      reasoning: '\nThe user asks about the island.\n',
      reasoning_visibility: 'full',
      reasoning_tokens: null,
    },
  },
  {
    name: "DeepSeek's suppressed trace <think>\\n\\n</think>",
    provider: 'openai',
    body: completion({ content: '<think>\n\n</think>\n\nSorry, that is beyond my current scope.' }),
    expected: {
      text: '\n\nSorry, that is beyond my current scope.',
      reasoning: '\n\n',
      reasoning_visibility: 'empty',
      reasoning_tokens: null,
    },
  },
  {
    name: 'absent: no reasoning channel, 0 reasoning tokens (a model without reasoning)',
    provider: 'openai',
    body: {
      ...completion({ content: 'Agree', refusal: null }, reasoningTokens(0)),
      model: 'gpt-4o',
    },
    expected: {
      text: 'Agree',
      reasoning: null,
      reasoning_visibility: 'absent',
      reasoning_tokens: 0,
    },
  },
];

const signature =
  'WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/UvLEczmEsUjavL...';
const claude = (model: string, content: unknown[]) => ({ ...ANTHROPIC_EXAMPLE, model, content });

const ANTHROPIC_CASES: ReasoningCase[] = [
  {
    name: 'Claude Sonnet 3.7 thinking: the full trace',
    provider: 'anthropic',
    body: claude('claude-3-7-sonnet-20250219', [
      { type: 'thinking', thinking: 'Let me analyze this step by step...', signature },
      { type: 'text', text: 'Based on my analysis...' },
    ]),
    expected: {
      text: 'Based on my analysis...',
      reasoning: 'Let me analyze this step by step...',
      reasoning_visibility: 'full',
      reasoning_tokens: null,
    },
  },
  {
    name: 'Claude 4 thinking: a summary',
    provider: 'anthropic',
    body: claude('claude-sonnet-4-20250514', [
      { type: 'thinking', thinking: 'Let me analyze this step by step...', signature },
      { type: 'text', text: 'Based on my analysis...' },
    ]),
    expected: {
      text: 'Based on my analysis...',
      reasoning: 'Let me analyze this step by step...',
      reasoning_visibility: 'summary',
      reasoning_tokens: null,
    },
  },
  {
    name: 'redacted_thinking beside a thinking block',
    provider: 'anthropic',
    body: claude('claude-3-7-sonnet-20250219', [
      { type: 'thinking', thinking: 'Let me analyze this step by step...', signature },
      {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB9URj2pLmN3kF8/dW5hR7xJ0aP1oLs9yTcMnKVf2wRpEGjH9XZaBt4UvDcPrQ...',
      },
      { type: 'text', text: 'Based on my analysis...' },
    ]),
    expected: {
      text: 'Based on my analysis...',
      reasoning: 'Let me analyze this step by step...',
      reasoning_visibility: 'redacted',
      reasoning_tokens: null,
    },
  },
  {
    name: 'thinking.display omitted: an empty, signed thinking block',
    provider: 'anthropic',
    body: claude('claude-opus-4-7', [
      { type: 'thinking', thinking: '', signature },
      { type: 'text', text: 'Based on my analysis...' },
    ]),
    expected: {
      text: 'Based on my analysis...',
      reasoning: null,
      reasoning_visibility: 'redacted',
      reasoning_tokens: null,
    },
  },
  {
    name: 'empty thinking: a thinking block of whitespace',
    provider: 'anthropic',
    body: claude('claude-sonnet-4-20250514', [
      { type: 'thinking', thinking: '\n\n', signature },
      { type: 'text', text: 'I can’t help with that.' },
    ]),
    expected: {
      text: 'I can’t help with that.',
      reasoning: '\n\n',
      reasoning_visibility: 'empty',
      reasoning_tokens: null,
    },
  },
  {
    name: 'absent: no thinking block',
    provider: 'anthropic',
    body: ANTHROPIC_EXAMPLE,
    expected: {
      text: 'Hi! My name is Claude.',
      reasoning: null,
      reasoning_visibility: 'absent',
      reasoning_tokens: null,
    },
  },
];

const gemini = (parts: unknown[], usage: Record<string, unknown>) => ({
  ...GEMINI_EXAMPLE,
  candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 4, ...usage },
});

const GEMINI_CASES: ReasoningCase[] = [
  {
    name: 'thought summaries with thoughtsTokenCount',
    provider: 'gemini',
    body: gemini(
      [
        { text: '**Considering the question**\nI weigh the physics first.', thought: true },
        { text: 'Rayleigh scattering.' },
      ],
      { thoughtsTokenCount: 30, totalTokenCount: 42 },
    ),
    expected: {
      text: 'Rayleigh scattering.',
      reasoning: '**Considering the question**\nI weigh the physics first.',
      reasoning_visibility: 'summary',
      reasoning_tokens: 30,
    },
  },
  {
    name: 'thoughtsTokenCount without thought parts (includeThoughts unset)',
    provider: 'gemini',
    body: gemini([{ text: 'Rayleigh scattering.' }], {
      thoughtsTokenCount: 120,
      totalTokenCount: 132,
    }),
    expected: {
      text: 'Rayleigh scattering.',
      reasoning: null,
      reasoning_visibility: 'redacted',
      reasoning_tokens: 120,
    },
  },
  {
    name: 'an empty thought part',
    provider: 'gemini',
    body: gemini([{ text: ' ', thought: true }, { text: 'I can’t help with that.' }], {
      thoughtsTokenCount: 0,
      totalTokenCount: 12,
    }),
    expected: {
      text: 'I can’t help with that.',
      reasoning: ' ',
      reasoning_visibility: 'empty',
      reasoning_tokens: 0,
    },
  },
  {
    name: 'absent: no thought and no thoughtsTokenCount',
    provider: 'gemini',
    body: GEMINI_EXAMPLE,
    expected: {
      text: 'The sky is blue because of Rayleigh scattering.',
      reasoning: null,
      reasoning_visibility: 'absent',
      reasoning_tokens: null,
    },
  },
];

export const REASONING_CASES: readonly ReasoningCase[] = [
  ...OPENAI_CASES,
  ...ANTHROPIC_CASES,
  ...GEMINI_CASES,
];

/** A case's reply as one line of the provider's batch output file (batch/formats.ts). */
export function batchLineOf(c: ReasoningCase, id: string): Record<string, unknown> {
  if (c.provider === 'anthropic')
    return { custom_id: id, result: { type: 'succeeded', message: c.body } };
  if (c.provider === 'gemini') return { key: id, response: c.body };
  return {
    custom_id: id,
    response: { status_code: 200, request_id: 'req_1', body: c.body },
    error: null,
  };
}
