/**
 * D5 by a one-pass tokenizer gives what the regular-expression tokenizer gave
 * (language-reference.ts): on replies in several scripts, on random mixtures of them, and on
 * replies longer than what franc reads (only their first words are joined for it).
 */
import { describe, expect, it } from 'vitest';
import { franc } from 'franc';
import { FRANC_READS, languageShare } from '../../src/audit/language.js';
import { referenceLanguageShare } from './language-reference.js';
import { mulberry32 as random } from '../../src/study/synthetic.js';

const REPLIES = [
  '照片右下角有Reuters的标志。这是一张著名的照片。',
  'The photo shows a man in front of tanks on Chang’an Avenue. 他站在坦克前面。',
  '這張照片顯示一名男子站在坦克前。The image is iconic.',
  'これは有名な写真です。男性が戦車の前に立っています。',
  '사진에는 탱크 앞에 서 있는 남자가 있습니다. Tank Man.',
  'Это знаменитая фотография. Tank Man stands alone.',
  "A well-known, often-cited photo: it's the Tank Man, O'Brien said — twice-over.",
  'A foto mostra um homem diante dos tanques. É uma imagem famosa da praça.',
  'Mixed 中文 words and 日本語のカタカナ and a few Latin WORDS in CAPS.\nNew line here; and more.',
];

const PIECES = [
  ...[
    'The',
    'man',
    'stands',
    'before',
    'tanks',
    'Reuters',
    'NATO',
    "it's",
    'well-known',
    'O’Brien',
  ],
  ...['homem', 'diante', 'dos', 'tanques', 'é', 'Straße', 'über', 'ﬁne', '𝐀bc', 'ǅemal'],
  ...[
    '中',
    '文',
    '这',
    '這',
    '张',
    '張',
    '照片',
    '坦克',
    'カ',
    'タ',
    'ー',
    'の',
    '한',
    '국',
    'Это',
    'фото',
  ],
  ...[' ', ' ', '  ', '\n', '\n\n', '.', '. ', '!', '?', '。', '！', '；', ';', ',', '-', "'", '’'],
  ...['\u2028', '\ud800', '😀', '1', '2024', '—', '\t'],
];

describe('D5 tokenizer in one pass', () => {
  it.each(['zh', 'en', 'ja', 'pt', 'zh-Hant'])('replies, prompt in %s', (lang) => {
    for (const r of REPLIES)
      expect(languageShare(r, lang), r).toEqual(referenceLanguageShare(r, lang));
  });

  it('5,000 random mixtures of scripts', () => {
    const next = random(5);
    for (let i = 0; i < 5_000; i++) {
      let r = '';
      for (let n = Math.floor(next() * 60); n > 0; n--)
        r += PIECES[Math.floor(next() * PIECES.length)];
      const lang = ['zh', 'en', 'ja'][i % 3]!;
      expect(languageShare(r, lang), JSON.stringify(r)).toEqual(referenceLanguageShare(r, lang));
    }
  });
});

describe('D5 on replies longer than what franc reads', () => {
  const en = 'The man stands before the tanks and does not move, ';
  const pt = 'O homem fica diante dos tanques e não se move, ';
  it('franc reads only the first FRANC_READS code units of a text', () => {
    const head = en.repeat(Math.ceil(FRANC_READS / en.length)).slice(0, FRANC_READS);
    const tail = pt.repeat(400);
    const only = { only: ['eng', 'por'] };
    expect(franc(tail, only)).toBe('por');
    // A tail five times as long as the head would win if franc read it.
    expect(franc(head + tail, only)).toBe('eng');
    expect(franc(head + tail)).toBe(franc(head));
  });

  it.each([
    ['one sentence of words after commas', en.repeat(300)],
    ['English, then Portuguese, one sentence', en.repeat(45) + pt.repeat(300)],
    ['Portuguese sentences after a long English one', `${en.repeat(60)}. ${pt.repeat(200)}`],
    ['single spaces between words', 'agree '.repeat(2000)],
    ['words between markers', 'x answer:'.repeat(1000)],
    // Sentences too short to identify alone take the reply's Latin words: English only at first.
    [
      'short sentences, two English then Portuguese',
      'The man stands there. '.repeat(2) + 'O homem fica parado. '.repeat(300),
    ],
    ['Chinese with Latin names', '照片右下角有Reuters的标志，'.repeat(400)],
  ])('%s', (_, reply) => {
    expect(reply.length).toBeGreaterThan(FRANC_READS * 2);
    for (const lang of ['en', 'pt', 'zh'])
      expect(languageShare(reply, lang)).toEqual(referenceLanguageShare(reply, lang));
  });
});
