/**
 * One judge request: a pure function from (rubric, judged response, judge settings) to an
 * OpenAI chat-completions body. The judged image appears as a `sha256:` reference (as in run's
 * requests) until the image store swaps in its data URL, so the request hash does not depend on
 * reading images. The judge key of a judged response is `<trial id>@<respondent model>`: with
 * the judge's name (the ledger's model column) and the bundle digest (the ledger run's), it is the
 * (bundle digest, judge, trial × respondent model) key of every judge request.
 */
import type {
  ChatCompletionCreateParamsNonStreaming as OpenAIChatBody,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import type { ModelSpec } from '../models/schema.js';
import { IMAGE_REF, type RequestBody } from '../client/request.js';
import { judgeMessages, type JudgeInput } from './judge-prompt.js';
import { labelResponseFormat } from './label.js';
import type { Rubric } from '../study/rubric-schema.js';

/** Tokens a judge may write (a label with quotes and a rationale is well under this). */
const JUDGE_MAX_TOKENS = 2048;

/** The key of a judged response in the judge ledger's trial_id column. */
export function judgeKey(trialId: string, model: string): string {
  return `${trialId}@${model}`;
}

/** The (trial id, respondent model) of a judge key. */
export function splitJudgeKey(key: string): { trialId: string; model: string } {
  const at = key.indexOf('@');
  return { trialId: key.slice(0, at), model: key.slice(at + 1) };
}

/** A response to judge, with the inputs the rubric asks for (image as its digest). */
export interface JudgeTarget {
  trialId: string;
  model: string;
  input: Omit<JudgeInput, 'image'>;
  /** The image's sha256 (image trials), else null. */
  imageSha256: string | null;
  /** The simulator's truth (simulated respondents), else null. */
  truth: Record<string, unknown> | null;
}

/**
 * A judge's request body and its hash: the OpenAI-defined fields typed against the `openai` SDK
 * (a misspelt field or a wrong type fails tsc), the judge's `routing` as OpenRouter's `provider`
 * (as run sends a respondent's), then its `extra_body`. Shared by the audit judge and the
 * instrument's free-text judge.
 */
export function judgeBody(
  judge: ModelSpec,
  messages: ChatCompletionMessageParam[],
  maxTokens: number,
  responseFormat?: ResponseFormatJSONSchema,
): { body: RequestBody; sha256: string } {
  const mt = judge.sampling.max_tokens;
  const typed: OpenAIChatBody = { model: judge.api_model ?? judge.name, messages };
  if (judge.sampling.temperature !== 'drop') typed.temperature = 0;
  if (mt === 'max_tokens') typed.max_tokens = maxTokens;
  if (mt === 'max_completion_tokens') typed.max_completion_tokens = maxTokens;
  if (responseFormat) typed.response_format = responseFormat;
  const body = { ...typed } as RequestBody;
  if (judge.routing) body.provider = judge.routing;
  for (const [k, v] of Object.entries(judge.extra_body)) body[k] = v;
  return { body, sha256: sha256(canonicalJson(body)) };
}

/** Build the judge request body and its hash. `structured: false` leaves out response_format (servers that reject it). */
export function buildJudgeRequest(
  rubric: Rubric,
  target: JudgeTarget,
  judge: ModelSpec,
  structured = true,
): { body: RequestBody; sha256: string } {
  const image = target.imageSha256 ? `${IMAGE_REF}${target.imageSha256}` : null;
  const messages = judgeMessages(rubric, { ...target.input, image }, judge.image?.detail);
  return judgeBody(
    judge,
    messages,
    JUDGE_MAX_TOKENS,
    structured ? labelResponseFormat() : undefined,
  );
}

/** A 400/422 body that says the server does not support structured outputs. */
export const NO_SCHEMA_RE = /response_format|json_schema|structured output|guided_json/i;
