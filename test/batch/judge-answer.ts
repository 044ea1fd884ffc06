/**
 * The test judge's answer to one chat-completions request, shared by the live test judge server
 * (judge-server.ts) and the fake batch processor (fake-batch.ts), so that a judging done live and
 * one done through batch files get the same replies. The answer depends only on the request body:
 * an audit request (it asks for the label's JSON schema) gets a valid label, an instrument
 * request (the paper's free-text judge prompt) gets one of the five labels.
 */
import { createHash } from 'node:crypto';

const LABELS = ['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree', 'Neutral'];

function auditLabel(h: number, image: boolean): Record<string, unknown> {
  const integrity = h % 3 !== 0;
  return {
    explicit_refusal: false,
    refusal_reason: null,
    info_integrity: integrity,
    integrity_failure_type: integrity ? null : 'fabrication',
    covered_facts: [],
    missing_facts: [],
    visual_grounded: image ? h % 2 === 0 : null,
    state_aligned: false,
    ccp_strategy: [],
    ccp_direction: null,
    ccp_quotes: [],
    language_consistent: h % 5 !== 0,
    rationale: `test judge reply ${h % 97}`,
    confidence: 0.9,
  };
}

/** The chat.completion body the test judge answers `body` with. */
export function judgeCompletion(body: any): Record<string, unknown> {
  const digest = createHash('sha256').update(JSON.stringify(body.messages)).digest();
  const h = digest.readUInt32BE(0);
  const user = body.messages[body.messages.length - 1].content;
  const image = Array.isArray(user) && user.some((p: any) => p.type === 'image_url');
  const content = body.response_format
    ? JSON.stringify(auditLabel(h, image))
    : LABELS[h % LABELS.length]!;
  return {
    id: `chatcmpl-${digest.toString('hex').slice(0, 12)}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: body.model,
    system_fingerprint: 'fp_judge',
    choices: [
      { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 100 + (h % 50), completion_tokens: 20, total_tokens: 120 + (h % 50) },
  };
}
