// Refusal provenance of shapes the stand-ins do not send: a refusal without a category, a policy
// error of a shape stimkit does not know, a body the ledger cut, camelCase categories, a failed
// request and an answer with a normal stop (block-provenance.ts).
import { describe, expect, it } from 'vitest';
import { blockFields } from '../../src/score/block-provenance.js';
import type { ResponseRecord } from '../../src/score/types.js';

const base: ResponseRecord = {
  trial_id: 't_000000000000000000000000',
  model: 'm',
  response: null,
  simulated: false,
  truth: null,
  error: null,
};
const fields = (r: Partial<ResponseRecord>) => Object.values(blockFields({ ...base, ...r }));

describe('block provenance of other shapes', () => {
  it('an Anthropic refusal whose stop_details name no category', () => {
    const body = JSON.stringify({ type: 'refusal', category: null, explanation: null });
    expect(
      fields({
        outcome: 'provider_block',
        finish_reason: 'refusal',
        error_class: 'refusal',
        error_body: body,
      }),
    ).toEqual(['vendor_classifier', null, null, null]);
  });

  it('a policy error of a shape stimkit does not know is unclassified, with its code and message', () => {
    // DashScope's OpenAI-compatible error (https://help.aliyun.com/zh/model-studio/error-code).
    const body = JSON.stringify({
      error: {
        code: 'data_inspection_failed',
        message: 'Input data may contain inappropriate content.',
        type: 'data_inspection_failed',
      },
    });
    expect(
      fields({ outcome: 'provider_block', error_class: 'policy_block', error_body: body }),
    ).toEqual([
      'unclassified',
      'data_inspection_failed',
      'data_inspection_failed',
      'Input data may contain inappropriate content.',
    ]);
    // A body the ledger cut at 2,000 characters is no JSON: unclassified, nothing guessed.
    expect(
      fields({
        outcome: 'provider_block',
        error_class: 'policy_block',
        error_body: '{"error": {"code": "conte',
      }),
    ).toEqual(['unclassified', null, null, null]);
  });

  it('camelCase and upper-case categories in lower snake case, the raw value kept', () => {
    const body = JSON.stringify({
      content_filter_results: { selfHarm: { filtered: true, severity: 'medium' } },
      prompt_filter_results: null,
    });
    expect(
      fields({ outcome: 'provider_block', finish_reason: 'content_filter', error_body: body }),
    ).toEqual(['vendor_classifier', 'self_harm', 'selfHarm', 'self_harm:medium']);
    expect(
      fields({ outcome: 'provider_block', finish_reason: 'IMAGE_PROHIBITED_CONTENT' }),
    ).toEqual(['vendor_classifier', 'image_prohibited_content', 'IMAGE_PROHIBITED_CONTENT', null]);
  });

  it('nothing for an answer with a normal stop, a suppressed reply, and a failed request', () => {
    const none = [null, null, null, null];
    expect(fields({ outcome: 'answer', response: 'x', finish_reason: 'end_turn' })).toEqual(none);
    expect(fields({ outcome: 'suppressed', response: '', finish_reason: 'stop' })).toEqual(none);
    expect(fields({ outcome: 'failed', error_class: 'http_404', error_body: '{}' })).toEqual(none);
    // A provider block with no metadata at all is still unclassified, never an answer.
    expect(fields({ outcome: 'provider_block' })).toEqual(['unclassified', null, null, null]);
  });
});
