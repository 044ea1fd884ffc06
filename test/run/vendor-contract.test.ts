// The contract with the vendors' own definitions: the response readers on the vendors' documented
// example responses (replies.ts cites each page), and the strict stand-ins reject what the APIs
// reject (so that a body stimkit builds wrong cannot pass the end-to-end tests). The request
// builders are typed against the official SDKs (`satisfies`): a field they do not define fails tsc.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readAnthropic } from '../../src/client/providers/anthropic.js';
import { readGemini } from '../../src/client/providers/gemini.js';
import {
  ANTHROPIC_EXAMPLE,
  ANTHROPIC_MAX_TOKENS_EXAMPLE,
  ANTHROPIC_REFUSAL_EXAMPLE,
  ANTHROPIC_THINKING_EXAMPLE,
  GEMINI_BLOCKED_EXAMPLE,
  GEMINI_EXAMPLE,
  GEMINI_MAX_TOKENS_EXAMPLE,
  GEMINI_SAFETY_EXAMPLE,
  GEMINI_THINKING_EXAMPLE,
} from './vendor/replies.js';
import { imageHeader } from './vendor/image-bytes.js';
import { anthropicProblem } from './vendor/validate-anthropic.js';
import { geminiProblem } from './vendor/validate-gemini.js';

const reply = (v: ReturnType<typeof readAnthropic>) => {
  if (v.kind !== 'final') throw new Error(`not final: ${v.kind}`);
  return v.reply;
};

describe('reading the vendors’ documented replies', () => {
  it('Anthropic: answer, thinking, refusal, max_tokens stop', () => {
    expect(reply(readAnthropic(ANTHROPIC_EXAMPLE, 200))).toMatchObject({
      outcome: 'answer',
      text: 'Hi! My name is Claude.',
      finish_reason: 'end_turn',
      served_model: 'claude-3-7-sonnet-20250219',
      usage: {
        input_tokens: 2095,
        output_tokens: 503,
        prompt_tokens: 2095,
        completion_tokens: 503,
        total_tokens: 2598,
      },
    });
    expect(reply(readAnthropic(ANTHROPIC_THINKING_EXAMPLE, 200))).toMatchObject({
      outcome: 'answer',
      text: 'Based on my analysis...',
      reasoning: 'Let me analyze this step by step...',
    });
    // The streaming classifiers' stop: a filter outside the model, its stop_details kept.
    expect(reply(readAnthropic(ANTHROPIC_REFUSAL_EXAMPLE, 200))).toMatchObject({
      outcome: 'provider_block',
      finish_reason: 'refusal',
      error_class: 'refusal',
      error_body: JSON.stringify(ANTHROPIC_REFUSAL_EXAMPLE.stop_details),
    });
    expect(reply(readAnthropic(ANTHROPIC_MAX_TOKENS_EXAMPLE, 200))).toMatchObject({
      outcome: 'length',
    });
    expect(readAnthropic({ type: 'error', error: { type: 'api_error' } }, 200).kind).toBe('retry');
  });

  it('Gemini: answer, thought summaries, prompt block, safety stop, max tokens', () => {
    expect(reply(readGemini(GEMINI_EXAMPLE, 200))).toMatchObject({
      outcome: 'answer',
      text: 'The sky is blue because of Rayleigh scattering.',
      finish_reason: 'STOP',
      served_model: 'gemini-2.5-flash',
      usage: { prompt_tokens: 8, completion_tokens: 11, total_tokens: 19 },
    });
    expect(reply(readGemini(GEMINI_THINKING_EXAMPLE, 200))).toMatchObject({
      text: 'Rayleigh scattering.',
      reasoning: '**Considering the question**\nI weigh the physics first.',
      usage: { completion_tokens: 34, total_tokens: 42 },
    });
    expect(reply(readGemini(GEMINI_BLOCKED_EXAMPLE, 200))).toMatchObject({
      outcome: 'provider_block',
      text: null,
      finish_reason: 'prompt_blocked:SAFETY',
    });
    expect(reply(readGemini(GEMINI_SAFETY_EXAMPLE, 200))).toMatchObject({
      outcome: 'provider_block',
      finish_reason: 'SAFETY',
    });
    expect(reply(readGemini(GEMINI_MAX_TOKENS_EXAMPLE, 200))).toMatchObject({
      outcome: 'length',
    });
    expect(readGemini({ candidates: [] }, 200).kind).toBe('retry');
  });
});

