// The pure parts: the request body a trial becomes (vLLM mapping, per-model drops, extra_body),
// its hash, --where, backoff and the adaptive concurrency limit.
import { describe, expect, it } from 'vitest';
import { ModelSpec } from '../../src/models/schema.js';
import { AdaptiveLimit } from '../../src/client/limiter.js';
import { backoffDelay } from '../../src/client/backoff.js';
import { elideImages } from '../../src/client/images.js';
import { buildRequest } from '../../src/client/request.js';
import { matches, parseWhere } from '../../src/run/select.js';
import { retryAfterMs } from '../../src/client/transport.js';
import { runTrials } from './fixture.js';

const [text, , image] = [runTrials(1)[0]!, null, runTrials(1)[1]!];
const spec = (extra: Record<string, unknown> = {}) =>
  ModelSpec.parse({ name: 'Qwen2-VL-7B', endpoint: 'http://127.0.0.1:1/v1', ...extra });

describe('buildRequest', () => {
  it('maps sampling the vLLM way by default, with the trial seed', () => {
    const { body, dropped } = buildRequest(text, spec({ api_model: 'Qwen/Qwen2-VL-7B-Instruct' }));
    expect(body).toEqual({
      model: 'Qwen/Qwen2-VL-7B-Instruct',
      messages: [{ role: 'user', content: 'trial 0: please tell me about subject 0.' }],
      temperature: 0.7,
      top_p: 0.8,
      top_k: 20,
      max_tokens: 64,
      seed: 42,
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(dropped).toEqual([]);
  });

  it('drops what a server rejects, records it, and merges extra_body last', () => {
    const { body, dropped } = buildRequest(
      text,
      spec({
        sampling: { top_k: 'drop', thinking: 'drop', max_tokens: 'max_completion_tokens' },
        extra_body: { reasoning: { effort: 'none' } },
      }),
    );
    expect(body.top_k).toBeUndefined();
    expect(body.chat_template_kwargs).toBeUndefined();
    expect(body.max_completion_tokens).toBe(64);
    expect(body.reasoning).toEqual({ effort: 'none' });
    expect(dropped).toEqual(['top_k', 'thinking']);
  });

  it('refers to images by digest in the hashed body; the hash is stable and changes with the request', () => {
    const a = buildRequest(image, spec());
    const content = a.body.messages[0]!.content as any[];
    expect(content[0]).toEqual({
      type: 'image_url',
      image_url: { url: `sha256:${image.images[0]}` },
    });
    expect(a.sha256).toBe(buildRequest(image, spec()).sha256);
    expect(a.sha256).not.toBe(buildRequest(image, spec({ api_model: 'other' })).sha256);
    expect(a.sha256).not.toBe(buildRequest(image, spec({ extra_body: { x: 1 } })).sha256);
    expect(a.sha256).toBe(
      buildRequest(image, spec({ endpoint: 'http://127.0.0.1:2/v1', concurrency: 1, timeout_s: 5 }))
        .sha256,
    );
    expect(JSON.stringify(elideImages(a.body))).toContain('elided');
  });
});

describe('--where', () => {
  it('filters on trial fields, with | for alternatives', () => {
    const w = parseWhere('paradigm=describe|comment-text,lang=zh');
    expect(matches(text, w)).toBe(false); // lang en
    expect(matches(image, w)).toBe(true);
    expect(matches(image, parseWhere('block=describe,variant=A0'))).toBe(true);
    expect(() => parseWhere('colour=red')).toThrow(/unknown trial field "colour"/);
    expect(() => parseWhere('lang')).toThrow(/field=value/);
  });
});

describe('retries', () => {
  it('reads Retry-After in seconds or as a date, and retry-after-ms', () => {
    const h = (o: Record<string, string>) => ({ get: (k: string) => o[k] ?? null });
    expect(retryAfterMs(h({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after-ms': '250', 'retry-after': '3' }))).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(6000);
    expect(retryAfterMs(h({}))).toBeNull();
  });

  it('backs off exponentially with full jitter, or as the server says', () => {
    const b = { baseMs: 100, capMs: 1000 };
    expect(backoffDelay(1, b, null, () => 0.999)).toBeCloseTo(99.9);
    expect(backoffDelay(3, b, null, () => 0.5)).toBe(200);
    expect(backoffDelay(10, b, null, () => 0.5)).toBe(500);
    expect(backoffDelay(2, b, 1234, () => 0)).toBe(1234);
  });

  it('halves concurrency on 429 and raises it again as calls succeed', () => {
    const l = new AdaptiveLimit(16);
    l.onRateLimited(10_000);
    expect(l.limit).toBe(8);
    l.onRateLimited(10_500); // within a second: one cut per burst
    expect(l.limit).toBe(8);
    l.onRateLimited(12_000);
    expect(l.limit).toBe(4);
    for (let i = 0; i < 4; i++) l.onSuccess();
    expect(l.limit).toBe(5);
    for (let i = 0; i < 200; i++) l.onSuccess();
    expect(l.limit).toBe(16);
  });
});

describe('recorded endpoints', () => {
  it('never keep user info or a query string', async () => {
    const { recordedEndpoint } = await import('../../src/client/send.js');
    expect(recordedEndpoint('https://user:pw@gw.example/v1?key=abc')).toBe('https://gw.example/v1');
    expect(recordedEndpoint('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
  });
});

describe('classify', () => {
  it('sorts every status into retry, finding, failure or auth', async () => {
    const { classify } = await import('../../src/client/classify.js');
    const http = (status: number, text = '{}') =>
      classify({ kind: 'http', status, text, retryAfterMs: null, latencyMs: 1 });
    expect(http(400, '{"error":"bad field"}')).toMatchObject({
      kind: 'failed',
      errorClass: 'http_400',
    });
    expect(http(413)).toMatchObject({ kind: 'failed', errorClass: 'http_413' });
    expect(http(422)).toMatchObject({ kind: 'failed', errorClass: 'http_422' });
    expect(http(404)).toMatchObject({ kind: 'failed', errorClass: 'http_404' });
    expect(http(403)).toMatchObject({ kind: 'auth', httpStatus: 403 });
    expect(http(408)).toMatchObject({ kind: 'retry', errorClass: 'timeout' });
    expect(http(503)).toMatchObject({ kind: 'retry', errorClass: 'server_error' });
    expect(
      http(
        400,
        '{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI content management policy."}}',
      ),
    ).toMatchObject({ kind: 'final', reply: { outcome: 'provider_block' } });
    const refusal = http(
      200,
      JSON.stringify({
        choices: [
          { message: { content: null, refusal: 'I can’t help with that.' }, finish_reason: 'stop' },
        ],
      }),
    );
    expect(refusal).toMatchObject({
      kind: 'final',
      reply: { outcome: 'model_refusal', text: 'I can’t help with that.' },
    });
    const parts = http(
      200,
      JSON.stringify({
        choices: [
          {
            message: {
              content: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 'b' },
              ],
            },
            finish_reason: 'stop',
          },
        ],
      }),
    );
    expect(parts).toMatchObject({ kind: 'final', reply: { outcome: 'answer', text: 'ab' } });
    expect(http(200, '{"choices": "none"}')).toMatchObject({
      kind: 'retry',
      errorClass: 'no_choices',
    });
    expect(
      classify({ kind: 'error', errorClass: 'interrupted', message: '', latencyMs: 1 }),
    ).toEqual({ kind: 'interrupted' });
  });
});
