// Wrapper pools: the shipped pools validate (10 + 10 per language, labels listed in every
// suffix); every invalid pool is rejected with its code, line and field; label matching is
// longest-first so that 同意 inside 强烈同意 does not count.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchLabels, missingLabels } from '../../src/stimuli/labels.js';
import { loadWrapperPools, responseOptions } from '../../src/stimuli/wrappers.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { only, rejection, writeLines } from './helpers.js';

const M = (f: string) => path.join(ROOT, 'manifests', f);
const dir = await tempDir('stimkit-wrappers-');

/** A valid two-language wrappers file as YAML lines (line numbers in comments). */
function base(): string[] {
  return [
    'format: stimkit.wrappers', // 1
    'version: 1', // 2
    'option_values: [2, 1, -1, -2]', // 3
    'pools:', // 4
    '  en:', // 5
    '    provenance: {status: authored}', // 6
    '    options: [Strongly agree, Agree, Disagree, Strongly disagree]', // 7
    '    prefixes:', // 8
    '      - {id: en-p1, text: What is the answer?}', // 9
    '      - {id: en-p2, text: Answer the question below.}', // 10
    '    suffixes:', // 11
    '      - {id: en-s1, text: "Strongly agree, Agree, Disagree, Strongly disagree - pick one."}', // 12
    '  zh:', // 13
    '    provenance: {status: authored}', // 14
    '    options: [强烈同意, 同意, 不同意, 强烈不同意]', // 15
    '    prefixes:', // 16
    '      - {id: zh-p1, text: 答案是什么？}', // 17
    '    suffixes:', // 18
    '      - {id: zh-s1, text: "强烈同意, 同意, 不同意, 强烈不同意 - 请选择。"}', // 19
  ];
}
let n = 0;
const file = (edit: (l: string[]) => string[]) => writeLines(dir, `w${n++}.yaml`, edit(base()));
const set = (no: number, text: string) => (l: string[]) =>
  l.map((x, i) => (i === no - 1 ? text : x));

