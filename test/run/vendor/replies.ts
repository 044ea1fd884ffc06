/**
 * Replies in the vendors' documented response shapes, for the strict stand-in servers and the
 * reader tests. Each documented example below is copied in shape from the page it cites (values
 * shortened where marked).
 */

/** What a stand-in server does with one accepted request. */
export type VendorAction =
  | { kind: 'ok'; text?: string; thinking?: string }
  | { kind: 'refusal' }
  | { kind: 'max_tokens' }
  | { kind: 'blocked' }
  | { kind: 'safety' }
  | { kind: 'overloaded' }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'slow'; ms: number }
  | { kind: 'drop' };

/**
 * Anthropic Messages API, example response of POST /v1/messages.
 * Source: https://docs.anthropic.com/en/api/messages (Response, example), as of API version
 * 2023-06-01; the shape is unchanged in the SDK's `Message` type (@anthropic-ai/sdk 1.15.0).
 */
export const ANTHROPIC_EXAMPLE = {
  content: [{ text: 'Hi! My name is Claude.', type: 'text' }],
  id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
  model: 'claude-3-7-sonnet-20250219',
  role: 'assistant',
  stop_reason: 'end_turn',
  stop_sequence: null,
  type: 'message',
  usage: { input_tokens: 2095, output_tokens: 503 },
};

/**
 * A reply with extended thinking: a `thinking` block (with its signature) before the `text` block.
 * Source: https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking ("Here's an
 * example of the default response format"; signature shortened).
 */
export const ANTHROPIC_THINKING_EXAMPLE = {
  ...ANTHROPIC_EXAMPLE,
  content: [
    {
      type: 'thinking',
      thinking: 'Let me analyze this step by step...',
      signature:
        'WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/UvLEczmEsUjavL...',
    },
    { type: 'text', text: 'Based on my analysis...' },
  ],
};

/**
 * A refusal: HTTP 200 with `stop_reason: "refusal"`, returned "when streaming classifiers
 * intervene to handle potential policy violations", with `stop_details: {type: "refusal",
 * category, explanation}` (category and explanation may be null). The documented example, as is.
 * Source: https://platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals
 * ("API response format"), and the SDK's StopReason type (@anthropic-ai/sdk 1.15.0).
 */
export const ANTHROPIC_REFUSAL_EXAMPLE = {
  ...ANTHROPIC_EXAMPLE,
  content: [{ type: 'text', text: 'Hello..' }],
  stop_reason: 'refusal',
  stop_details: {
    type: 'refusal',
    category: 'cyber',
    explanation: 'This request was declined because it could enable cyber harm.',
  },
};

/**
 * A reply cut at max_tokens. Source: https://docs.anthropic.com/en/api/handling-stop-reasons
 * ("max_tokens": Claude stopped because it reached the max_tokens limit).
 */
export const ANTHROPIC_MAX_TOKENS_EXAMPLE = {
  ...ANTHROPIC_EXAMPLE,
  content: [{ type: 'text', text: 'Here is a very long essay that was cut' }],
  stop_reason: 'max_tokens',
};

/**
 * Gemini API, GenerateContentResponse of models.generateContent.
 * Source: https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse (fields
 * candidates[].content.parts, finishReason, safetyRatings, usageMetadata, modelVersion).
 */
