// Vendor replies for the refusal-provenance test (block-provenance.test.ts): each stand-in's
// script by trial k, in the documented shapes cited there.
import type { Action } from '../run/server.js';
import type { RouteAction } from '../run/vendor/openrouter.js';
import {
  ANTHROPIC_EXAMPLE,
  ANTHROPIC_REFUSAL_EXAMPLE,
  GEMINI_EXAMPLE,
  type VendorAction,
} from '../run/vendor/replies.js';

const body200 = (value: unknown): { kind: 'status'; status: number; body: string } => ({
  kind: 'status',
  status: 200,
  body: JSON.stringify(value),
});

/** Anthropic: the documented refusal (k 0), a stop reason stimkit does not know (k 1), a cut reply (k 3). */
export function anthropicScript(k: number): VendorAction {
  if (k === 0) return body200(ANTHROPIC_REFUSAL_EXAMPLE);
  if (k === 1)
    return body200({
      ...ANTHROPIC_EXAMPLE,
      stop_reason: 'new_stop_kind',
      content: [{ type: 'text', text: 'An answer.' }],
    });
  if (k === 3) return { kind: 'max_tokens' };
  return { kind: 'ok' };
}

/** A Gemini candidate with finish reason `finishReason` (and the given safety ratings). */
const geminiCandidate = (finishReason: string, text: string, safetyRatings?: unknown[]) => ({
  ...GEMINI_EXAMPLE,
  candidates: [
    {
      content: { parts: [{ text }], role: 'model' },
      finishReason,
      index: 0,
      ...(safetyRatings ? { safetyRatings } : {}),
    },
  ],
});

/** Gemini: the prompt blocked (k 0), a SAFETY stop (k 1), RECITATION (k 2), OTHER with text (k 3). */
export function geminiScript(k: number): VendorAction {
  if (k === 0) return { kind: 'blocked' };
  if (k === 1) return { kind: 'safety' };
  if (k === 2) return body200(geminiCandidate('RECITATION', ''));
  if (k === 3) return body200(geminiCandidate('OTHER', 'A partial answer.'));
  return { kind: 'ok' };
}

/** Azure OpenAI's documented filter results: hate filtered at high, the rest safe. */
const AZURE_RESULTS = {
  hate: { filtered: true, severity: 'high' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};

/** Azure: the completion filtered (k 0), the prompt filtered with a 400 (k 1), another 4xx (k 2). */
export function azureScript(k: number): Action {
  if (k === 0)
    return body200({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o',
      prompt_filter_results: [
        {
          prompt_index: 0,
          content_filter_results: { ...AZURE_RESULTS, hate: { filtered: false, severity: 'safe' } },
        },
      ],
      choices: [
        {
          index: 0,
          finish_reason: 'content_filter',
          message: { role: 'assistant', content: null },
          content_filter_results: AZURE_RESULTS,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 0, total_tokens: 10 },
    });
  if (k === 1)
    return {
      kind: 'status',
      status: 400,
      body: JSON.stringify({
        error: {
          message:
            "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
          type: null,
          param: 'prompt',
          code: 'content_filter',
          status: 400,
          innererror: {
            code: 'ResponsibleAIPolicyViolation',
            content_filter_result: {
              ...AZURE_RESULTS,
              jailbreak: { filtered: true, detected: true },
            },
          },
        },
      }),
    };
  if (k === 2)
    return {
      kind: 'status',
      status: 404,
      body: JSON.stringify({ error: { message: 'no such deployment' } }),
    };
  return { kind: 'ok' };
}

/** The gateway: moderation (k 0), a content_filter stop (k 1), the model's refusal (k 2), an empty stop (k 3), texts that refuse (k 4) and deflect (k 5). */
export function gatewayScript(_route: string, k: number): RouteAction {
  if (k === 0) return { kind: 'moderation' };
  if (k === 1) return { kind: 'content_filter' };
  if (k === 2) return { kind: 'refusal', refusal: 'I cannot help with that.' };
  if (k === 3) return { kind: 'empty_stop' };
  if (k === 4) return { kind: 'ok', text: "I can't help with that." };
  return { kind: 'ok', text: "Let's talk about something else." };
}
