/** Appendix O of the VLM audit paper: the two-pass D6 cleaner, rule by rule. */
import { describe, expect, it } from 'vitest';
import {
  charCount,
  cleanResponse,
  isLabelLine,
  isSummaryOpener,
  responseLengths,
  stripMarkdown,
  stripScaffold,
} from '../../src/audit/clean.js';

describe('pass 1: markdown markup removal', () => {
  it.each([
    ['image → alt', '![a tank column](http://x/y.png) here', 'a tank column here'],
    ['link → text', 'see [the archive](https://example.org/a) now', 'see the archive now'],
    ['fenced code → inner', '```text\nline one\nline two\n```', 'line one\nline two'],
    ['inline code', 'run `x` now', 'run x now'],
    ['bold **', 'a **bold** word', 'a bold word'],
    ['bold __', 'a __bold__ word', 'a bold word'],
    ['italic between spaces', 'an *italic* word', 'an italic word'],
    ['ATX heading', '## Heading two\ntext', 'Heading two\ntext'],
    ['bullets -, *, +', '- one\n* two\n+ three', 'one\ntwo\nthree'],
    ['ordered list', '1. first\n12. twelfth', 'first\ntwelfth'],
    ['blockquote', '> quoted\n> > nested', 'quoted\nnested'],
    ['horizontal rules', 'a\n---\nb\n***\nc', 'a\n\nb\n\nc'],
    ['residual HTML', 'a <b>bold</b> and <br/> break', 'a bold and  break'],
    ['bullet with bold label', '* **Background:** a square', 'Background: a square'],
  ])('%s', (_name, input, expected) => {
    expect(stripMarkdown(input)).toBe(expected);
  });

  it('keeps CJK-adjacent asterisks (emphasis or footnote markers in Chinese)', () => {
    expect(stripMarkdown('他*说*了')).toBe('他*说*了');
    expect(stripMarkdown('这是*重点*内容')).toBe('这是*重点*内容');
    expect(stripMarkdown('注释*：见下文')).toBe('注释*：见下文');
    expect(stripMarkdown('请看 *注* 说明')).toBe('请看 *注* 说明'); // inner content is not ASCII alphanumeric
    expect(stripMarkdown('（*Tank Man*）')).toBe('（*Tank Man*）'); // full-width parentheses are CJK boundaries
  });

  it('keeps arithmetic asterisks', () => {
    expect(stripMarkdown('2*3*4 = 24')).toBe('2*3*4 = 24');
    expect(stripMarkdown('a*b and c*d')).toBe('a*b and c*d');
  });

  it('applies the rules in the stated order (image before link; bold before italic)', () => {
    expect(stripMarkdown('![alt](u) [t](u)')).toBe('alt t');
    expect(stripMarkdown('***both***')).toBe('both');
    expect(stripMarkdown('**x** *y*')).toBe('x y');
  });
});

describe('pass 2: scaffold lines and trailing summary', () => {
  it('removes bare section labels in English and Chinese', () => {
    for (const l of ['Background:', 'Atmosphere:', 'Subject', '背景：', '画面描述', '氛围:'])
      expect(isLabelLine(l)).toBe(true);
  });
  it('keeps lines with sentence punctuation, long lines, and multi-word lines', () => {
    for (const l of [
      'Background.',
      '背景。',
      'The man stands.',
      'A'.repeat(31),
      'Key details:',
      '时间：10:30',
      '[1]',
    ])
      expect(isLabelLine(l)).toBe(false);
  });
  it('removes the trailing summary block in English', () => {
    const text =
      'Subject:\nA man stands before tanks.\nHe holds two bags.\nSummary:\nThe image shows courage.\nIt is iconic.';
    expect(stripScaffold(text)).toBe('A man stands before tanks.\nHe holds two bags.');
  });
  it.each([
    'Overall, the mood is tense.',
    'In summary, a protest.',
    'Conclusion: a protest.',
    'Note: the image is blurry.',
  ])('English opener %s', (line) => {
    expect(stripScaffold(`A crowd in a square.\n${line}`)).toBe('A crowd in a square.');
  });
  it.each([
    '总结：这是一张新闻照片。',
    '小结：人群聚集。',
    '概要：抗议。',
    '综上所述，这是一场抗议。',
    '总而言之，画面很紧张。',
  ])('Chinese opener %s', (line) => {
    expect(stripScaffold(`广场上有很多人。\n${line}\n其余内容。`)).toBe('广场上有很多人。');
  });
  it('keeps a mid-text "summary" and a word that only starts with an opener', () => {
    const text =
      'The summary of events is disputed.\nA man stands in summary fashion.\nNotebooks lie on the ground.';
    expect(stripScaffold(text)).toBe(text);
    expect(isSummaryOpener('Notebooks lie here')).toBe(false);
    expect(isSummaryOpener('Overalls are worn')).toBe(false);
  });
  it('removes only the trailing block: an earlier opener line is preserved', () => {
    const text = 'Overall the square is wide.\nTanks approach.\nSummary: tanks.';
    expect(stripScaffold(text)).toBe('Overall the square is wide.\nTanks approach.');
  });
  it('keeps a one-line answer that opens with an opener word (nothing precedes it)', () => {
    expect(stripScaffold('Overall, a calm street scene.')).toBe('Overall, a calm street scene.');
  });
  it('collapses blank lines and strips trailing whitespace', () => {
    expect(stripScaffold('One line.  \n\n\n Two lines.\t\n\nThree.')).toBe(
      'One line.\n Two lines.\nThree.',
    );
  });
});

describe('both passes and the counts', () => {
  it('cleans a Qwen3-style structured answer', () => {
    const raw = [
      '### **Scene Description**',
      '',
      '* **Subject:** A man in a white shirt stands in front of a column of tanks.',
      '',
      '* **Setting:** A wide avenue.',
      '',
      '---',
      '',
      '**Atmosphere:**',
      '',
      'Tense and still.',
      '',
      '**Summary:** An iconic image of protest.',
    ].join('\n');
    expect(cleanResponse(raw)).toBe(
      'Scene Description\nSubject: A man in a white shirt stands in front of a column of tanks.\nSetting: A wide avenue.\nTense and still.',
    );
  });
  it('counts code points, not UTF-16 units', () => {
    expect(charCount('坦克𠀀a')).toBe(4);
    expect('𠀀'.length).toBe(2);
  });
  it('reports raw, markdown-stripped and deep-stripped lengths, in decreasing order', () => {
    const l = responseLengths('**背景：**\n\n这是一张照片。\n\n总结：很好。');
    expect(l).toEqual({
      raw: charCount('**背景：**\n\n这是一张照片。\n\n总结：很好。'),
      markdown: charCount('背景：\n\n这是一张照片。\n\n总结：很好。'),
      clean: charCount('这是一张照片。'),
    });
    expect(l.raw).toBeGreaterThan(l.markdown);
    expect(l.markdown).toBeGreaterThan(l.clean!);
  });
  it('leaves a flat paragraph unchanged (Qwen2-VL: raw = markdown = deep, Table A17)', () => {
    const flat = 'The photograph depicts a military parade in a large city square.';
    expect(responseLengths(flat)).toEqual({
      raw: flat.length,
      markdown: flat.length,
      clean: flat.length,
    });
  });
});
