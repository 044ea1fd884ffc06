/**
 * One judge request: a pure function from (rubric, judged response, judge settings) to an
 * OpenAI chat-completions body. The judged image appears as a `sha256:` reference (as in run's
 * requests) until the image store swaps in its data URL, so the request hash does not depend on
 * reading images. The judge key of a judged response is `<trial id>@<respondent model>`: with
 * the judge's name (the ledger's model column) and the bundle digest (the ledger run's), it is the
 * (bundle digest, judge, trial × respondent model) key of every judge request.
 */
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import type { ModelSpec } from '../models/schema.js';
import { IMAGE_REF, type RequestBody } from '../run/request.js';
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

/** Build the judge request body and its hash. `structured: false` leaves out response_format (servers that reject it). */
export function buildJudgeRequest(
  rubric: Rubric,
  target: JudgeTarget,
  judge: ModelSpec,
  structured = true,
): { body: RequestBody; sha256: string } {
  const image = target.imageSha256 ? `${IMAGE_REF}${target.imageSha256}` : null;
  const messages = judgeMessages(rubric, { ...target.input, image }) as RequestBody['messages'];
  const body: RequestBody = { model: judge.api_model ?? judge.name, messages };
  if (judge.sampling.temperature !== 'drop') body.temperature = 0;
  if (judge.sampling.max_tokens !== 'drop') body[judge.sampling.max_tokens] = JUDGE_MAX_TOKENS;
  if (structured) body.response_format = labelResponseFormat();
  for (const [k, v] of Object.entries(judge.extra_body)) body[k] = v;
  return { body, sha256: sha256(canonicalJson(body)) };
}

/** A 400/422 body that says the server does not support structured outputs. */
export const NO_SCHEMA_RE = /response_format|json_schema|structured output|guided_json/i;
