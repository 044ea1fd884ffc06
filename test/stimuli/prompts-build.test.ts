// Prompt cards, pinned in full: every problem of several bad files (base and extending) in the
// order they are reported, with every field, and the whole result of a good base file and of a
// good file that extends it (key order included: the cards go into sealed bundles).
import path from 'node:path';
import { describe, it } from 'vitest';
import { loadPromptCards } from '../../src/stimuli/prompts.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLines } from './helpers.js';
import { problemIn, problemsOf, sameJson, sha256Of } from './pinned.js';

const dir = await tempDir('stimkit-prompts-build-');

/** A valid base file: two cards in en and zh. */
const baseGood = [
  'version: 1', // 1
  'languages:', // 2
  '  en: {name: English, provenance: {status: authored}}', // 3
  '  zh: {provenance: {status: adjudicated}}', // 4
  'paradigms:', // 5
  '  describe:', // 6
  '    description: Describe the image.', // 7
  '    image: true', // 8
  '    text: {en: Describe it., zh: 请描述。}', // 9
  '    provenance: {zh: {status: authored, notes: own}}', // 10
  '  comment-text:', // 11
  '    image: false', // 12
  '    vars: [subject]', // 13
  '    text: {en: "Tell me about {subject}.", zh: "请介绍{subject}。"}', // 14
];

/** A base file with one or more problems in every card. */
const baseBad = [
  'version: 1', // 1
  'languages:', // 2
  '  en: {provenance: {status: authored}}', // 3
  '  zh: {provenance: {status: authored}}', // 4
  'paradigms:', // 5
  '  describe:', // 6
  '    text: {en: Describe it., pt: Descreva.}', // 7
  '  brace:', // 8
  '    image: true', // 9
  '    text: {en: "Say {it.", zh: "说{subject}。"}', // 10
  '  slots:', // 11
  '    image: false', // 12
  '    vars: [subject, place]', // 13
  '    text: {en: "About {subject}.", zh: "关于{subject}在{place}。"}', // 14
  '    provenance: {fr: {status: authored}}', // 15
];

/** An extending file that breaks every rule of extending. */
const extBad = [
  'version: 1', // 1
  'extends: base-good.yaml', // 2
  'languages: {pt: {provenance: {status: authored}}}', // 3
  'paradigms:', // 4
  '  describe:', // 5
  '    image: false', // 6
  '    vars: [x]', // 7
  '    description: d', // 8
  '    text: {en: Again., pt: "Descreva {x}.", fr: Décrivez.}', // 9
  '  narrative:', // 10
  '    text: {pt: O que acontece?, zh: 发生了什么？}', // 11
];

/** An extending file that adds nothing (and sets an inherited field). */
const extNone = [
  'version: 1', // 1
  'extends: base-good.yaml', // 2
  'languages: {}', // 3
  'paradigms:', // 4
  '  describe: {description: x, text: {}}', // 5
];

/** A valid extending file: a language for every card, and a new card in every language. */
const extGood = [
  'version: 1',
  'extends: base-good.yaml',
  'languages:',
  '  en: {provenance: {status: authored, notes: added cards}}',
  '  pt: {name: Português, provenance: {status: authored}}',
  'paradigms:',
  '  describe: {text: {pt: Descreva.}}',
  '  comment-text:',
  '    text: {pt: "Fale sobre {subject}."}',
  '    provenance: {pt: {status: adjudicated}}',
  '  narrative:',
  '    image: false',
  '    text: {en: What happens?, zh: 发生了什么？, pt: O que acontece?}',
  '    provenance: {zh: {status: authored}}',
];

const files = {
  'base-good.yaml': baseGood,
  'base-bad.yaml': baseBad,
  'ext-bad.yaml': extBad,
  'ext-none.yaml': extNone,
  'ext-good.yaml': extGood,
};
for (const [name, lines] of Object.entries(files)) await writeLines(dir, name, lines);
const at = (name: string) => path.join(dir, name);