describe('wrappers: the shipped pools', () => {
  it('validate, with 10 prefixes and 10 suffixes in en, zh, pt (and the zh-Hant draft)', async () => {
    const pools = await loadWrapperPools(M('wrappers.zh-Hant.yaml'));
    expect(pools.languages).toEqual(['en', 'zh', 'pt', 'zh-Hant']);
    for (const lang of pools.languages) {
      const pool = pools.pools[lang]!;
      expect([pool.prefixes.length, pool.suffixes.length], lang).toEqual([10, 10]);
      for (const s of pool.suffixes)
        expect(
          missingLabels(
            s.text,
            pool.options.map((o) => o.label),
          ),
          s.id,
        ).toEqual([]);
      expect(pool.prefixes.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
    expect(responseOptions(pools, 'pt')).toEqual([
      { label: 'Concordo totalmente', value: 2 },
      { label: 'Concordo', value: 1 },
      { label: 'Discordo', value: -1 },
      { label: 'Discordo totalmente', value: -2 },
    ]);
    expect(pools.pools['zh-Hant']!.provenance.status).toBe('machine-draft-pending-review');
  });

  it('no prefix or suffix uses first-person agentive framing (I, we, my, 我)', async () => {
    const pools = await loadWrapperPools(M('wrappers.yaml'));
    for (const pool of Object.values(pools.pools)) {
      for (const w of [...pool.prefixes, ...pool.suffixes])
        expect(w.text, w.id).not.toMatch(/\b(I|we|my|our)\b|我/);
    }
  });
});

describe('wrappers: label matching, longest label first', () => {
  it('finds 强烈不同意, not 不同意 or 同意 inside it', () => {
    const labels = ['强烈同意', '同意', '不同意', '强烈不同意'];
    expect(matchLabels('我强烈不同意。', labels).map((m) => m.label)).toEqual(['强烈不同意']);
    expect(missingLabels('强烈同意, 不同意, 强烈不同意', labels)).toEqual(['同意']);
    expect(
      missingLabels('Concordo totalmente, Discordo, Discordo totalmente', [
        'Concordo totalmente',
        'Concordo',
        'Discordo',
        'Discordo totalmente',
      ]),
    ).toEqual(['Concordo']);
  });
});

describe('wrappers: every invalid pool is rejected with its code', () => {
  it('the base fixture is valid', async () => {
    const pools = await loadWrapperPools(await file((l) => l));
    expect(pools.pools.zh!.options.map((o) => o.value)).toEqual([2, 1, -1, -2]);
  });

  it('a suffix missing an option label (E_WRAPPERS_SUFFIX_MISSING_OPTION), even when a longer label contains it', async () => {
    const f = await file(
      set(19, '      - {id: zh-s1, text: "强烈同意, 不同意, 强烈不同意 - 请选择。"}'),
    );
    expect(
      only((await rejection(loadWrapperPools(f))).problems, 'E_WRAPPERS_SUFFIX_MISSING_OPTION'),
    ).toMatchObject({
      file: f,
      line: 19,
      field: 'pools.zh.suffixes[0].text',
      expected: 'every option: 强烈同意, 同意, 不同意, 强烈不同意',
      fix: 'add "同意" to the suffix, spelled exactly as in options',
    });
  });

  it('duplicate prefixes, suffixes, ids and labels (E_WRAPPERS_DUPLICATE)', async () => {
    const prefix = await file(set(10, '      - {id: en-p2, text: "What is  the answer?"}'));
    expect(
      only((await rejection(loadWrapperPools(prefix))).problems, 'E_WRAPPERS_DUPLICATE'),
    ).toMatchObject({
      line: 10,
      field: 'pools.en.prefixes[1].text',
      message: 'duplicate prefix: same text as prefixes[0]',
    });
    const suffix = await file((l) => [
      ...l.slice(0, 12),
      '      - {id: en-s2, text: "Strongly agree, Agree, Disagree, Strongly disagree - pick one."}',
      ...l.slice(12),
    ]);
    expect(
      only((await rejection(loadWrapperPools(suffix))).problems, 'E_WRAPPERS_DUPLICATE').field,
    ).toBe('pools.en.suffixes[1].text');
    const id = await file(set(17, '      - {id: en-p1, text: 答案是什么？}'));
    expect(
      only((await rejection(loadWrapperPools(id))).problems, 'E_WRAPPERS_DUPLICATE'),
    ).toMatchObject({ line: 17, field: 'pools.zh.prefixes[0].id' });
    const label = await file(set(15, '    options: [强烈同意, 同意, 同意, 强烈不同意]'));
    expect(
      (await rejection(loadWrapperPools(label))).problems.some(
        (p) => p.code === 'E_WRAPPERS_DUPLICATE' && p.field === 'pools.zh.options[2]',
      ),
    ).toBe(true);
  });

  it('option lists of different lengths across languages (E_WRAPPERS_OPTION_COUNT)', async () => {
    const f = await file((l) =>
      set(
        15,
        '    options: [同意, 不同意, 强烈不同意]',
      )(l).map((x) =>
        x.replace(
          '"强烈同意, 同意, 不同意, 强烈不同意 - 请选择。"',
          '"同意, 不同意, 强烈不同意 - 请选择。"',
        ),
      ),
    );
    const p = only((await rejection(loadWrapperPools(f))).problems, 'E_WRAPPERS_OPTION_COUNT');
    expect(p).toMatchObject({
      line: 15,
      field: 'pools.zh.options',
      expected: '4 options (one per option_values entry)',
      got: '3: 同意 / 不同意 / 强烈不同意',
    });
    expect(p.message).toBe(
      'the zh pool lists 3 options, but option_values (and the en pool) have 4',
    );
  });

  it('missing option_values, a blank text, an unknown field', async () => {
    const values = await file((l) => l.filter((_, i) => i !== 2));
    expect(
      only((await rejection(loadWrapperPools(values))).problems, 'E_WRAPPERS_MISSING_FIELD').field,
    ).toBe('option_values');
    const blank = await file(set(9, '      - {id: en-p1, text: "  "}'));
    expect((await rejection(loadWrapperPools(blank))).problems[0]).toMatchObject({
      code: 'E_WRAPPERS_SCHEMA',
      line: 9,
      field: 'pools.en.prefixes[0].text',
    });
  });

  it('an extending file adds languages, inherits option_values, and its labels are checked against them', async () => {
    const b = await file((l) => l);
    const ok = await writeLines(dir, 'ext-ok.yaml', [
      'version: 1',
      `extends: ${path.basename(b)}`,
      'pools:',
      '  de:',
      '    provenance: {status: authored}',
      '    options: [Stimme voll zu, Stimme zu, Stimme nicht zu, Stimme gar nicht zu]',
      '    prefixes: [{id: de-p1, text: Was ist die Antwort?}]',
      '    suffixes: [{id: de-s1, text: "Stimme voll zu, Stimme zu, Stimme nicht zu, Stimme gar nicht zu."}]',
    ]);
    expect((await loadWrapperPools(ok)).languages).toEqual(['en', 'zh', 'de']);
    const bad = await writeLines(dir, 'ext-bad.yaml', [
      'version: 1',
      `extends: ${path.basename(b)}`,
      'option_values: [1, 0]',
      'pools:',
      '  zh:',
      '    provenance: {status: authored}',
      '    options: [是, 否]',
      '    prefixes: [{id: x-p1, text: 问题}]',
      '    suffixes: [{id: en-s1, text: "是, 否"}]',
    ]);
    const { problems } = await rejection(loadWrapperPools(bad));
    expect(problems.map((p) => p.code).sort()).toEqual([
      'E_WRAPPERS_EXTENDS',
      'E_WRAPPERS_EXTENDS',
    ]);
  });
});
