// Wrapper pools, pinned in full: every problem of several bad files (base and extending) in the
// order they are reported, with every field, and the whole result of a good base file and of a
// good file that extends it (key order included: the pools go into sealed bundles).
import path from 'node:path';
import { describe, it } from 'vitest';
import { loadWrapperPools } from '../../src/stimuli/wrappers.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLines } from './helpers.js';
import { problemIn, problemsOf, sameJson, sha256Of } from './pinned.js';

const dir = await tempDir('stimkit-wrappers-build-');

/** A valid base file: an en and a zh pool. */
const baseGood = [
  'version: 1', // 1
  'option_values: [2, 1, -1, -2]', // 2
  'pools:', // 3
  '  en:', // 4
  '    name: English', // 5
  '    provenance: {status: authored}', // 6
  '    options: [Strongly agree, Agree, Disagree, Strongly disagree]', // 7
  '    prefixes:', // 8
  '      - {id: en-p1, text: What is the answer?}', // 9
  '      - {id: en-p2, text: Answer the question below., provenance: {status: adjudicated}}', // 10
  '    suffixes:', // 11
  '      - {id: en-s1, text: "Strongly agree, Agree, Disagree, Strongly disagree - pick one."}', // 12
  '  zh:', // 13
  '    provenance: {status: adjudicated}', // 14
  '    options: [强烈同意, 同意, 不同意, 强烈不同意]', // 15
  '    prefixes: [{id: zh-p1, text: 答案是什么？}]', // 16
  '    suffixes: [{id: zh-s1, text: "强烈同意, 同意, 不同意, 强烈不同意 - 请选择。"}]', // 17
];

/** A base file with repeated values, labels, ids and texts, a short pool and no base to add to. */
const baseBad = [
  'version: 1', // 1
  'option_values: [2, 1, 1, -2]', // 2
  'pools:', // 3
  '  en:', // 4
  '    provenance: {status: authored}', // 5
  '    options: [Agree, Neutral, "Agree", Disagree]', // 6
  '    prefixes:', // 7
  '      - {id: p1, text: Answer this.}', // 8
  '      - {id: p1, text: "Answer  this."}', // 9
  '    suffixes:', // 10
  '      - {id: s1, text: "Agree or Disagree."}', // 11
  '      - {id: s2, text: "Agree  or Disagree."}', // 12
  '  zh:', // 13
  '    provenance: {status: authored}', // 14
  '    options: [同意, 不同意]', // 15
  '    prefixes: [{id: zp1, text: 问题}]', // 16
  '    suffixes: [{id: s1, text: 同意}]', // 17
  'add_to_pools:', // 18
  '  en: {provenance: {status: authored}, prefixes: [{id: a1, text: More.}]}', // 19
];

/** A base file without option_values. */
const noValues = [
  'version: 1', // 1
  'pools:', // 2
  '  en:', // 3
  '    provenance: {status: authored}', // 4
  '    options: [Yes, No]', // 5
  '    prefixes: [{id: p1, text: Answer.}]', // 6
  '    suffixes: [{id: s1, text: "Yes or No."}]', // 7
];

/** A base file without pools. */
const noPools = ['version: 1', 'option_values: [1, 0]'];

/** An extending file that breaks every rule of extending. */
const extBad = [
  'version: 1', // 1
  'extends: base-good.yaml', // 2
  'option_values: [1, 0]', // 3
  'pools:', // 4
  '  zh:', // 5
  '    provenance: {status: authored}', // 6
  '    options: [是, 否]', // 7
  '    prefixes: [{id: x-p1, text: 问题}]', // 8
  '    suffixes: [{id: x-s1, text: "是, 否"}]', // 9
  '  de:', // 10
  '    provenance: {status: authored}', // 11
  '    options: [Ja, Nein]', // 12
  '    prefixes: [{id: en-p1, text: Frage}]', // 13
  '    suffixes: [{id: de-s1, text: "Ja, Nein"}]', // 14
  'add_to_pools:', // 15
  '  fr: {provenance: {status: authored}, prefixes: [{id: fr-p1, text: Question}]}', // 16
  '  en:', // 17
  '    provenance: {status: authored}', // 18
  '    prefixes:', // 19
  '      - {id: en-p9, text: "What is  the answer?"}', // 20
  '      - {id: en-p10, text: New one.}', // 21
  '      - {id: en-p11, text: New one.}', // 22
  '    suffixes:', // 23
  '      - {id: de-s1, text: Agree only.}', // 24
];

