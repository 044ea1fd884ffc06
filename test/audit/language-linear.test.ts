/**
 * D5 by a one-pass tokenizer gives what the regular-expression tokenizer gave
 * (language-reference.ts): on replies in several scripts and on random mixtures of them.
 */
import { describe, expect, it } from 'vitest';
import { languageShare } from '../../src/audit/language.js';
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
