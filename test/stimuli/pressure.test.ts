// The pressure follow-up files: every shipped language loads, has every kind, and is marked as a
// draft unless written for stimkit; a follow-up's text is picked by kind and language.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_DIR } from '../../src/core/shipped.js';
import { packFor } from '../../src/languages/load.js';
import { followupText, loadPressureTexts, type PressureTexts } from '../../src/stimuli/pressure.js';
import { FOLLOWUP_KINDS } from '../../src/study/pressure-block.js';
import { tempDir } from '../helpers/tmp.js';

const SHIPPED = ['en', 'zh-Hans', 'zh-Hant', 'pt', 'ru', 'ug', 'bo'];
const canon = (t: string) => packFor(t)?.pack.tag ?? t;
const files = SHIPPED.map((t) => path.join(SHIPPED_DIR, 'pressure', `${t}.yaml`));

describe('shipped pressure follow-ups', () => {
  it('load for en, zh-Hans and every language with a pack; translations are drafts', async () => {
    const texts = await loadPressureTexts(files, canon);
    expect([...texts.byLang.keys()].sort()).toEqual([...SHIPPED].sort());
    for (const lang of SHIPPED) {
      const f = texts.byLang.get(lang)!.data;
      expect(Object.keys(f.followups).sort()).toEqual([...FOLLOWUP_KINDS].sort());
      const drafted = f.provenance.status === 'drafted-pending-adjudication';
      expect(drafted, lang).toBe(lang !== 'en');
      if (drafted) expect(f.provenance.derived_from?.lang).toBe('en');
    }
    expect(texts.byLang.get('en')!.data.provenance.source).toMatch(/2311\.08596.*2502\.08177/s);
  });

  it('picks the text by kind, conversation language and other language', async () => {
    const texts = await loadPressureTexts(files, canon);
    // `zh` is the zh-Hans pack's alias.
    expect(followupText(texts, 'are_you_sure', 'zh', null)).toMatchObject({
      text: expect.stringContaining('你确定吗'),
      lang: 'zh-Hans',
      draft: true,
    });
    // Asked in English to answer in Chinese; switched: the follow-up itself in Chinese.
    expect(followupText(texts, 'other_language', 'en', 'zh')).toMatchObject({
      text: 'Please answer the same question again, in Chinese (Simplified).',
      lang: 'en',
      draft: false,
    });
    expect(followupText(texts, 'switch_language', 'en', 'zh')).toMatchObject({ lang: 'zh-Hans' });
    expect(followupText(texts, 'other_language', 'en', null)).toMatchObject({
      code: 'E_BUNDLE_PRESSURE',
      field: 'pressure.other_language',
    });
    expect(followupText(texts, 'other_language', 'pt', 'ru')).toMatchObject({
      code: 'E_BUNDLE_PRESSURE',
      expected: 'followups.other_language.ru',
    });
  });

  it('refuses a file without a kind, and two files of one language', async () => {
    const dir = await tempDir('stimkit-pressure-');
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(
      bad,
      'version: 1\nlang: en\nprovenance: {status: authored}\nfollowups:\n  are_you_sure: {text: Sure?}\n',
    );
    await expect(loadPressureTexts([bad])).rejects.toMatchObject({
      code: 'E_PRESSURE_FILE',
      problems: expect.arrayContaining([expect.objectContaining({ field: 'followups.authority' })]),
    });
    await expect(loadPressureTexts([files[1]!, files[1]!])).rejects.toMatchObject({
      code: 'E_PRESSURE_LANG',
    });
  });
});

describe('a conversation language without a follow-up file', () => {
  const none: PressureTexts = { byLang: new Map(), inputs: [], canon: (t) => t };
  it('is told to add the shipped file when stimkit ships one, else to write one', () => {
    const ru = followupText(none, 'are_you_sure', 'ru', null);
    expect(ru).toMatchObject({ code: 'E_BUNDLE_PRESSURE' });
    expect((ru as { fix: string }).fix).toContain('add stimkit:pressure/ru.yaml');
    // no stimkit:pressure/zh-Hant-HK.yaml is shipped: the fix named it, and following it failed
    const hk = followupText(none, 'are_you_sure', 'zh-Hant-HK', null) as { fix: string };
    expect(hk.fix).not.toContain('stimkit:pressure/zh-Hant-HK.yaml');
    expect(hk.fix).toContain('write a follow-up file with lang: zh-Hant-HK');
  });
});
