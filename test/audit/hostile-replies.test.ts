/**
 * Replies as long as `run` accepts (4 MiB), of each shape that made a regular expression
 * backtrack (bench/lib/hostile-replies.ts; `npm run bench -- hostile-replies` times them): the
 * whole per-response scorer still gives the values they should. The D6 lengths are worked out by
 * hand below; at 6 KiB, where the former quadratic expressions are quick, each shape's lengths are
 * also the same as theirs.
 */
import { describe, expect, it } from 'vitest';
import { responseLengths } from '../../src/audit/clean.js';
import { HOSTILE_SHAPES, REPLY_CAP_BYTES, replyScorer } from '../../bench/lib/hostile-replies.js';
import { referenceStripMarkdown, referenceStripScaffold } from './clean-reference.js';

const N = REPLY_CAP_BYTES;

/** raw, markdown-stripped and deep-stripped lengths of each 4 MiB shape, and why. */
const D6: Record<string, [number, number, number]> = {
  spaces: [N, N, N], // no markup; the blanks are inside the line, not trailing
  tabs: [N, N, N],
  hashes: [N, N, N], // more than six `#` and no blank after: not a heading
  'heading-spaces': [N, N - 2, N - 2], // `# ` goes; the run of spaces is inside the heading
  asterisks: [N, 0, 0], // bold pairs, then one line of `***…`: a horizontal rule
  pipes: [N, N, N],
  'nested-lists': [N, N - 2, N - 2], // only the line's first marker `- ` is a bullet
  'long-line': [N, N, N],
  quotes: [N, 0, 0], // `>>>…` is all blockquote markers
  backticks: [N, N, N], // no inline code without a non-backtick inside; no line after the fence
  'digits-dots': [N, N, N], // `1.` without a blank after is not a list marker
  'image-openers': [N, N, N], // `![` never closed
  'link-openers': [N, N, N], // `[a](` never closed
  'fence-openers': [N, N, N], // `` ```x `` lines, no closing fence
  'think-openers': [N, 2, 2], // every `<think>` is an HTML tag; `<t` is left
  'tag-openers': [N, N, N], // `<a ` never closed
  'bold-openers': [N, N, N - 1], // `**` never closed; the trailing space is stripped
  'blank-lines': [N, N, 0], // blank lines only
  'answer-markers': [N, N, N],
  'label-run': [N, N, N],
  // 同意 is three bytes of UTF-8 and one code point: a third of the bytes, and the remainder `x`.
  'label-run-zh': [
    Math.floor(N / 3) + (N % 3),
    Math.floor(N / 3) + (N % 3),
    Math.floor(N / 3) + (N % 3),
  ],
};

/** The option a shape's reply chooses, per trial language: only the label runs choose one. */
const CHOSEN: Record<string, { en: string | null; zh: string | null }> = {
  'label-run': { en: 'Agree', zh: null },
  'label-run-zh': { en: null, zh: '同意' },
};

describe('hostile replies of 4 MiB', () => {
  const scorers = { en: replyScorer('en'), zh: replyScorer('zh') };

  it('every shape has its lengths worked out', () => {
    expect(Object.keys(D6).sort()).toEqual(Object.keys(HOSTILE_SHAPES).sort());
  });

  it.each(Object.keys(HOSTILE_SHAPES))(
    '%s: the whole scorer gives the expected values',
    (name) => {
      const reply = HOSTILE_SHAPES[name]!(N);
      expect(Buffer.byteLength(reply)).toBe(N);
      const [raw, markdown, clean] = D6[name]!;
      expect(responseLengths(reply)).toEqual({ raw, markdown, clean });
      for (const lang of ['en', 'zh'] as const) {
        const s = scorers[lang](reply);
        const parse = s.vlm.parse as Record<string, any>;
        if (name === 'blank-lines') {
          // Blank lines only: nothing came back, so no value derived from the reply.
          expect(s.vlm.reason).toBe('no_response');
          expect(parse).toMatchObject({ d6: null, d5_auto: null, lexical: null });
        } else {
          expect(parse.d6).toEqual({ raw, markdown, clean });
          expect(parse.lexical.refused).toBe(false);
          expect(parse.lexical.short).toBe(clean < 100);
          expect(parse.lexical.markers).toEqual([]);
          expect(s.vlm.reason).toBeNull();
        }
        // No option label in any shape but the label runs, whose label is not negated.
        const label = CHOSEN[name]?.[lang] ?? null;
        expect(s.instrument).toMatchObject({ label, reason: label ? null : 'unparseable' });
        // English words make an English reply consistent with an English prompt, not a Chinese one.
        if (name === 'long-line' || name === 'think-openers')
          expect(parse.d5_auto).toMatchObject({ primary: 'en', consistent: lang === 'en' });
      }
    },
    120_000,
  );

  it.each(Object.keys(HOSTILE_SHAPES))('%s at 6 KiB: the former expressions agree', (name) => {
    const reply = HOSTILE_SHAPES[name]!(6144);
    const md = referenceStripMarkdown(reply);
    expect(responseLengths(reply)).toEqual({
      raw: reply.length,
      markdown: md.length,
      clean: referenceStripScaffold(md).length,
    });
  });
});
