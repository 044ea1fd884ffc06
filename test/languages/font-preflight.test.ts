// Font preflight: fontconfig's coverage of each study language, the Debian package named for a
// script no font covers, and `check` of a study warning for it. fc-list is replaced by a script
// on PATH that knows every language but Tibetan, so the test does not depend on the machine's fonts.
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFiles } from '../../src/check/index.js';
import {
  fontCoverage,
  fontWarnings,
  fontconfigLang,
  scoresFontWarnings,
} from '../../src/languages/font-preflight.js';
import { scriptsOf, textDirection } from '../../src/languages/lang-tag.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLanguagesFixture } from '../view/languages-fixture.js';

const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

/** A fake fc-list on PATH: one family for every :lang= but bo. */
async function fakeFcList(): Promise<void> {
  const dir = await tempDir('stimkit-fc-');
  const file = path.join(dir, 'fc-list');
  await writeFile(file, '#!/bin/sh\ncase "$1" in :lang=bo) ;; *) echo "Noto Sans" ;; esac\n');
  await chmod(file, 0o755);
  process.env.PATH = `${dir}:${PATH}`;
}

describe('language tags', () => {
  it('script and direction of each study language', () => {
    const got = ['en', 'zh', 'zh-Hant', 'zh-Hant-HK', 'ru', 'ug', 'bo', 'und'].map(
      (t) => `${t} ${scriptsOf(t).join('+')} ${textDirection(t)}`,
    );
    expect(got).toEqual([
      'en Latn ltr',
      'zh Hans ltr',
      'zh-Hant Hant ltr',
      'zh-Hant-HK Hant ltr',
      'ru Cyrl ltr',
      'ug Arab rtl',
      'bo Tibt ltr',
      'und  auto',
    ]);
    expect(['zh', 'zh-Hant', 'zh-HK', 'ug'].map(fontconfigLang)).toEqual([
      'zh-cn',
      'zh-tw',
      'zh-hk',
      'ug',
    ]);
    // a language written in several scripts: the orthography of the tag's script (mn alone is
    // Cyrillic Mongolian: the traditional script was checked against Cyrillic fonts)
    expect(['mn', 'mn-Mong', 'sr-Latn', 'pa-Arab', 'ru'].map(fontconfigLang)).toEqual([
      'mn-mn',
      'mn-cn',
      'sh',
      'pa-pk',
      'ru',
    ]);
  });
});

describe('font preflight', () => {
  it('names the package for a language no font covers', async () => {
    await fakeFcList();
    expect((await fontCoverage(['ug', 'bo'])).map((c) => [c.lang, c.fonts, c.package])).toEqual([
      ['ug', 1, 'fonts-noto-core'],
      ['bo', 0, 'fonts-noto-core'],
    ]);
    expect(await fontWarnings(['en', 'zh', 'bo'], 'study.yaml')).toMatchObject([
      {
        code: 'W_FONTS_MISSING',
        severity: 'warning',
        message: expect.stringContaining(
          'no installed font covers bo (Tibt; fc-list :lang=bo lists none)',
        ),
        fix: expect.stringContaining('apt-get install fonts-noto-core'),
      },
    ]);
  });

  it('says when fontconfig cannot be asked (never a silent pass)', async () => {
    process.env.PATH = await tempDir('stimkit-empty-path-');
    expect(await fontWarnings(['bo'], 'x')).toMatchObject([{ code: 'W_FONTS_UNCHECKED' }]);
  });

  it('check of a study in six languages warns for Tibetan only', async () => {
    const dir = await tempDir('stimkit-fonts-study-');
    await writeLanguagesFixture(dir);
    await fakeFcList();
    const r = await checkFiles([path.join(dir, 'six.study.yaml')]);
    expect(r.ok).toBe(true);
    expect(r.files[0]!.problems.filter((p) => p.code.startsWith('W_FONTS'))).toMatchObject([
      { code: 'W_FONTS_MISSING', message: expect.stringContaining('covers bo') },
    ]);
  });

  it('report: warns for the languages of a scores folder no font covers', async () => {
    const dir = await tempDir('stimkit-fonts-scores-');
    await writeFile(
      path.join(dir, 'trials.csv'),
      'trial,model,paradigm,language\nt1,m,instrument,en\nt2,m,instrument,bo\nt3,m,instrument,ug\n',
    );
    await fakeFcList();
    expect(await scoresFontWarnings(dir)).toMatchObject([
      {
        code: 'W_FONTS_MISSING',
        file: path.join(dir, 'trials.csv'),
        message: expect.stringContaining('covers bo'),
      },
    ]);
    expect(await scoresFontWarnings(path.join(dir, 'none'))).toEqual([]);
  });
});
