/**
 * A sample's entry in an Inspect log is written as its text and its attachments apart
 * (inspect-log.ts `sampleParts`, zip.ts `Recurring`): joined, the parts must be exactly
 * `JSON.stringify(sample)`, and a sample that the placeholders cannot stand in for is written whole.
 */
import { describe, expect, it } from 'vitest';
import type { EvalSample } from '../../src/export/inspect-format.js';
import { sampleParts } from '../../src/export/inspect-log.js';

const URL_A = `data:image/png;base64,${Buffer.alloc(3000, 7).toString('base64')}`;
const URL_B = `data:image/jpeg;base64,${Buffer.alloc(2000, 9).toString('base64')}`;

/** A sample as far as `sampleParts` reads it: its attachments, and text around them. */
function sample(reply: string, attachments: Record<string, string>): EvalSample {
  const input = Object.keys(attachments).map((k) => ({
    type: 'image',
    image: `attachment://${k}`,
  }));
  return {
    id: 's1',
    epoch: 1,
    input: [{ role: 'user', content: [...input, { type: 'text', text: '这是什么？ "quoted"' }] }],
    output: { choices: [{ message: { role: 'assistant', content: reply } }] },
    attachments,
    scores: {},
  } as unknown as EvalSample;
}

/** The parts joined back into text. */
function joined(parts: ReturnType<typeof sampleParts>): string {
  if (typeof parts === 'string') return parts;
  return parts.map((p) => (typeof p === 'string' ? p : p.recurring)).join('');
}

describe('sampleParts', () => {
  it('gives each attachment apart, the parts joined being JSON.stringify(sample)', () => {
    const s = sample('A reply with "quotes", \\ and 中文.', { aaa: URL_A, bbb: URL_B });
    const parts = sampleParts(s);
    expect(Array.isArray(parts)).toBe(true);
    expect((parts as unknown[]).filter((p) => typeof p !== 'string')).toEqual([
      { recurring: URL_A },
      { recurring: URL_B },
    ]);
    // no text part holds an image
    for (const p of parts as unknown[])
      if (typeof p === 'string') expect(p).not.toContain('base64');
    expect(joined(parts)).toBe(JSON.stringify(s));
  });

  it('writes the sample whole when its own text holds a placeholder, or JSON would escape an attachment', () => {
    // a reply that is exactly the first placeholder's text
    const echo = sample('stimkit-attachment-0', { aaa: URL_A });
    expect(sampleParts(echo)).toBe(JSON.stringify(echo));
    const escaped = sample('A reply.', { aaa: `${URL_A}"` });
    expect(sampleParts(escaped)).toBe(JSON.stringify(escaped));
    const none = sample('A reply.', {});
    expect(sampleParts(none)).toBe(JSON.stringify(none));
    // a placeholder inside a longer text is escaped apart from its quotes: no clash
    const inside = sample('see "stimkit-attachment-0" here', { aaa: URL_A });
    expect(joined(sampleParts(inside))).toBe(JSON.stringify(inside));
    expect(typeof sampleParts(inside)).not.toBe('string');
  });
});
