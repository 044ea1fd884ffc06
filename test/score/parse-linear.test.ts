/**
 * The instrument's parser and the instrument judge's label reader stay linear on hostile replies
 * and give what they gave: `<think>` blocks dropped in one pass (against the expression it
 * replaces), and a reply with many answer markers in one sentence parsed as when every marker's
 * segment was read (the parser reads them all when a label could hold a colon).
 */
import { describe, expect, it } from 'vitest';
import { replaceThinkBlocks } from '../../src/core/think.js';
import { readJudgeLabel } from '../../src/score/instrument-judge-prompt.js';
import { optionParser } from '../../src/score/parse.js';
import { mulberry32 as random } from '../../src/study/synthetic.js';

const THINK = /<think>[\s\S]*?<\/think>/gi;

function randomOf(pieces: readonly string[], next: () => number, max: number): string {
  let s = '';
  for (let i = Math.floor(next() * max); i > 0; i--)
    s += pieces[Math.floor(next() * pieces.length)];
  return s;
}

describe('think blocks', () => {
  it('are dropped as the expression dropped them, on 20,000 random texts', () => {
    const pieces = [
      '<think>',
      '</think>',
      '<THINK>',
      '</Think>',
      '<think',
      '>',
      'a',
      ' ',
      '\n',
      '<',
    ];
    const next = random(7);
    for (let i = 0; i < 20_000; i++) {
      const text = randomOf(pieces, next, 16);
      expect(replaceThinkBlocks(text, ' '), JSON.stringify(text)).toBe(text.replace(THINK, ' '));
    }
  });

  it('half a million openers without a closer are read in one pass', () => {
    const text = `${'<think>'.repeat(500_000)}Agree`;
    expect(replaceThinkBlocks(text, ' ')).toBe(text);
    const parse = optionParser([{ label: 'Agree', value: 1 }], 'en');
    expect(parse(text)).toMatchObject({ label: 'Agree', value: 1 });
    expect(readJudgeLabel(`<think>${' '.repeat(1_000_000)}</think>**Agree.**`)).toEqual({
      label: 'Agree',
      value: 1,
    });
  });
});

describe('the instrument judge label reader', () => {
  it('strips markdown and punctuation at both ends, also after a long run of them', () => {
    expect(readJudgeLabel('**Strongly Agree.**')).toEqual({ label: 'Strongly agree', value: 2 });
    expect(readJudgeLabel(`Label: Disagree${'*'.repeat(1_000_000)}`)).toEqual({
      label: 'Disagree',
      value: -1,
    });
    expect(readJudgeLabel(`${'.'.repeat(1_000_000)} x Agree`)).toBeNull();
  });
});

describe('answer markers', () => {
  const EN = ['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree'];
  const ZH = ['强烈同意', '同意', '不同意', '强烈不同意'];
  const options = (labels: string[]) =>
    labels.map((label, i) => ({ label, value: [2, 1, -1, -2][i]! }));
  // A label no text below holds, with a colon: the parser then reads every marker's segment.
  const everySegment = (labels: string[]) => [...options(labels), { label: 'qq:qq', value: 3 }];

  it.each([
    ['en', EN],
    ['zh', ZH],
  ] as const)(
    '%s: same result as reading every segment, on 10,000 random replies',
    (lang, labels) => {
      const fast = optionParser(options(labels), lang);
      const full = optionParser(everySegment(labels), lang);
      const pieces = [
        ...[
          'answer',
          'my answer',
          'final answer',
          'choice',
          ':',
          '：',
          ' ',
          '  ',
          ',',
          '.',
          '. ',
          '\n',
        ],
        ...[
          'agree',
          'disagree',
          'strongly',
          'not',
          "don't",
          'neither agree nor disagree',
          'neutral',
        ],
        ...[
          'i cannot',
          'x',
          '-',
          '*',
          '答案',
          '我的答案',
          '同意',
          '不同意',
          '不',
          '中立',
          '。',
          '无法回答',
        ],
      ];
      const next = random(lang.length * 31);
      for (let i = 0; i < 10_000; i++) {
        const reply = randomOf(pieces, next, 24);
        expect(fast(reply), JSON.stringify(reply)).toEqual(full(reply));
      }
    },
  );

  it('a hundred thousand answer markers in one sentence', () => {
    const parse = optionParser(options(EN), 'en');
    expect(parse(`${', answer:'.repeat(100_000)} agree`)).toMatchObject({
      label: 'Agree',
      value: 1,
    });
  });
});
