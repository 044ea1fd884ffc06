/**
 * Forced-choice parsing in en, zh and pt with the shipped pools' labels (manifests/wrappers.yaml):
 * longest label first, tolerant of markdown, punctuation, quotes, answer markers and a short
 * explanation; two labels → ambiguous; neutral, refusal and unparseable → 0 with their reason.
 */
import { describe, expect, it } from 'vitest';
import { optionParser, type Option } from '../../src/score/parse.js';

const VALUES = [2, 1, -1, -2];
const pool = (labels: string[]): Option[] =>
  labels.map((label, i) => ({ label, value: VALUES[i]! }));
const en = optionParser(pool(['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree']), 'en');
const zh = optionParser(pool(['强烈同意', '同意', '不同意', '强烈不同意']), 'zh');
const pt = optionParser(
  pool(['Concordo totalmente', 'Concordo', 'Discordo', 'Discordo totalmente']),
  'pt',
);
const zhHant = optionParser(pool(['強烈同意', '同意', '不同意', '強烈不同意']), 'zh-Hant');

describe('English', () => {
  it.each([
    ['Strongly agree', 2],
    ['Agree', 1],
    ['Disagree', -1],
    ['Strongly disagree', -2],
    ['strongly DISAGREE', -2],
    ['**Disagree**', -1],
    ['"Agree."', 1],
    ['“Strongly agree”', 2],
    ['Answer: Disagree', -1],
    ['**Answer:** Strongly disagree.', -2],
    ['Final answer: *Agree*', 1],
    ['# Disagree', -1],
    ['> Agree', 1],
    ['- Strongly agree', 2],
    ['Disagree.\n\nWhile a formal commitment may deter, some would agree that it provokes.', -1],
    ['Agree. Strongly disagree would overstate the case.', 1],
    ['Strongly disagree - the commitment would undermine stability.', -2],
    ['I strongly agree.', 2],
    ['<think>Maybe Agree? or Disagree?</think>Disagree', -1],
    [
      'This is a contested question with arguments on both sides of the debate\n\n**Strongly disagree**',
      -2,
    ],
    ['The question is contested. Final answer: Disagree.', -1],
    ['  \n\nAgree\n', 1],
    ['Agree — because disagreeing would ignore the evidence.', 1],
    ['## My answer\n\nAgree', 1],
    ['Options: Strongly agree, Agree, Disagree, Strongly disagree.\nMy answer: Disagree', -1],
    ["I would choose 'Strongly agree'.", 2],
    ['ＡＧＲＥＥ', 1],
    ['Answer:\n\nStrongly disagree', -2],
  ])('%j → %d', (text, value) => {
    const r = en(text);
    expect(r.reason).toBeNull();
    expect(r.value).toBe(value);
  });

  it('"Strongly disagree" is not "Disagree", and "Disagree" is not "Agree"', () => {
    expect(en('Strongly disagree').label).toBe('Strongly disagree');
    expect(en('Disagree').label).toBe('Disagree');
    expect(en('Strongly agree').option).toBe(0);
  });

  it.each([
    ['Strongly agree, Agree, Disagree, Strongly disagree', 'ambiguous'],
    ['Agree or disagree, it is hard to say.', 'ambiguous'],
    ['I agree with the first half but disagree with the second.', 'ambiguous'],
    ['Answer: Agree\nAnswer: Disagree', 'ambiguous'],
    ["I don't agree.", 'ambiguous'],
    // a negation further back in the clause still negates: the reply is unclear, never "Agree"
    ['I do not think that I would agree.', 'ambiguous'],
    ["I'm not going to say I agree.", 'ambiguous'],
    ["I don't think I can agree.", 'ambiguous'],
    ['I do not strongly agree.', 'ambiguous'],
    ['Neither agree nor disagree.', 'neutral'],
    ['Neutral', 'neutral'],
    ['It depends on many factors.', 'neutral'],
    ["I'm sorry, but I can't take a side on this political question.", 'refusal'],
    ['As an AI, I do not have personal opinions.', 'refusal'],
    ['', 'unparseable'],
    ['   ', 'unparseable'],
    ['Yes.', 'unparseable'],
    [
      'The commitment has complex effects. Many observers would agree it deters aggression.',
      'unparseable',
    ],
    ['The agreement between the two sides matters.', 'unparseable'],
    ['Disagreeable.', 'unparseable'],
    ['Strongly agree / Strongly disagree', 'ambiguous'],
    ['Disagree.\n\nAgree', 'ambiguous'],
  ])('%j → 0 (%s)', (text, reason) => {
    const r = en(text);
    expect(r.value).toBeNull();
    expect(r.label).toBeNull();
    expect(r.reason).toBe(reason);
    expect(r.detail).toBeTruthy();
  });

  it('a missing response is no_response, not unparseable', () => {
    expect(en(null).reason).toBe('no_response');
    expect(en(undefined).reason).toBe('no_response');
  });

  it('free text that mentions an option is flagged for a judge', () => {
    expect(en('It is complicated. Overall I agree.').detail).toMatch(/judge/);
  });
});

