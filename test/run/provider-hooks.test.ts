// Each provider's hooks, asked through the registry as the call sites ask them: its batch lines (the
// id where its format keeps it; an output line owned by exactly one provider; the verdict of a
// result and of an error line), what it refuses before sending, the output limit a reply can
// bill, its request profile and default endpoint.
import { describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import {
  endpointsOf,
  formatOf,
  providerNamed,
  providerOf,
  requestProfile,
} from '../../src/client/providers/index.js';
import { idOf, inputLine, lineVerdict, servedOf } from '../../src/batch/formats.js';
import { ModelSpec } from '../../src/models/schema.js';

const trial = (id: string, sampling: Record<string, unknown>, images: string[] = []) =>
  ({
    id,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    sampling,
    seed: null,
    images,
  }) as unknown as Trial;

const model = (spec: Record<string, unknown>) => ModelSpec.parse({ name: 'm', ...spec });
const EP = 'http://127.0.0.1:9/v1';

/** A succeeded output line of each format, answering "ok" from model `served`. */
const SUCCEEDED = {
  openai: {
    custom_id: 't-1',
    response: {
      status_code: 200,
      body: {
        model: 'served-o',
        choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      },
    },
    error: null,
  },
  anthropic: {
    custom_id: 't-1',
    result: {
      type: 'succeeded',
      message: {
        type: 'message',
        model: 'served-a',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
      },
    },
  },
  gemini: {
    key: 't-1',
    response: {
      modelVersion: 'served-g',
      candidates: [{ content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
    },
  },
} as const;

describe('provider hooks', () => {
  it.each(['openai', 'anthropic', 'gemini'] as const)(
    '%s: batch lines keep the id where the format does; one provider owns each output line',
    (name) => {
      const line = inputLine(name, 't-0123456789abcdef', { x: 1 });
      expect(idOf(name, line)).toBe('t-0123456789abcdef');
      const out = SUCCEEDED[name] as unknown as Record<string, unknown>;
      expect(formatOf(out)).toBe(name);
      const owners = (['openai', 'anthropic', 'gemini'] as const).filter((n) =>
        providerNamed(n).batch.owns(out),
      );
      expect(owners).toEqual([name]);
      expect(servedOf(name, out)).toBe(`served-${name[0]}`);
      const v = lineVerdict(providerNamed(name), out, JSON.stringify(out));
      expect(v).toMatchObject({ kind: 'final', reply: { outcome: 'answer', text: 'ok' } });
    },
  );

  it('error lines take their vendor’s HTTP status', () => {
    const anthropicErr = {
      custom_id: 't-1',
      result: { type: 'errored', error: { type: 'error', error: { type: 'overloaded_error' } } },
    };
    const geminiErr = { key: 't-1', error: { code: 8, message: 'quota', status: 'X' } };
    const status = (v: unknown) => (v as { httpStatus?: number }).httpStatus;
    expect(status(lineVerdict(providerNamed('anthropic'), anthropicErr, ''))).toBe(529);
    expect(status(lineVerdict(providerNamed('gemini'), geminiErr, ''))).toBe(429);
    expect(
      lineVerdict(providerNamed('anthropic'), { custom_id: 'x', result: { type: 'expired' } }, 'r'),
    ).toMatchObject({ kind: 'retry', errorClass: 'batch_expired', body: 'r' });
  });

  it('preflight: each vendor refuses what it would refuse, and only then looks for image trials', () => {
    const noMax = [trial('t1', {})];
    const images = () => [trial('t2', { max_tokens: 8 }, ['ab'])];
    const claude = model({ provider: 'anthropic', modalities: ['text'] });
    expect(() => providerOf(claude).preflight(claude, noMax, images)).toThrow(
      expect.objectContaining({ code: 'E_RUN_MAX_TOKENS' }),
    );
    const claude64 = model({ provider: 'anthropic', modalities: ['text'], max_tokens: 64 });
    expect(() => providerOf(claude64).preflight(claude64, noMax, images)).toThrow(
      expect.objectContaining({ code: 'E_RUN_MODALITY' }),
    );
    const flash = model({ provider: 'gemini', modalities: ['text'] });
    expect(() => providerOf(flash).preflight(flash, noMax, images)).toThrow(
      expect.objectContaining({ code: 'E_RUN_MODALITY' }),
    );
    const vlm = model({ endpoint: EP, modalities: ['text'] });
    let asked = 0;
    providerOf(vlm).preflight(vlm, noMax, () => (asked++, images()));
    const withImages = model({ provider: 'gemini' });
    providerOf(withImages).preflight(withImages, noMax, () => (asked++, images()));
    expect(asked).toBe(0);
  });

  it('the output limit a reply can bill', () => {
    const t = trial('t', { max_tokens: 64, thinking: true });
    const cap = (spec: Record<string, unknown>) =>
      providerOf(model(spec)).outputCap(t, model(spec));
    expect(cap({ provider: 'anthropic', thinking_budget: 2048 })).toBe(64 + 2048);
    expect(cap({ provider: 'gemini', thinking_budget: 2048 })).toBe(64);
    expect(cap({ endpoint: EP })).toBe(64);
    expect(cap({ endpoint: EP, sampling: { max_tokens: 'drop' } })).toBeUndefined();
  });

  it('profiles and default endpoints', () => {
    expect(requestProfile(model({ provider: 'anthropic' }))).toMatchObject({
      provider: 'anthropic',
      anthropic_version: '2026-10-21',
      max_tokens: null,
    });
    expect(requestProfile(model({ provider: 'gemini' }))).toMatchObject({ safety_settings: null });
    expect(requestProfile(model({ endpoint: EP, routing: { only: ['X'] } }))).toEqual({
      provider: 'openai',
      api_model: 'm',
      sampling: expect.any(Object),
      extra_body: {},
      routing: { only: ['X'] },
    });
    expect(requestProfile(model({ provider: 'sim', sim: { seed: 1 } }))).toMatchObject({
      provider: 'sim',
    });
    expect(endpointsOf(model({ provider: 'gemini' }))).toEqual([
      'https://generativelanguage.googleapis.com',
    ]);
    expect(endpointsOf(model({ provider: 'sim', sim: { seed: 1 } }))).toEqual([]);
  });
});