export const GEMINI_EXAMPLE = {
  candidates: [
    {
      content: {
        parts: [{ text: 'The sky is blue because of Rayleigh scattering.' }],
        role: 'model',
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 11, totalTokenCount: 19 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'aBcDeFgHiJkLmN',
};

/**
 * A prompt blocked before the model answered: no candidates, `promptFeedback.blockReason`.
 * Source: https://ai.google.dev/api/generate-content#PromptFeedback ("If set, the prompt was
 * blocked and no candidates are returned"; BlockReason SAFETY, OTHER, BLOCKLIST,
 * PROHIBITED_CONTENT, IMAGE_SAFETY).
 */
export const GEMINI_BLOCKED_EXAMPLE = {
  promptFeedback: {
    blockReason: 'SAFETY',
    safetyRatings: [
      { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'HIGH' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'NEGLIGIBLE' },
    ],
  },
  usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
  modelVersion: 'gemini-2.5-flash',
};

/**
 * A candidate stopped by the safety filter. Source:
 * https://ai.google.dev/api/generate-content#FinishReason (SAFETY: "The response candidate content
 * was flagged for safety reasons"), with the candidate's safetyRatings.
 */
export const GEMINI_SAFETY_EXAMPLE = {
  candidates: [
    {
      content: { parts: [{ text: '' }], role: 'model' },
      finishReason: 'SAFETY',
      index: 0,
      safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true }],
    },
  ],
  usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
  modelVersion: 'gemini-2.5-flash',
};

/**
 * Thought summaries: parts with `thought: true` before the answer (thinkingConfig.includeThoughts).
 * Source: https://ai.google.dev/gemini-api/docs/thinking#summaries, with usageMetadata's
 * thoughtsTokenCount (https://ai.google.dev/api/generate-content#UsageMetadata).
 */
export const GEMINI_THINKING_EXAMPLE = {
  ...GEMINI_EXAMPLE,
  candidates: [
    {
      content: {
        parts: [
          { text: '**Considering the question**\nI weigh the physics first.', thought: true },
          { text: 'Rayleigh scattering.' },
        ],
        role: 'model',
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: {
    promptTokenCount: 8,
    candidatesTokenCount: 4,
    thoughtsTokenCount: 30,
    totalTokenCount: 42,
  },
};

/** A reply cut at maxOutputTokens. Source: https://ai.google.dev/api/generate-content#FinishReason (MAX_TOKENS). */
export const GEMINI_MAX_TOKENS_EXAMPLE = {
  ...GEMINI_EXAMPLE,
  candidates: [
    {
      content: { parts: [{ text: 'The sky is' }], role: 'model' },
      finishReason: 'MAX_TOKENS',
      index: 0,
    },
  ],
};

type Out = { status: number; text: string; headers?: Record<string, string> };
const json = (value: unknown, status = 200, headers?: Record<string, string>): Out => ({
  status,
  text: JSON.stringify(value),
  headers,
});

/** The Anthropic reply for an action. */
export function anthropicReply(a: VendorAction, model: string, k: number): Out {
  const base = {
    ...ANTHROPIC_EXAMPLE,
    id: `msg_${k}`,
    model,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  switch (a.kind) {
    case 'ok':
      return json({
        ...base,
        content: [
          ...(a.thinking
            ? [{ type: 'thinking', thinking: a.thinking, signature: 'c2lnbmF0dXJl' }]
            : []),
          { type: 'text', text: a.text ?? `answer to trial ${k}` },
        ],
      });
    case 'refusal':
      // The classifier's stop, as documented (ANTHROPIC_REFUSAL_EXAMPLE above).
      return json({
        ...base,
        content: [],
        stop_reason: 'refusal',
        stop_details: { type: 'refusal', category: null, explanation: null },
      });
    case 'max_tokens':
      return json({
        ...base,
        content: [{ type: 'text', text: `cut answer ${k}` }],
        stop_reason: 'max_tokens',
      });
    case 'overloaded':
      // https://docs.anthropic.com/en/api/errors: 529 overloaded_error
      return json(
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        529,
      );
    case 'status':
      return {
        status: a.status,
        text:
          a.body ??
          JSON.stringify({
            type: 'error',
            error: { type: 'api_error', message: `status ${a.status}` },
          }),
        headers: a.headers,
      };
    // Gemini's block kinds have no Anthropic reply; the server answers 'drop' and 'slow' itself
    // (a dropped socket; a late reply that the client has given up on).
    case 'blocked':
    case 'safety':
    case 'drop':
    case 'slow':
      return json(
        { type: 'error', error: { type: 'api_error', message: `no ${a.kind} in Anthropic` } },
        500,
      );
  }
}

/** The Gemini reply for an action. */
export function geminiReply(a: VendorAction, model: string, k: number): Out {
  const base = { ...GEMINI_EXAMPLE, modelVersion: model, responseId: `resp-${k}` };
  const cand = (parts: unknown[], finishReason: string) => ({
    ...base,
    candidates: [{ content: { parts, role: 'model' }, finishReason, index: 0 }],
  });
  switch (a.kind) {
    case 'ok':
      return json(
        cand(
          [
            ...(a.thinking ? [{ text: a.thinking, thought: true }] : []),
            { text: a.text ?? `answer to trial ${k}` },
          ],
          'STOP',
        ),
      );
    case 'max_tokens':
      return json(cand([{ text: `cut answer ${k}` }], 'MAX_TOKENS'));
    case 'blocked':
      return json({ ...GEMINI_BLOCKED_EXAMPLE, modelVersion: model });
    case 'safety':
      return json({ ...GEMINI_SAFETY_EXAMPLE, modelVersion: model });
    case 'overloaded':
      // https://ai.google.dev/gemini-api/docs/troubleshooting: 503 UNAVAILABLE, the model is overloaded
      return json(
        {
          error: {
            code: 503,
            message: 'The model is overloaded. Please try again later.',
            status: 'UNAVAILABLE',
          },
        },
        503,
      );
    case 'status':
      return {
        status: a.status,
        text:
          a.body ??
          JSON.stringify({
            error: { code: a.status, message: `status ${a.status}`, status: 'INTERNAL' },
          }),
        headers: a.headers,
      };
    // Gemini states a refusal as a block (above); the server answers 'drop' and 'slow' itself.
    case 'refusal':
    case 'drop':
    case 'slow':
      return json(
        { error: { code: 500, message: `no ${a.kind} in Gemini`, status: 'INTERNAL' } },
        500,
      );
  }
}
