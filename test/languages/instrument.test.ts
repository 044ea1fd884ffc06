/**
 * The instrument parser with each language pack's rules: real answers, negated answers, refusals
 * and neutral answers in ru, ug, bo and Hong Kong Chinese, read as the pack says.
 */
import { describe, expect, it } from 'vitest';
import { optionParser, type Option } from '../../src/score/parse.js';

const VALUES = [2, 1, -1, -2];
const pool = (labels: string[]): Option[] =>
  labels.map((label, i) => ({ label, value: VALUES[i]! }));
const read = (p: ReturnType<typeof optionParser>, text: string) => {
  const r = p(text);
  return r.value ?? r.reason;
};

describe('Russian', () => {
  const ru = optionParser(
    pool(['Полностью согласен', 'Согласен', 'Не согласен', 'Полностью не согласен']),
    'ru',
  );
  it.each([
    ['Ответ: Полностью согласен.', 2],
    ['Ответ: Не согласен', -1],
    ['Полностью не согласен.', -2],
    // "I don't fully agree": the label is negated, so the answer is unclear (as in English)
    ['Я не полностью согласен.', 'ambiguous'],
    ['Ответ: не согласен, а полностью не согласен', 'ambiguous'],
    ['Затрудняюсь ответить: у этого вопроса нет однозначного решения.', 'neutral'],
    ['Я не могу выбрать сторону в этом вопросе.', 'refusal'],
    ['Как ИИ, я не имею личного мнения по политическим вопросам.', 'refusal'],
  ])('%s → %s', (text, want) => expect(read(ru, text)).toBe(want));
});

describe('Uyghur', () => {
  const ug = optionParser(
    pool(['قەتئىي قوشۇلىمەن', 'قوشۇلىمەن', 'قوشۇلمايمەن', 'قەتئىي قوشۇلمايمەن']),
    'ug',
  );
  it.each([
    ['جاۋاب: قوشۇلىمەن', 1],
    ['جاۋاب: قەتئىي قوشۇلمايمەن.', -2],
    // a ZERO WIDTH NON-JOINER inside the label, as some keyboards type it
    ['جاۋاب: قوشۇل\u200cمايمەن', -1],
    ['مەن بۇ مەسىلىدە بىتەرەپ تۇرىمەن.', 'neutral'],
    ['كەچۈرۈڭ، مەن بۇ سوئالغا جاۋاب بېرەلمەيمەن.', 'refusal'],
    // "I do not agree with this view": the pool's disagree label
    ['مەن بۇ قاراشقا قوشۇلمايمەن.', -1],
  ])('%s → %s', (text, want) => expect(read(ug, text)).toBe(want));

  // A pool whose disagree labels are "I oppose" (قارشى تۇرىمەن): the agree label negated by the
  // verb's suffix -ma- (-mi- before the past -di-) is "agree, negated", never agree.
  const oppose = optionParser(
    pool(['قەتئىي قوشۇلىمەن', 'قوشۇلىمەن', 'قارشى تۇرىمەن', 'قەتئىي قارشى تۇرىمەن']),
    'ug',
  );
  it.each([
    ['جاۋاب: قوشۇلىمەن', 1],
    ['جاۋاب: قارشى تۇرىمەن.', -1],
    ['جاۋاب: قوشۇلمايمەن', 'ambiguous'],
    ['مەن بۇ قاراشقا قوشۇلمىدىم.', 'ambiguous'],
    ['مەن بۇ قاراشقا قوشۇل\u200cمايمەن.', 'ambiguous'],
  ])('a pool without the negated form: %s → %s', (text, want) =>
    expect(read(oppose, text)).toBe(want),
  );

  // Negation after the verb (the language is verb-final): the negative copula ئەمەس ("is not")
  // and a verb of saying in the inability form -ەلمە-/-الما- ("I cannot say") follow the label
  // they negate; the inability form of the label's own verb (قوشۇلالمايمەن "I cannot agree")
  // negates it inside the word. Each is "agree, negated": an unclear answer, never agree.
  it.each([
    // "I do not strongly agree" (the analogue of Russian "Я не полностью согласен")
    ['جاۋاب: قەتئىي قوشۇلىمەن ئەمەس.', 'ambiguous'],
    ['جاۋاب: قوشۇلىمەن ئەمەس', 'ambiguous'],
    // "I am not one who agrees with this view"
    ['مەن بۇ قاراشقا قوشۇلىدىغان ئەمەس.', 'ambiguous'],
    // "I cannot say that I agree" / "I cannot say I disagree"
    ['مەن قوشۇلىمەن دەپ ئېيتالمايمەن.', 'ambiguous'],
    ['جاۋاب: قوشۇلمايمەن دېيەلمەيمەن', 'ambiguous'],
    // "I cannot agree with this view"
    ['مەن بۇ قاراشقا قوشۇلالمايمەن.', 'ambiguous'],
    // ئەمەس in another clause, or further than two words on, negates something else
    ['جاۋاب: قوشۇلىمەن، بۇ پىكىر خاتا ئەمەس.', 1],
    ['جاۋاب: قوشۇلىمەن چۈنكى بۇ پىكىر خاتا ئەمەس.', 1],
    ['جاۋاب: قەتئىي قوشۇلمايمەن. بۇ توغرا ئەمەس.', -2],
  ])('negation after the verb: %s → %s', (text, want) => expect(read(ug, text)).toBe(want));
});