/** An extending file with nothing in it. */
const extEmpty = ['version: 1', 'extends: base-good.yaml'];

/** A valid extending file: a de pool, and texts added to the en and zh pools. */
const extGood = [
  'version: 1',
  'extends: base-good.yaml',
  'pools:',
  '  de:',
  '    provenance: {status: authored}',
  '    options: [Stimme voll zu, Stimme zu, Stimme nicht zu, Stimme gar nicht zu]',
  '    prefixes: [{id: de-p1, text: Was ist die Antwort?}]',
  '    suffixes: [{id: de-s1, text: "Stimme voll zu, Stimme zu, Stimme nicht zu, Stimme gar nicht zu."}]',
  'add_to_pools:',
  '  en:',
  '    provenance: {status: authored, notes: added}',
  '    prefixes: [{id: en-p3, text: A new question.}]',
  '    suffixes:',
  '      - {id: en-s2, text: "Strongly agree, Agree, Disagree or Strongly disagree?", provenance: {status: adjudicated}}',
  '  zh:',
  '    provenance: {status: authored}',
  '    prefixes: [{id: zh-p2, text: 请回答。}]',
];

const files = {
  'base-good.yaml': baseGood,
  'base-bad.yaml': baseBad,
  'no-values.yaml': noValues,
  'no-pools.yaml': noPools,
  'ext-bad.yaml': extBad,
  'ext-empty.yaml': extEmpty,
  'ext-good.yaml': extGood,
};
for (const [name, lines] of Object.entries(files)) await writeLines(dir, name, lines);
const at = (name: string) => path.join(dir, name);

