/**
 * `stimkit check` of a language pack, `stimkit:languages/<tag>.yaml` references, and the warning
 * `check` and `bundle` give for a study language without the rules its columns need.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFiles } from '../../src/check/check.js';
import { shippedFile } from '../../src/core/shipped.js';
import { languageWarnings } from '../../src/languages/warnings.js';
import { packFor, shippedPacks } from '../../src/languages/load.js';
import { LANGUAGE_SCHEMA_FILE, languageSchemaText } from '../../src/languages/json-schema.js';
import { SHIPPED_DIR } from '../../src/core/shipped.js';
import { tempDirSync } from '../helpers/tmp.js';

const dir = tempDirSync('stimkit-lang-');
const write = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};
const MINIMAL = `format: stimkit.language
version: 1
tag: fr
scripts: [Latn]
direction: ltr
names: {own: Français, en: French}
sources: [{title: 'Grevisse & Goosse, Le Bon Usage (16th ed., 2016)'}]
matching: {normalization: NFC, ignore_joiners: false}
sentence_ends: {before_space: ['.', '!', '?']}
`;

describe('language packs', () => {
  it('every shipped pack loads, with a distinct tag, aliases and names', () => {
    const tags = shippedPacks().map((p) => p.pack.tag);
    expect(tags).toEqual(['bo', 'en', 'pt', 'ru', 'ug', 'zh-Hans', 'zh-Hant-HK', 'zh-Hant']);
    expect(packFor('zh')?.pack.tag).toBe('zh-Hans');
    expect(packFor('zh-TW')?.pack.tag).toBe('zh-Hant');
    expect(packFor('zh-HK')?.pack.tag).toBe('zh-Hant-HK');
    expect(packFor('ug')?.pack).toMatchObject({ direction: 'rtl', scripts: ['Arab'] });
    expect(packFor('bo')?.pack.names).toEqual({ own: 'བོད་སྐད', en: 'Tibetan' });
    expect(packFor('fr')).toBeNull();
  });
  it('the committed JSON Schema is current and every shipped pack is valid against it', () => {
    const text = readFileSync(LANGUAGE_SCHEMA_FILE, 'utf8');
    expect(text).toBe(languageSchemaText());
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(text));
    for (const p of shippedPacks()) {
      const file = path.join(SHIPPED_DIR, p.ref.replace('stimkit:', ''));
      expect([p.ref, validate(parse(readFileSync(file, 'utf8')))]).toEqual([p.ref, true]);
    }
    expect(validate(parse(MINIMAL.replace('direction: ltr', 'direction: up')))).toBe(false);
  });
  it('stimkit:languages/<tag>.yaml names a shipped pack', () => {
    expect(shippedFile('languages/ru.yaml', { code: 'E_X' })).toMatch(
      /manifests\/languages\/ru\.yaml$/,
    );
  });
  it('check validates a pack and warns for the rules it lacks', async () => {
    const r = await checkFiles([write('fr.language.yaml', MINIMAL)]);
    expect(r.ok).toBe(true);
    expect(r.files[0]!.format).toBe('stimkit.language');
    expect((r.files[0]!.summary as { rules: string[] }).rules).toEqual([]);
    expect(r.files[0]!.problems.map((p) => [p.code, p.field])).toEqual(
      ['instrument', 'd1_refusal', 'summary', 'headings'].map((f) => [
        'W_NO_RULES_FOR_LANGUAGE',
        f,
      ]),
    );
  });
  it('check rejects a bad pack with the field, expected and got', async () => {
    const bad = MINIMAL.replace('direction: ltr', 'direction: up').concat(
      "d1_refusal: {policy: ['(unclosed']}\n",
    );
    const r = await checkFiles([write('bad.language.yaml', bad)]);
    expect(r.ok).toBe(false);
    expect(r.files[0]!.problems[0]).toMatchObject({ code: 'E_LANGUAGE_PACK', field: 'direction' });
  });
  it('check refuses a script code that is no script (a typo that set D5 to 0), suggesting one', async () => {
    const typo = MINIMAL.replace('tag: fr', 'tag: mn-Mong').replace('[Latn]', '[Mnog]');
    const r = await checkFiles([write('typo.language.yaml', typo)]);
    expect(r.ok).toBe(false);
    const p = r.files[0]!.problems[0]!;
    expect(p).toMatchObject({ code: 'E_LANGUAGE_PACK', field: 'scripts[0]', line: 4 });
    expect(p.got).toContain('Mnog');
    expect(p.expected).toContain('"Latn"');
    expect(p.fix).toContain('did you mean Mong?');
  });
  it('check refuses a d1_refusal section without a cue (it read every answer as no refusal)', async () => {
    const r = await checkFiles([write('empty.language.yaml', `${MINIMAL}d1_refusal: {}\n`)]);
    expect(r.ok).toBe(false);
    expect(r.files[0]!.problems[0]).toMatchObject({ code: 'E_LANGUAGE_PACK', field: 'd1_refusal' });
    expect(r.files[0]!.problems[0]!.message).toContain('d1_refusal has no cue');
  });
});

describe('a study language without rules', () => {
  it('is named with the columns it leaves empty', () => {
    const w = languageWarnings([
      { lang: 'en', paradigm: 'instrument' },
      { lang: 'fr', paradigm: 'instrument' },
      { lang: 'fr', paradigm: 'describe' },
    ]);
    expect(w).toHaveLength(1);
    expect(w[0]!.code).toBe('W_NO_RULES_FOR_LANGUAGE');
    expect(w[0]!.message).toContain('language fr: d1_refusal_lexical');
    expect(w[0]!.message).toContain('score, stance');
    expect(w[0]!.message).toContain('no language pack names it');
  });
  it('names the study pack whose tag looks like a typo of the language', () => {
    const typo = {
      pack: { ...packFor('ru')!.pack, tag: 'mn-Mogn', aliases: [] },
      ref: 'packs/mn.yaml',
      sha256: '',
    };
    const [w] = languageWarnings([{ lang: 'mn-Mong', paradigm: 'instrument' }], [typo]);
    expect(w!.message).toContain("the study's pack packs/mn.yaml is for mn-Mogn");
    expect(w!.message).toContain('did you mean tag: mn-Mong in it?');
    expect(w!.message).toContain('correct the tag of packs/mn.yaml');
  });
  it('names what a pack lacks', () => {
    const own = [
      {
        pack: { ...packFor('ru')!.pack, tag: 'xx', aliases: [], instrument: undefined },
        ref: 'xx.yaml',
        sha256: '',
      },
    ];
    const w = languageWarnings([{ lang: 'xx', paradigm: 'instrument' }], own);
    expect(w[0]!.message).toMatch(/language xx: label, score, stance .*xx\.yaml/);
  });
  it('names D5 for a Latin-script language franc cannot name', () => {
    const pack = (tag: string) => ({
      pack: { ...packFor('pt')!.pack, tag, aliases: [] },
      ref: `${tag}.yaml`,
      sha256: '',
    });
    const w = languageWarnings([{ lang: 'ca', paradigm: 'describe' }], [pack('ca')]);
    expect(w.map((x) => x.message)).toEqual([
      expect.stringMatching(/^language ca: d5_language_auto, d5_share will be left empty/),
    ]);
    expect(languageWarnings([{ lang: 'pt', paradigm: 'describe' }])).toEqual([]);
  });
});