describe('the stand-ins are strict', () => {
  const aHeaders = { 'anthropic-version': '2026-10-21', 'content-type': 'application/json' };
  const aBody = { model: 'claude-x', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };
  it('Anthropic rejects what the Messages API rejects', () => {
    expect(anthropicProblem(aHeaders, aBody)).toBeNull();
    const bad: Array<[Record<string, string>, Record<string, unknown>, RegExp]> = [
      [aHeaders, { ...aBody, max_tokens: undefined }, /max_tokens/],
      [aHeaders, { ...aBody, temperature: 0.7 }, /temperature: Extra inputs/],
      [
        aHeaders,
        { ...aBody, messages: [{ role: 'system', content: 'x' }] },
        /roles must alternate/,
      ],
      [aHeaders, { ...aBody, thinking: { type: 'enabled', budget_tokens: 512 } }, /1024/],
      [aHeaders, { ...aBody, thinking: { type: 'enabled', budget_tokens: 2048 } }, /greater than/],
      [
        aHeaders,
        {
          ...aBody,
          messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
        },
        /unsupported content block/,
      ],
      [{ 'content-type': 'application/json' }, aBody, /anthropic-version/],
      [{ ...aHeaders, authorization: 'Bearer k' }, aBody, /x-api-key/],
    ];
    for (const [h, b, re] of bad)
      expect(anthropicProblem(h, JSON.parse(JSON.stringify(b)))).toMatch(re);
  });

  /** A grey image of `w` × `h` in `format`. */
  const image = (w: number, h: number, format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png') =>
    sharp({ create: { width: w, height: h, channels: 3, background: '#808080' } })
      .toFormat(format)
      .toBuffer();
  const withImages = (bytes: Buffer[], mediaType = 'image/png') => ({
    ...aBody,
    messages: [
      {
        role: 'user',
        content: [
          ...bytes.map((b) => ({
            type: 'image',
            source: { type: 'base64', media_type: mediaType, data: b.toString('base64') },
          })),
          { type: 'text', text: 'Describe.' },
        ],
      },
    ],
  });

  it('reads type and pixel size from image bytes as sharp does', async () => {
    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const)
      for (const [w, h] of [
        [1, 1],
        [333, 17],
        [2001, 1999],
      ] as const) {
        const bytes = await image(w, h, format);
        const meta = await sharp(bytes).metadata();
        expect(imageHeader(bytes), `${format} ${w}×${h}`).toEqual({
          type: `image/${format}`,
          width: meta.width,
          height: meta.height,
        });
      }
    expect(imageHeader(Buffer.from('not an image'))).toBeNull();
  });

  it('Anthropic takes images only within its vision limits', async () => {
    const side = await image(8000, 2);
    expect(anthropicProblem(aHeaders, withImages([side]))).toBeNull();
    expect(anthropicProblem(aHeaders, withImages([await image(8001, 2)]))).toMatch(
      /dimensions exceed max allowed size: 8000 pixels/,
    );
    // More than 20 images in one request: 2000 px at most.
    const wide = await image(2001, 2);
    expect(anthropicProblem(aHeaders, withImages(Array(20).fill(wide)))).toBeNull();
    expect(anthropicProblem(aHeaders, withImages(Array(21).fill(wide)))).toMatch(
      /max allowed size: 2000 pixels/,
    );
    expect(anthropicProblem(aHeaders, withImages([await image(20, 20, 'jpeg')]))).toMatch(
      /does not match the provided media type image\/png/,
    );
    // Noise does not compress: over 5 MB as a PNG.
    const noise = await sharp(randomBytes(1400 * 1400 * 3), {
      raw: { width: 1400, height: 1400, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(anthropicProblem(aHeaders, withImages([noise]))).toMatch(/exceeds 5 MB maximum/);
  });

  const gUrl = '/v1beta/models/gemini-2.5-flash:generateContent';
  const gHeaders = { 'content-type': 'application/json' };
  const gBody = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
  it('Gemini rejects what generateContent rejects', () => {
    expect(geminiProblem(gUrl, gHeaders, gBody)).toBeNull();
    const bad: Array<[string, Record<string, unknown>, RegExp]> = [
      [`${gUrl}?key=abc`, gBody, /must not be in the URL/],
      ['/v1/chat/completions', gBody, /no such method/],
      [gUrl, { ...gBody, messages: [] }, /Unknown name "messages"/],
      [gUrl, { ...gBody, generationConfig: { max_tokens: 5 } }, /Unknown name "max_tokens"/],
      [gUrl, { ...gBody, generationConfig: { temperature: 3 } }, /out of range/],
      [gUrl, { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, /valid role/],
      [
        gUrl,
        {
          contents: [
            {
              role: 'user',
              parts: [{ text: 'x', inlineData: { mimeType: 'image/png', data: 'AA==' } }],
            },
          ],
        },
        /exactly one/,
      ],
      [
        gUrl,
        { ...gBody, safetySettings: [{ category: 'HATE', threshold: 'BLOCK_NONE' }] },
        /safety_settings/,
      ],
    ];
    for (const [u, b, re] of bad) expect(geminiProblem(u, gHeaders, b)).toMatch(re);
  });
});
