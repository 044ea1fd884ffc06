/**
 * The forced-choice parser in linear time gives what it gave (parse-reference.ts, the parser
 * before its normalizing, label search and negation look-back were rewritten): the negation
 * look-back at every position of random texts, and the whole parse of random replies in English
 * and Chinese.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cuesFor, negationReader } from '../../src/score/cues.js';
import { optionParser } from '../../src/score/parse.js';
import { mulberry32 as random } from '../../src/study/synthetic.js';
import { isNegated, referenceOptionParser } from './parse-reference.js';

const OPTIONS = {
  en: ['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree'],
  zh: ['强烈同意', '同意', '不同意', '强烈不同意'],
} as const;

const PIECES = [
  ...['agree', 'disagree', 'strongly', 'Agree', '**Agree**', 'not', "don't", "n't", 'never'],
  ...['nor', 'neither agree nor disagree', 'neutral', 'answer:', 'Answer：', 'I cannot', 'x'],
  ...['同意', '不同意', '强烈', '不', '并非', '没', '答案：', '中立', '我无法', '的'],
  ...[' ', '  ', '\t', '\u3000', '\u00a0', '\n', '\n\n', '.', '. ', ',', '，', '。', '；', ':'],
  ...['-', '—', '(', ')', '*', '_', '#', '>', '`', '’', '"', '「', '【', '[', ']', '|', '~'],
  ...['<think>', '</think>', '1.', '- ', '•', '\ufeff', '\u2028', '\ud800', '😀', 'Ａｇｒｅｅ'],
];

function randomText(next: () => number, max: number): string {
  let s = '';
  for (let n = Math.floor(next() * max); n > 0; n--)
    s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

describe('negation look-back read once', () => {
  it.each(['en', 'zh', 'pt'])(
    'says what the look-back to the clause start said, at every position (%s)',
    (lang) => {
      const cues = cuesFor(lang);
      const next = random(11);
      // The differences, collected and asserted once (an expect() per position, some 180,000 of
      // them, cost more than both readers); each names its text and position.
      const differ: string[] = [];
      for (let k = 0; k < 3_000; k++) {
        const text = randomText(next, 30).toLowerCase();
        const negated = negationReader(text, cues);
        for (let at = 0; at <= text.length; at++) {
          const want = isNegated(text, at, cues);
          if (negated(at) !== want) differ.push(`${JSON.stringify(text)} at ${at}: not ${want}`);
        }
      }
      expect(differ).toEqual([]);
    },
  );
});

describe('the parser', () => {
  it.each(['en', 'zh'] as const)('gives what it gave on 5,000 random replies (%s)', (lang) => {
    const options = OPTIONS[lang].map((label, i) => ({ label, value: [2, 1, -1, -2][i]! }));
    const parse = optionParser(options, lang);
    const before = referenceOptionParser(options, lang);
    const next = random(lang === 'en' ? 3 : 4);
    // The replies parsed differently, collected and asserted once (deep equality of the results,
    // own properties and types alike, as node:util compares them).
    const differ: Array<{ reply: string; got: unknown; want: unknown }> = [];
    for (let k = 0; k < 5_000; k++) {
      const reply = randomText(next, 40);
      const [got, want] = [parse(reply), before(reply)];
      if (!isDeepStrictEqual(got, want)) differ.push({ reply, got, want });
    }
    expect(differ).toEqual([]);
  });
});
