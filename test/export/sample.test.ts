/**
 * One result as an Inspect sample (src/export/inspect-sample.ts), from a fixed trial and ledger
 * result: compared whole with a golden file (fixtures/golden-sample.json, key order included),
 * and each outcome's stop reason and reply.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import { sha256 } from '../../src/core/fsio.js';
import type { LedgerResult } from '../../src/ledger/read.js';
import { buildSample, STOP_REASON } from '../../src/export/inspect-sample.js';
import { inspectValidator } from './schema.js';

const IMAGE = Buffer.from('a tiny stand-in for a PNG');
const DIGEST = sha256(IMAGE);

const TRIAL: Trial = {
  id: 't_000000000000000000000001',
  paradigm: 'describe',
  arm: null,
  lang: 'en',
  entry: 'core-001',
  item: null,
  topic: null,
  variant: 'A0',
  framing: null,
  iteration: null,
  seed: 622,
  prompt: 'describe',
  wrappers: null,
  models: 'vlm',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'image', sha256: DIGEST, file: `images/${DIGEST}.png`, media_type: 'image/png' },
        { type: 'text', text: 'Describe the content of this photograph.' },
      ],
    },
  ],
  images: [DIGEST],
  sampling: { temperature: 0.7, max_tokens: 64 },
};

const RESULT: LedgerResult = {
  run: 'main',
  bundle_digest: 'b'.repeat(64),
  model: 'qwen-vl',
  trial_id: TRIAL.id,
  trial: { ...TRIAL, block: 'describe', model_set: 'vlm' },
  outcome: 'answer',
  text: 'A crowd on a square.',
  reasoning: 'Look at the picture.',
  finish_reason: 'stop',
  usage: { prompt_tokens: 120, completion_tokens: 6, total_tokens: 126 },
  served_model: 'Qwen/Qwen2.5-VL-7B-Instruct',
  system_fingerprint: null,
  simulated: false,
  truth: null,
  error_class: null,
  http_status: null,
  error_body: null,
  dropped: ['top_k'],
  attempts: 1,
  latency_ms: 1250,
  finished_at: '2026-01-02T03:04:05.000Z',
  request_sha256: 'c'.repeat(64),
  sent_images: [],
  cost_usd: 0.000132,
  route_provider: null,
  response_id: 'cmpl-1',
  request_id: null,
  region: null,
  endpoint: 'http://127.0.0.1:8000/v1',
  route: 'http://127.0.0.1:8000/v1',
  reasoning_visibility: null,
  reasoning_tokens: null,
};

const CTX = {
  id: 'core-001.A0.en',
  epoch: 2,
  model: 'openai/qwen-vl',
  polarity: null,
  scores: { d6_length_clean: { value: 20, metadata: { d6_length_raw: 20 }, history: [] as [] } },
  image: (d: string) => Promise.resolve(`data:image/png;base64,${d === DIGEST ? 'AAAA' : 'x'}`),
};

describe('buildSample', () => {
  it('equals the golden sample', async () => {
    const { sample } = await buildSample(TRIAL, RESULT, CTX);
    const golden = await readFile(
      new URL('./fixtures/golden-sample.json', import.meta.url),
      'utf8',
    );
    expect(JSON.stringify(sample)).toBe(JSON.stringify(JSON.parse(golden)));
    const v = inspectValidator('EvalSample');
    expect(v(sample) ? [] : v.errors).toEqual([]);
  });

  it.each(Object.entries(STOP_REASON))('%s → stop reason %s', async (outcome, stop) => {
    const noText = ['failed', 'provider_block'].includes(outcome);
    const r = { ...RESULT, outcome, reasoning: null, text: noText ? null : 'I cannot help.' };
    const { sample, summary } = await buildSample(TRIAL, r as LedgerResult, CTX);
    const choice = sample.output.choices[0]!;
    expect(choice.stop_reason).toBe(stop);
    expect(sample.scores.outcome!.value).toBe(outcome);
    expect(choice.message.content).toEqual([
      {
        type: 'text',
        text: noText ? '' : 'I cannot help.',
        ...(outcome === 'model_refusal' ? { refusal: true } : {}),
      },
    ]);
    expect(sample.error !== undefined).toBe(outcome === 'failed');
    expect(summary.error !== undefined).toBe(outcome === 'failed');
    const v = inspectValidator('EvalSample');
    expect(v(sample) ? [] : v.errors).toEqual([]);
  });

  it.each([
    ['full', 'Look at the picture.', { reasoning: 'Look at the picture.', redacted: false }],
    [
      'summary',
      'Looked at it.',
      { reasoning: 'Looked at it.', summary: 'Looked at it.', redacted: false },
    ],
    ['redacted', null, { reasoning: '', redacted: true }],
    ['empty', '\n\n', { reasoning: '\n\n', redacted: false }],
  ] as const)('reasoning %s → a ContentReasoning the schema takes', async (vis, text, block) => {
    const r = { ...RESULT, reasoning: text, reasoning_visibility: vis, reasoning_tokens: 7 };
    const { sample } = await buildSample(TRIAL, r, CTX);
    const message = sample.output.choices[0]!.message;
    expect(message.content[0]).toEqual({ type: 'reasoning', ...block });
    expect(Object.values(sample.model_usage)[0]).toMatchObject({ reasoning_tokens: 7 });
    const v = inspectValidator('EvalSample');
    expect(v(sample) ? [] : v.errors).toEqual([]);
  });

  it('absent reasoning → no reasoning block', async () => {
    const r = { ...RESULT, reasoning: null, reasoning_visibility: 'absent' };
    const { sample } = await buildSample(TRIAL, r as LedgerResult, CTX);
    expect(sample.output.choices[0]!.message.content.map((c) => c.type)).toEqual(['text']);
  });
});