describe('prompt cards: every problem, in order', () => {
  it('a base file: a missing image flag and language, stray languages, a stray brace, slots that differ', async () => {
    const p = problemIn('base-bad.yaml');
    sameJson(await problemsOf(loadPromptCards(at('base-bad.yaml'))), [
      p(7, 'paradigms.describe.image', {
        code: 'E_PROMPTS_MISSING_FIELD',
        message: 'paradigm describe does not say whether it shows an image',
        fix: 'add image: true or image: false',
      }),
      p(7, 'paradigms.describe.text', {
        code: 'E_PROMPTS_MISSING_LANGUAGE',
        entry: 'describe',
        message: 'paradigm describe has no zh text',
        expected: 'en, zh',
        got: 'en, pt',
        fix: 'add text.zh',
      }),
      p(7, 'paradigms.describe.text.pt', {
        code: 'E_PROMPTS_UNDECLARED_LANGUAGE',
        entry: 'describe',
        message: "language pt is not declared in this file's languages",
        expected: 'en, zh',
        got: 'pt',
        fix: 'declare pt under languages or remove it',
      }),
      p(10, 'paradigms.brace.text.en', {
        code: 'E_PROMPTS_TEMPLATE_SYNTAX',
        entry: 'brace',
        message: '"{" at character 5 does not open a slot such as {subject} or {outcome_a}',
        fix: 'braces are reserved for slots such as {subject}',
      }),
      p(10, 'paradigms.brace.text.zh', {
        code: 'E_PROMPTS_VARS',
        entry: 'brace',
        message: 'slot(s) {subject} not declared in vars',
        expected: 'no slots',
        got: '{subject}',
        fix: 'use the same slots in every language and list them under vars',
      }),
      p(14, 'paradigms.slots.text.en', {
        code: 'E_PROMPTS_VARS',
        entry: 'slots',
        message: 'declared var(s) place not used in the en text',
        expected: '{subject}, {place}',
        got: '{subject}',
        fix: 'use the same slots in every language and list them under vars',
      }),
      p(15, 'paradigms.slots.provenance.fr', {
        code: 'E_PROMPTS_UNDECLARED_LANGUAGE',
        entry: 'slots',
        message: "language fr is not declared in this file's languages",
        expected: 'en, zh',
        got: 'fr',
        fix: 'declare fr under languages or remove it',
      }),
    ]);
  });

  it('an extending file: base texts and settings, a new card incomplete, a base card without the added language', async () => {
    const p = problemIn('ext-bad.yaml');
    sameJson(await problemsOf(loadPromptCards(at('ext-bad.yaml'))), [
      p(9, 'paradigms.describe.text.en', {
        code: 'E_PROMPTS_EXTENDS',
        entry: 'describe',
        message: 'paradigm describe already has its en text in the base file',
        fix: 'an extending file adds languages and cards; fix the base text in the base file',
      }),
      p(6, 'paradigms.describe.image', {
        code: 'E_PROMPTS_EXTENDS',
        message: 'paradigm describe inherits image from base-good.yaml',
        fix: 'remove image',
      }),
      p(7, 'paradigms.describe.vars', {
        code: 'E_PROMPTS_EXTENDS',
        message: 'paradigm describe inherits vars from base-good.yaml',
        fix: 'remove vars',
      }),
      p(8, 'paradigms.describe.description', {
        code: 'E_PROMPTS_EXTENDS',
        message: 'paradigm describe inherits description from base-good.yaml',
        fix: 'remove description',
      }),
      p(9, 'paradigms.describe.text.pt', {
        code: 'E_PROMPTS_VARS',
        entry: 'describe',
        message: 'slot(s) {x} not declared in vars',
        expected: 'no slots',
        got: '{x}',
        fix: 'use the same slots in every language and list them under vars',
      }),
      p(9, 'paradigms.describe.text.fr', {
        code: 'E_PROMPTS_UNDECLARED_LANGUAGE',
        entry: 'describe',
        message: "language fr is not declared in this file's languages",
        expected: 'pt',
        got: 'fr',
        fix: 'declare fr under languages or remove it',
      }),
      p(11, 'paradigms.narrative.image', {
        code: 'E_PROMPTS_MISSING_FIELD',
        message: 'paradigm narrative does not say whether it shows an image',
        fix: 'add image: true or image: false',
      }),
      p(11, 'paradigms.narrative.text', {
        code: 'E_PROMPTS_MISSING_LANGUAGE',
        entry: 'narrative',
        message: 'paradigm narrative has no en text',
        expected: 'en, zh, pt',
        got: 'pt, zh',
        fix: 'add text.en',
      }),
      p(11, 'paradigms.narrative.text.zh', {
        code: 'E_PROMPTS_EXTENDS',
        entry: 'narrative',
        message:
          'paradigm narrative adds a zh text, but this file does not say where its zh texts come from',
        fix: 'declare zh under languages with the provenance of the texts this file adds (e.g. status: authored)',
      }),
      p(5, 'paradigms', {
        code: 'E_PROMPTS_MISSING_LANGUAGE',
        entry: 'comment-text',
        message: 'paradigm comment-text of the base file has no pt text',
        fix: 'add paradigms.comment-text.text',
      }),
    ]);
  });

  it('an extending file that adds neither a language nor a card', async () => {
    const p = problemIn('ext-none.yaml');
    sameJson(await problemsOf(loadPromptCards(at('ext-none.yaml'))), [
      p(5, 'paradigms.describe.description', {
        code: 'E_PROMPTS_EXTENDS',
        message: 'paradigm describe inherits description from base-good.yaml',
        fix: 'remove description',
      }),
      p(3, 'languages', {
        code: 'E_PROMPTS_EXTENDS',
        message: 'this file adds neither a language nor a card',
        fix: 'add a language (with every card in it) or a new card (in every language)',
      }),
    ]);
  });
});