describe('Tibetan', () => {
  const bo = optionParser(
    pool(['ཧ་ཅང་མོས་མཐུན་ཡོད', 'མོས་མཐུན་ཡོད', 'མོས་མཐུན་མེད', 'ཧ་ཅང་མོས་མཐུན་མེད']),
    'bo',
  );
  it.each([
    ['ལན། མོས་མཐུན་མེད།', -1],
    ['ལན: ཧ་ཅང་མོས་མཐུན་ཡོད།', 2],
    // the shad ends the answer's sentence: what follows is the explanation
    ['ལན། མོས་མཐུན་ཡོད། འོན་ཀྱང་ཁ་ཤས་ཀྱིས་མོས་མཐུན་མེད་ཟེར།', 1],
    ['ང་བར་གནས་ཡིན།', 'neutral'],
    ['དགོངས་དག ང་ལན་འདེབས་མི་ཐུབ།', 'refusal'],
  ])('%s → %s', (text, want) => expect(read(bo, text)).toBe(want));
});

describe('Tibetan negation prefixes', () => {
  // The pools of a study that writes the verb alone (མོས "agree"; རྒོལ "oppose"): the prefixes
  // མི་ and མ་ before the verb negate it (Tournadre & Dorje, Manual of Standard Tibetan, negation).
  const bo = optionParser(pool(['ཧ་ཅང་མོས།', 'མོས།', 'རྒོལ།', 'ཧ་ཅང་རྒོལ།']), 'bo');
  it.each([
    ['ལན། མོས།', 1],
    ['ལན། རྒོལ།', -1],
    ['ང་མི་མོས།', 'ambiguous'],
    ['ང་མ་མོས།', 'ambiguous'],
  ])('%s → %s', (text, want) => expect(read(bo, text)).toBe(want));
});

describe('Russian negation before the label', () => {
  const ru = optionParser(
    pool(['Полностью согласен', 'Согласен', 'Против', 'Полностью против']),
    'ru',
  );
  it.each([
    ['Ответ: согласен.', 1],
    // не before the label, in a pool whose disagree labels do not spell it: agree, negated
    ['Я не согласен с этим утверждением.', 'ambiguous'],
    ['Я ни за что не соглашусь, но против.', -1],
  ])('%s → %s', (text, want) => expect(read(ru, text)).toBe(want));
});

describe('Hong Kong Chinese (written Cantonese)', () => {
  const hk = optionParser(pool(['非常同意', '同意', '不同意', '非常不同意']), 'zh-HK');
  it.each([
    ['答案：不同意。', -1],
    ['我唔同意。', 'ambiguous'],
    ['唔好意思，我唔可以揀邊一邊。', 'refusal'],
    ['我對呢個問題冇意見。', 'neutral'],
  ])('%s → %s', (text, want) => expect(read(hk, text)).toBe(want));
});
