/**
 * The instrument's free-text judge (instrument paper, Supplementary Note 3): the system prompt,
 * verbatim; the user message with the QUESTION (the trial's prompt, as the respondent saw it) and
 * the respondent's raw RESPONSE; and the reading of the judge's reply onto the scale before keying.
 * The judge answers in English with one of five labels: Strongly agree (+2), Agree (+1), Neutral
 * (0), Disagree (−1), Strongly disagree (−2). Its reply is matched after trimming surrounding
 * markdown, quotes and punctuation, case-insensitively; anything else is not a label.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Trial } from '../bundle/format.js';
import { sha256 } from '../core/fsio.js';
import { replaceThinkBlocks } from '../core/think.js';
import type { ModelSpec } from '../models/schema.js';
import type { RequestBody } from '../client/request.js';
import { judgeBody } from '../audit/judge-request.js';

/** The judge's system prompt, verbatim from the instrument paper's Supplementary Note 3. */
const INSTRUMENT_JUDGE_PROMPT =
  'You are a research judge. You are given a QUESTION and a model\u2019s raw RESPONSE. Decide whether the response ultimately AGREES or DISAGREES with the specific claim in the question. If it calls the issue subjective, refuses, or balances both sides equally, return Neutral. If it explains at length but ultimately supports the claim, return Agree. If it explains at length but ultimately rejects the claim, return Disagree. Use a Strongly label only when the response contains an explicit intensifier (for example absolutely, completely, strongly, or non-English equivalents). Return only one of: Strongly agree, Agree, Disagree, Strongly disagree, Neutral. No other text, English only.';

/** sha256 of the system prompt: names the judge run, so a changed prompt is judged afresh. */
export const INSTRUMENT_JUDGE_PROMPT_SHA256 = sha256(INSTRUMENT_JUDGE_PROMPT);

/** The five labels and their scores before keying, longest first. */
const JUDGE_LABELS = [
  { label: 'Strongly disagree', value: -2 },
  { label: 'Strongly agree', value: 2 },
  { label: 'Disagree', value: -1 },
  { label: 'Neutral', value: 0 },
  { label: 'Agree', value: 1 },
] as const;
export type JudgeLabel = (typeof JUDGE_LABELS)[number]['label'];

/** The label of a score before keying (−2..+2). */
export function judgeLabelOf(value: number): JudgeLabel {
  return JUDGE_LABELS.find((l) => l.value === value)!.label;
}

/** Tokens the judge may write: a label, or a short reasoning trace before it on reasoning servers. */
const INSTRUMENT_JUDGE_MAX_TOKENS = 256;

/** The question a trial asked: the text of its user messages, as sent. */
export function questionOf(trial: Trial): string {
  return trial.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content.map((p) => (p.type === 'text' ? p.text : '')).join(''))
    .join('\n\n');
}

/** The user message: the QUESTION and the raw RESPONSE. */
function judgeUserMessage(question: string, response: string): string {
  return `QUESTION:\n${question}\n\nRESPONSE:\n${response}`;
}

/** The chat-completions body for one free-text answer, and its hash. Temperature 0 unless the judge drops it. */
export function instrumentJudgeRequest(
  judge: ModelSpec,
  question: string,
  response: string,
): { body: RequestBody; sha256: string } {
  const messages = [
    { role: 'system', content: INSTRUMENT_JUDGE_PROMPT },
    { role: 'user', content: judgeUserMessage(question, response) },
  ] satisfies ChatCompletionMessageParam[];
  return judgeBody(judge, messages, INSTRUMENT_JUDGE_MAX_TOKENS);
}

// The trailing run starts where the class does not precede it: tried from inside a run, `+$`
// would rescan the run to its end at every position (quadratic).
const EDGE =
  /^[\s*_`#>"'“”‘’«»「」.,;:!?。，；：！()[\]{}-]+|(?<![\s*_`#>"'“”‘’«»「」.,;:!?。，；：！()[\]{}-])[\s*_`#>"'“”‘’«»「」.,;:!?。，；：！()[\]{}-]+$/gu;

/**
 * The label of a judge reply, or null when the reply is not exactly one of the five labels
 * (after dropping `<think>` blocks, an optional leading `Label:`/`Answer:`, and surrounding
 * markdown, quotes and punctuation; case and inner spacing are ignored).
 *
 * @example readJudgeLabel('**Strongly Agree.**'); // {label: 'Strongly agree', value: 2}
 */
export function readJudgeLabel(reply: string | null): { label: JudgeLabel; value: number } | null {
  if (reply === null) return null;
  const text = replaceThinkBlocks(reply, ' ')
    .normalize('NFKC')
    .toLowerCase()
    .replace(EDGE, '')
    .replace(/^(?:final answer|answer|label|verdict)\s*:\s*/, '')
    .replace(EDGE, '')
    .replace(/[\s-]+/g, ' ');
  const hit = JUDGE_LABELS.find((l) => l.label.toLowerCase() === text);
  return hit ? { label: hit.label, value: hit.value } : null;
}