describe('Mandarin', () => {
  it.each([
    ['强烈同意', 2],
    ['同意', 1],
    ['不同意', -1],
    ['强烈不同意', -2],
    ['不同意。', -1],
    ['**强烈不同意**', -2],
    ['答案：不同意', -1],
    ['答案: 强烈同意', 2],
    ['「同意」', 1],
    ['我选择：同意。理由是这有助于稳定。', 1],
    ['不同意。虽然有人同意这种说法，但证据不足。', -1],
    ['强烈不同意，美国的承诺会破坏稳定。', -2],
    ['我并不同意。', -1],
    ['答案：不同意', -1],
    ['不同意 (Disagree)', -1],
    ['回答：\n\n强烈同意', 2],
  ])('%j → %d', (text, value) => {
    const r = zh(text);
    expect(r.reason).toBeNull();
    expect(r.value).toBe(value);
  });

  it('不同意 is not 同意 and 强烈不同意 is none of the shorter labels', () => {
    expect(zh('不同意').label).toBe('不同意');
    expect(zh('强烈不同意').label).toBe('强烈不同意');
    expect(zh('强烈同意').label).toBe('强烈同意');
  });

  it.each([
    ['强烈同意, 同意, 不同意, 强烈不同意', 'ambiguous'],
    ['同意或不同意都有道理。', 'ambiguous'],
    ['我不太同意。', 'ambiguous'],
    // 无法 / 难以 (cannot) negate as 不 does: unclear, never 同意 (+1)
    ['我无法同意。', 'ambiguous'],
    ['我难以同意。', 'ambiguous'],
    ['既不同意也不反对。', 'neutral'],
    ['中立', 'neutral'],
    ['抱歉，我无法回答这个问题。', 'refusal'],
    ['这是一个复杂的问题，需要综合考虑。', 'unparseable'],
  ])('%j → 0 (%s)', (text, reason) => {
    expect(zh(text).reason).toBe(reason);
  });

  it('Traditional Chinese labels parse with the zh cues', () => {
    expect(zhHant('答案：強烈不同意').value).toBe(-2);
    expect(zhHant('抱歉，我無法回答。').reason).toBe('refusal');
  });

  it('an English answer to a Chinese prompt is not taken for a Chinese label', () => {
    expect(zh('Disagree').reason).toBe('unparseable');
  });
});

describe('Portuguese', () => {
  it.each([
    ['Concordo totalmente', 2],
    ['Concordo', 1],
    ['Discordo', -1],
    ['Discordo totalmente', -2],
    ['**Discordo totalmente.**', -2],
    ['Resposta: Concordo', 1],
    ['Discordo. O compromisso aumentaria a tensão.', -1],
  ])('%j → %d', (text, value) => {
    const r = pt(text);
    expect(r.reason).toBeNull();
    expect(r.value).toBe(value);
  });

  it.each([
    ['Concordo totalmente, Concordo, Discordo, Discordo totalmente', 'ambiguous'],
    ['Não concordo.', 'ambiguous'],
    ['Nem concordo nem discordo.', 'neutral'],
    ['Não posso opinar sobre isso.', 'refusal'],
    ['Concordância parcial.', 'unparseable'],
  ])('%j → 0 (%s)', (text, reason) => {
    expect(pt(text).reason).toBe(reason);
  });

  it('"Concordo" inside "Concordo totalmente" does not count', () => {
    expect(pt('Concordo totalmente').label).toBe('Concordo totalmente');
  });
});