describe('wrapper pools: every problem, in order', () => {
  it('a base file: repeated values, labels, ids and texts, missing labels, a short pool, add_to_pools without a base', async () => {
    const p = problemIn('base-bad.yaml');
    sameJson(await problemsOf(loadWrapperPools(at('base-bad.yaml'))), [
      p(2, 'option_values', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'option_values repeats a value, so two options would score the same',
        got: '[2,1,1,-2]',
        fix: 'give each option position its own value',
      }),
      p(6, 'pools.en.options[2]', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'option label "Agree" is listed twice',
        got: 'options[0] and options[2]',
        fix: 'give each option its own label',
      }),
      p(9, 'pools.en.prefixes[1].id', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'wrapper id "p1" is used twice',
        got: 'en.prefixes[0] and en.prefixes[1]',
        fix: 'give every prefix and suffix its own id (trials record it)',
      }),
      p(9, 'pools.en.prefixes[1].text', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'duplicate prefix: same text as prefixes[0]',
        expected: 'distinct prefixes',
        got: 'Answer  this.',
        fix: 'reword or remove one of prefixes[0] and prefixes[1] (a duplicate would double its draw probability)',
      }),
      p(11, 'pools.en.suffixes[0].text', {
        code: 'E_WRAPPERS_SUFFIX_MISSING_OPTION',
        message: 'suffix s1 does not list "Neutral", "Agree"',
        expected: 'every option: Agree, Neutral, Agree, Disagree',
        got: 'Agree or Disagree.',
        fix: 'add "Neutral", "Agree" to the suffix, spelled exactly as in options',
      }),
      p(12, 'pools.en.suffixes[1].text', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'duplicate suffix: same text as suffixes[0]',
        expected: 'distinct suffixes',
        got: 'Agree  or Disagree.',
        fix: 'reword or remove one of suffixes[0] and suffixes[1] (a duplicate would double its draw probability)',
      }),
      p(12, 'pools.en.suffixes[1].text', {
        code: 'E_WRAPPERS_SUFFIX_MISSING_OPTION',
        message: 'suffix s2 does not list "Neutral", "Agree"',
        expected: 'every option: Agree, Neutral, Agree, Disagree',
        got: 'Agree  or Disagree.',
        fix: 'add "Neutral", "Agree" to the suffix, spelled exactly as in options',
      }),
      p(15, 'pools.zh.options', {
        code: 'E_WRAPPERS_OPTION_COUNT',
        message: 'the zh pool lists 2 options, but option_values (and the en pool) have 4',
        expected: '4 options (one per option_values entry)',
        got: '2: 同意 / 不同意',
        fix: 'list the same response options, in the same order, in every language',
      }),
      p(17, 'pools.zh.suffixes[0].id', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'wrapper id "s1" is used twice',
        got: 'en.suffixes[0] and zh.suffixes[0]',
        fix: 'give every prefix and suffix its own id (trials record it)',
      }),
      p(17, 'pools.zh.suffixes[0].text', {
        code: 'E_WRAPPERS_SUFFIX_MISSING_OPTION',
        message: 'suffix s1 does not list "不同意"',
        expected: 'every option: 同意, 不同意',
        got: '同意',
        fix: 'add "不同意" to the suffix, spelled exactly as in options',
      }),
      p(19, 'add_to_pools.en', {
        code: 'E_WRAPPERS_EXTENDS',
        message: 'add_to_pools needs a base file (extends)',
        expected: 'extends: <base wrappers file>',
        got: 'en',
        fix: 'add extends, or put the texts in pools',
      }),
    ]);
  });

  it('a base file without option_values', async () => {
    const p = problemIn('no-values.yaml');
    sameJson(await problemsOf(loadWrapperPools(at('no-values.yaml'))), [
      p(1, 'option_values', {
        code: 'E_WRAPPERS_MISSING_FIELD',
        message: 'option_values is required (unless the file extends another)',
        fix: 'add option_values: [2, 1, -1, -2]',
      }),
      p(5, 'pools.en.options', {
        code: 'E_WRAPPERS_OPTION_COUNT',
        message: 'the en pool lists 2 options, but option_values has 0',
        expected: '0 options (one per option_values entry)',
        got: '2: Yes / No',
        fix: 'list the same response options, in the same order, in every language',
      }),
    ]);
  });

  it('a base file without pools', async () => {
    const p = problemIn('no-pools.yaml');
    sameJson(await problemsOf(loadWrapperPools(at('no-pools.yaml'))), [
      p(1, 'pools', {
        code: 'E_WRAPPERS_MISSING_FIELD',
        message: 'no pools',
        fix: 'add a pool for at least one language',
      }),
    ]);
  });

  it('an extending file: option_values, a base language, a short pool, a base id, no base pool to add to, base and repeated texts', async () => {
    const p = problemIn('ext-bad.yaml');
    sameJson(await problemsOf(loadWrapperPools(at('ext-bad.yaml'))), [
      p(3, 'option_values', {
        code: 'E_WRAPPERS_EXTENDS',
        message: 'a file that extends base-good.yaml inherits option_values; it cannot set it',
        fix: 'remove option_values',
      }),
      p(6, 'pools.zh', {
        code: 'E_WRAPPERS_EXTENDS',
        message: 'language zh is already in the base file',
        fix: 'an extending file adds new languages only',
      }),
      p(12, 'pools.de.options', {
        code: 'E_WRAPPERS_OPTION_COUNT',
        message: 'the de pool lists 2 options, but option_values (and the en pool) have 4',
        expected: '4 options (one per option_values entry)',
        got: '2: Ja / Nein',
        fix: 'list the same response options, in the same order, in every language',
      }),
      p(13, 'pools.de.prefixes[0].id', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'wrapper id "en-p1" is used twice',
        got: 'en (in base-good.yaml) and de.prefixes[0]',
        fix: 'give every prefix and suffix its own id (trials record it)',
      }),
      p(16, 'add_to_pools.fr', {
        code: 'E_WRAPPERS_EXTENDS',
        message: 'the base file has no fr pool to add to',
        expected: 'one of en, zh',
        got: 'fr',
        fix: 'add a whole fr pool under pools instead',
      }),
      p(20, 'add_to_pools.en.prefixes[0].text', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'duplicate prefix: same text as en-p1 of the base pool',
        expected: 'distinct prefixes',
        got: 'What is  the answer?',
        fix: 'reword or remove one of en-p1 of the base pool and prefixes[0] (a duplicate would double its draw probability)',
      }),
      p(22, 'add_to_pools.en.prefixes[2].text', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'duplicate prefix: same text as prefixes[1]',
        expected: 'distinct prefixes',
        got: 'New one.',
        fix: 'reword or remove one of prefixes[1] and prefixes[2] (a duplicate would double its draw probability)',
      }),
      p(24, 'add_to_pools.en.suffixes[0].id', {
        code: 'E_WRAPPERS_DUPLICATE',
        message: 'wrapper id "de-s1" is used twice',
        got: 'de.suffixes[0] and en.suffixes[0]',
        fix: 'give every prefix and suffix its own id (trials record it)',
      }),
      p(24, 'add_to_pools.en.suffixes[0].text', {
        code: 'E_WRAPPERS_SUFFIX_MISSING_OPTION',
        message: 'suffix de-s1 does not list "Strongly agree", "Disagree", "Strongly disagree"',
        expected: 'every option: Strongly agree, Agree, Disagree, Strongly disagree',
        got: 'Agree only.',
        fix: 'add "Strongly agree", "Disagree", "Strongly disagree" to the suffix, spelled exactly as in options',
      }),
    ]);
  });

  it('an extending file with nothing in it', async () => {
    const p = problemIn('ext-empty.yaml');
    sameJson(await problemsOf(loadWrapperPools(at('ext-empty.yaml'))), [
      p(1, 'pools', {
        code: 'E_WRAPPERS_MISSING_FIELD',
        message: 'no pools',
        fix: 'add a pool for a new language, or texts under add_to_pools',
      }),
    ]);
  });
});

