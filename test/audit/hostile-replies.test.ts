/**
 * Replies as long as `run` accepts (4 MiB), of each shape that made a regular expression
 * backtrack (bench/lib/hostile-replies.ts; `npm run bench -- hostile-replies` times them): the
 * whole per-response scorer still gives the values they should. The D6 lengths are worked out by
 * hand below; at 6 KiB, where the former quadratic expressions are quick, each shape's lengths are
 * also the same as theirs.
 *
 * The eight shapes and the label runs are scored at 4 MiB. The openers that find no closer
 * are scored at 1 MiB: what they check is that no rule scans ahead once per opener, and such a
 * quadratic scan over 1 MiB of openers (some 10^11 steps) takes minutes, far past the limit below,
 * while the linear scorer takes a fraction of a second.
 */
import { describe, expect, it } from 'vitest';
import { responseLengths } from '../../src/audit/clean.js';
import { HOSTILE_SHAPES, REPLY_CAP_BYTES, replyScorer } from '../../bench/lib/hostile-replies.js';
import { heavyLimit } from '../helpers/limits.js';
import { referenceStripMarkdown, referenceStripScaffold } from './clean-reference.js';

const N = REPLY_CAP_BYTES;
/** The openers' size (see above). */
const OPENERS = 1024 * 1024;

/** Raw, markdown-stripped and deep-stripped lengths of each shape at `n` bytes, and why. */
const D6: Record<string, { bytes: number; lengths: (n: number) => [number, number, number] }> = {
  spaces: { bytes: N, lengths: (n) => [n, n, n] }, // no markup; the blanks are inside the line, not trailing
  tabs: { bytes: N, lengths: (n) => [n, n, n] },
  hashes: { bytes: N, lengths: (n) => [n, n, n] }, // more than six `#` and no blank after: not a heading
  'heading-spaces': { bytes: N, lengths: (n) => [n, n - 2, n - 2] }, // `# ` goes; the run of spaces is inside the heading
  asterisks: { bytes: N, lengths: (n) => [n, 0, 0] }, // bold pairs, then one line of `***…`: a horizontal rule
  pipes: { bytes: N, lengths: (n) => [n, n, n] },
  'nested-lists': { bytes: N, lengths: (n) => [n, n - 2, n - 2] }, // only the line's first marker `- ` is a bullet
  'long-line': { bytes: N, lengths: (n) => [n, n, n] },
  quotes: { bytes: OPENERS, lengths: (n) => [n, 0, 0] }, // `>>>…` is all blockquote markers
  backticks: { bytes: OPENERS, lengths: (n) => [n, n, n] }, // no inline code without a non-backtick inside; no line after the fence
  'digits-dots': { bytes: OPENERS, lengths: (n) => [n, n, n] }, // `1.` without a blank after is not a list marker
  'image-openers': { bytes: OPENERS, lengths: (n) => [n, n, n] }, // `![` never closed
  'link-openers': { bytes: OPENERS, lengths: (n) => [n, n, n] }, // `[a](` never closed
  'fence-openers': { bytes: OPENERS, lengths: (n) => [n, n, n] }, // `` ```x `` lines, no closing fence
  // every `<think>` is an HTML tag; what is left of the last one (`<t` at 4 MiB, `<thi` at 1 MiB) is not
  'think-openers': { bytes: OPENERS, lengths: (n) => [n, n % 7, n % 7] },
  'tag-openers': { bytes: OPENERS, lengths: (n) => [n, n, n] }, // `<a ` never closed
  'bold-openers': { bytes: OPENERS, lengths: (n) => [n, n, n - 1] }, // `**` never closed; the trailing space is stripped
  'blank-lines': { bytes: OPENERS, lengths: (n) => [n, n, 0] }, // blank lines only
  'answer-markers': { bytes: OPENERS, lengths: (n) => [n, n, n] },
  'label-run': { bytes: N, lengths: (n) => [n, n, n] },
  // 同意 is three bytes of UTF-8 and one code point: a third of the bytes, and the remainder `x`.
  'label-run-zh': {
    bytes: N,
    lengths: (n) => {
      const chars = Math.floor(n / 3) + (n % 3);
      return [chars, chars, chars];
    },
  },
};

/** The option a shape's reply chooses, per trial language: only the label runs choose one. */
const CHOSEN: Record<string, { en: string | null; zh: string | null }> = {
  'label-run': { en: 'Agree', zh: null },
  'label-run-zh': { en: null, zh: '同意' },
};

describe('hostile replies of 4 MiB (the openers: 1 MiB)', () => {
  const scorers = { en: replyScorer('en'), zh: replyScorer('zh') };

  it('every shape has its lengths worked out', () => {
    expect(Object.keys(D6).sort()).toEqual(Object.keys(HOSTILE_SHAPES).sort());
  });

  it.each(Object.keys(HOSTILE_SHAPES))(
    '%s: the whole scorer gives the expected values',
    (name) => {
      const { bytes, lengths } = D6[name]!;
      const reply = HOSTILE_SHAPES[name]!(bytes);
      expect(Buffer.byteLength(reply)).toBe(bytes);
      const [raw, markdown, clean] = lengths(bytes);
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
    // At most about 2 s of work a shape on a quiet machine (the label runs).
    heavyLimit(4),
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
