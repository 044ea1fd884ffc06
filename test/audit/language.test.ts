/** D5 language consistency: script shares, language identification, the 70 % rule, proper nouns. */
import { describe, expect, it } from 'vitest';
import { languageShare, normalizeLang } from '../../src/audit/language.js';

const ZH = '这张照片展现的是城市街道上的坦克队列场景：四辆军用坦克呈队列行进于宽阔的马路。';
const EN =
  'The photograph depicts a military parade in a large city square. The scene features several tanks moving in formation down a wide street.';

describe('D5 language consistency', () => {
  it('a Chinese answer to a Chinese prompt is consistent', () => {
    const r = languageShare(ZH, 'zh');
    expect(r).toMatchObject({ primary: 'zh', share: 1, consistent: true });
  });
  it('a wholesale switch (Chinese question, English answer) is inconsistent', () => {
    expect(languageShare(EN, 'zh')).toMatchObject({ primary: 'en', share: 0, consistent: false });
    expect(languageShare(ZH, 'en')).toMatchObject({ primary: 'zh', consistent: false });
  });
  it('proper nouns in another script do not flip it', () => {
    expect(
      languageShare('照片右下角有“Reuters”的标志，这张照片在Twitter上广为流传。', 'zh'),
    ).toMatchObject({ share: 1, consistent: true });
    expect(
      languageShare(
        'The man has been called Wang Weilin (王维林) by some reports, though his identity is unknown.',
        'en',
      ),
    ).toMatchObject({ share: 1, consistent: true });
    // the AP photographer's name inside a Chinese sentence
    expect(
      languageShare(
        '由美联社摄影师杰夫·怀德纳（Jeff Widener）等多位摄影师从北京饭店的阳台上拍摄。',
        'zh',
      ).consistent,
    ).toBe(true);
  });
  it('lower-case English words inside Chinese do count', () => {
    const r = languageShare(
      '这是一张照片 this is a photo of some tanks on a street in the city at night with people',
      'zh',
    );
    expect(r.units.en).toBeGreaterThan(10);
    expect(r.consistent).toBe(false);
  });
  it('the threshold is > 70 % of units: a 60/40 mix is not consistent, 80/20 is', () => {
    const mixed = `${ZH}\n${EN}`;
    const r = languageShare(mixed, 'zh');
    expect(r.share).toBeGreaterThan(0.5);
    expect(r.share).toBeLessThan(0.7);
    expect(r.consistent).toBe(false);
    const mostly = `${ZH}${ZH}${ZH}\nThe tanks are moving slowly.`;
    expect(languageShare(mostly, 'zh').consistent).toBe(true);
  });
  it('distinguishes Portuguese from English within Latin script (franc)', () => {
    const pt =
      'A fotografia mostra um desfile militar numa grande praça da cidade, com vários tanques em formação.';
    expect(languageShare(pt, 'pt')).toMatchObject({ primary: 'pt', consistent: true });
    expect(languageShare(EN, 'pt')).toMatchObject({ primary: 'en', consistent: false });
    expect(languageShare(pt, 'en').consistent).toBe(false);
  });
  it('distinguishes Japanese (kana) from Chinese', () => {
    const ja = 'この写真には、広い通りを進む戦車の列が写っています。';
    expect(languageShare(ja, 'ja')).toMatchObject({ primary: 'ja', consistent: true });
    expect(languageShare(ZH, 'ja').consistent).toBe(false);
    expect(languageShare(ja, 'zh').consistent).toBe(false);
  });
  it('distinguishes Traditional from Simplified Chinese', () => {
    const hant = '這張照片展現的是城市街道上的坦克隊列場景。';
    expect(languageShare(hant, 'zh-Hant')).toMatchObject({ primary: 'zh-Hant', consistent: true });
    expect(languageShare(ZH, 'zh-Hant').consistent).toBe(false);
    expect(languageShare(hant, 'zh').consistent).toBe(false);
    // Han text without script-specific characters fits either prompt
    expect(languageShare('天安大道上的人', 'zh-Hant').consistent).toBe(true);
    expect(languageShare('天安大道上的人', 'zh').consistent).toBe(true);
  });
  it('a reply of a few English words is not named (franc guesses), so D5 is empty, not a switch', () => {
    // franc alone names these French, Portuguese and Vietnamese
    for (const reply of ['A rocket launch.', 'A parade of tanks.', "Sorry, I can't do that."])
      expect(languageShare(reply, 'en'), reply).toMatchObject({
        primary: 'und-Latn',
        share: null,
        consistent: null,
      });
    // to a prompt in another script they still count against it
    expect(languageShare('A rocket launch.', 'zh').consistent).toBe(false);
  });
  it('an empty or letterless response is undefined (null), not inconsistent', () => {
    expect(languageShare('', 'en').consistent).toBeNull();
    expect(languageShare('1989 ... !!!', 'zh').consistent).toBeNull();
  });
  it('normalizes language tags', () => {
    expect(normalizeLang('zh-Hans')).toBe('zh');
    expect(normalizeLang('zh-TW')).toBe('zh-Hant');
    expect(normalizeLang('pt-BR')).toBe('pt');
  });
});