describe('wrapper pools: the whole result', () => {
  const authored = { status: 'authored' };
  const adjudicated = { status: 'adjudicated' };
  const w = (id: string, index: number, text: string, provenance: object) => ({
    id,
    index,
    text,
    provenance,
  });
  const options = (labels: string[]) =>
    labels.map((label, i) => ({ label, value: [2, 1, -1, -2][i] }));
  const en = {
    lang: 'en',
    name: 'English',
    options: options(['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree']),
    prefixes: [
      w('en-p1', 0, 'What is the answer?', authored),
      w('en-p2', 1, 'Answer the question below.', adjudicated),
    ],
    suffixes: [
      w('en-s1', 0, 'Strongly agree, Agree, Disagree, Strongly disagree - pick one.', authored),
    ],
    provenance: authored,
  };
  const zh = {
    lang: 'zh',
    name: null,
    options: options(['强烈同意', '同意', '不同意', '强烈不同意']),
    prefixes: [w('zh-p1', 0, '答案是什么？', adjudicated)],
    suffixes: [w('zh-s1', 0, '强烈同意, 同意, 不同意, 强烈不同意 - 请选择。', adjudicated)],
    provenance: adjudicated,
  };

  it('of a base file', async () => {
    sameJson(await loadWrapperPools(at('base-good.yaml')), {
      format: 'stimkit.wrappers',
      version: 1,
      option_values: [2, 1, -1, -2],
      languages: ['en', 'zh'],
      pools: { en, zh },
      inputs: [{ file: at('base-good.yaml'), sha256: await sha256Of(at('base-good.yaml')) }],
    });
  });

  it('of a file that extends it with a pool and with texts added to two pools', async () => {
    sameJson(await loadWrapperPools(at('ext-good.yaml')), {
      format: 'stimkit.wrappers',
      version: 1,
      option_values: [2, 1, -1, -2],
      languages: ['en', 'zh', 'de'],
      pools: {
        en: {
          ...en,
          prefixes: [
            ...en.prefixes,
            w('en-p3', 2, 'A new question.', { status: 'authored', notes: 'added' }),
          ],
          suffixes: [
            ...en.suffixes,
            w('en-s2', 1, 'Strongly agree, Agree, Disagree or Strongly disagree?', adjudicated),
          ],
        },
        zh: { ...zh, prefixes: [...zh.prefixes, w('zh-p2', 1, '请回答。', authored)] },
        de: {
          lang: 'de',
          name: null,
          options: options([
            'Stimme voll zu',
            'Stimme zu',
            'Stimme nicht zu',
            'Stimme gar nicht zu',
          ]),
          prefixes: [w('de-p1', 0, 'Was ist die Antwort?', authored)],
          suffixes: [
            w(
              'de-s1',
              0,
              'Stimme voll zu, Stimme zu, Stimme nicht zu, Stimme gar nicht zu.',
              authored,
            ),
          ],
          provenance: authored,
        },
      },
      inputs: [
        { file: at('base-good.yaml'), sha256: await sha256Of(at('base-good.yaml')) },
        { file: at('ext-good.yaml'), sha256: await sha256Of(at('ext-good.yaml')) },
      ],
    });
  });
});