describe('prompt cards: the whole result', () => {
  const authored = { status: 'authored' };
  const describeBase = {
    paradigm: 'describe',
    description: 'Describe the image.',
    image: true,
    vars: [],
    text: { en: 'Describe it.', zh: '请描述。' },
    provenance: { en: authored, zh: { status: 'authored', notes: 'own' } },
  };
  const commentBase = {
    paradigm: 'comment-text',
    description: null,
    image: false,
    vars: ['subject'],
    text: { en: 'Tell me about {subject}.', zh: '请介绍{subject}。' },
    provenance: { en: authored, zh: { status: 'adjudicated' } },
  };

  it('of a base file', async () => {
    sameJson(await loadPromptCards(at('base-good.yaml')), {
      format: 'stimkit.prompts',
      version: 1,
      languages: ['en', 'zh'],
      paradigms: { describe: describeBase, 'comment-text': commentBase },
      inputs: [{ file: at('base-good.yaml'), sha256: await sha256Of(at('base-good.yaml')) }],
    });
  });

  it('of a file that extends it with a language and a card', async () => {
    sameJson(await loadPromptCards(at('ext-good.yaml')), {
      format: 'stimkit.prompts',
      version: 1,
      languages: ['en', 'zh', 'pt'],
      paradigms: {
        describe: {
          ...describeBase,
          text: { ...describeBase.text, pt: 'Descreva.' },
          provenance: { ...describeBase.provenance, pt: authored },
        },
        'comment-text': {
          ...commentBase,
          text: { ...commentBase.text, pt: 'Fale sobre {subject}.' },
          provenance: { ...commentBase.provenance, pt: { status: 'adjudicated' } },
        },
        narrative: {
          paradigm: 'narrative',
          description: null,
          image: false,
          vars: [],
          text: { en: 'What happens?', zh: '发生了什么？', pt: 'O que acontece?' },
          provenance: {
            en: { status: 'authored', notes: 'added cards' },
            zh: authored,
            pt: authored,
          },
        },
      },
      inputs: [
        { file: at('base-good.yaml'), sha256: await sha256Of(at('base-good.yaml')) },
        { file: at('ext-good.yaml'), sha256: await sha256Of(at('ext-good.yaml')) },
      ],
    });
  });
});
