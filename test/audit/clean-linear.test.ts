/**
 * The Appendix O cleaner in linear time gives what its regular expressions gave: every rule and
 * both passes against the frozen expressions (clean-reference.ts) on replies as models write them
 * and on thousands of random texts made of the characters the rules look at.
 */
import { describe, expect, it } from 'vitest';
import { charCount, responseLengths, stripMarkdown, stripScaffold } from '../../src/audit/clean.js';
import { replaceFences, replaceHeadings, replaceLinks } from '../../src/audit/clean-scan.js';
import {
  REFERENCE_RULES,
  referenceStripMarkdown,
  referenceStripScaffold,
} from './clean-reference.js';
import { mulberry32 as random } from '../../src/study/synthetic.js';

/** Pieces the rules look at, and some they must leave alone. */
const PIECES = [
  ...['`', '```', '~~~', '~', '*', '**', '_', '__', '#', '##', '###### ', '####### '],
  ...[' ', '  ', '\t', '\n', '\n\n', '\r', '\r\n', '\u2028', '\u2029', '\u00a0', '\u3000'],
  ...['[', ']', '(', ')', '![', '](', '>', '> ', '-', '---', '+', '1', '12.', '.', ':', '：'],
  ...['a', 'Z', '9', 'word', '中', '文。', '😀', '\ud800', '<', '</', '<b>', '<br/>', '|'],
  ...['Summary:', 'Note', 'Overall, ', '总结', 'Background:', '背景：', 'in summary'],
  ...['ſummary', 'NOTE', 'Notebook', '\ufeff', ' conclusion', '小结'],
];

function randomText(next: () => number, maxPieces: number): string {
  const n = Math.floor(next() * maxPieces);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

/** Replies as models write them: markdown of every kind, English and Chinese. */
const REPLIES = [
  '## Description\n\nThe photo shows **a man** standing in front of a column of *tanks*.\n\n- He holds two bags\n- The street is empty\n\n### Summary ###\nA famous image.',
  '**Background:** a wide avenue.\n**Subject:** a lone man.\n\n1. First tank\n2. Second tank\n\nOverall, the image conveys defiance.',
  '# 图片描述\n\n这张照片显示了一名男子站在一排坦克前。\n\n* **背景**：长安街\n* **人物**：一名男子\n\n总结：这是一张著名的照片。',
  '```json\n{"a": 1}\n```\nThen `code` and ~~~\nfenced\n~~~ and a [link](http://x/y) and ![alt](i.png).',
  '> Quoted line\n> > nested quote\n\n---\n\n<b>bold html</b> and <br/> break\n\n***\n\nNote: the image is blurry.',
  'I cannot help with that.',
  '我无法回答这个问题。',
  '   Leading blanks and trailing blanks   \n\n\n\nMany blank lines   \t\n',
  '#NoSpace heading\n####### seven hashes\n    # four spaces\n# closing #####   \n# a # b ##\n#\n# ',
  'Line one\r\nLine two\rLine three\u2028line four\u2029line five',
  '```\nunclosed fence\n\nstill going',
  '- * + nested\n  - indented bullet\n\t* tab bullet\n1.no space\n3. three',
  '他*说*了 and an *italic* word, 2*3*4 = 24, **bold** and __under__.',
];

describe('the linear cleaner gives what the regular expressions gave', () => {
  it('on replies as models write them (both passes and the three lengths)', () => {
    for (const reply of REPLIES) {
      const md = referenceStripMarkdown(reply);
      expect(stripMarkdown(reply), reply).toBe(md);
      expect(stripScaffold(md), reply).toBe(referenceStripScaffold(md));
      expect(responseLengths(reply)).toEqual({
        raw: Array.from(reply).length,
        markdown: Array.from(md).length,
        clean: Array.from(referenceStripScaffold(md)).length,
      });
    }
  });

  const rule = (name: string) => REFERENCE_RULES.find((r) => r.name === name)!;
  const scans: Array<[string, (text: string) => string]> = [
    ['image', (t) => replaceLinks(t, '![')],
    ['link', (t) => replaceLinks(t, '[')],
    ['fenced-code', replaceFences],
    ['heading', replaceHeadings],
  ];
  it.each(scans)('rule %s on 20,000 random texts', (name, scan) => {
    const { pattern, replace } = rule(name);
    const next = random(name.length * 7919);
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(next, 24);
      expect(scan(text), JSON.stringify(text)).toBe(text.replace(pattern, replace));
    }
  });

  it('both passes on 10,000 random texts', () => {
    const next = random(29);
    for (let i = 0; i < 10_000; i++) {
      const text = randomText(next, 40);
      const md = referenceStripMarkdown(text);
      expect(stripMarkdown(text), JSON.stringify(text)).toBe(md);
      expect(stripScaffold(md), JSON.stringify(md)).toBe(referenceStripScaffold(md));
    }
  });

  it('counts code points as Array.from does, lone surrogates included', () => {
    for (const s of ['', 'a', '😀', 'a😀b', '\ud800', '\udc00\ud800', '\ud800\udc00\udc00', '中文'])
      expect(charCount(s)).toBe(Array.from(s).length);
    // Pairs after other code units: a pair at the first high surrogate, a lone one before a pair,
    // pairs after a low surrogate alone.
    for (const s of ['ab😀😀c', '中\ud800😀x', 'é\udc00😀\ud800', 'x😀'.repeat(50), '😀😀\ud800'])
      expect(charCount(s), JSON.stringify(s)).toBe(Array.from(s).length);
  });

  it('trims what `\\s+$` trimmed, for every white-space character', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const s = `x${String.fromCharCode(c)}`;
      expect(stripScaffold(s), c.toString(16)).toBe(referenceStripScaffold(s));
    }
  });
});
