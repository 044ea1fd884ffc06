// Prompt cards: invalid files rejected with code, line and field; rendering errors name the fix.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPromptCards, renderPromptCard } from '../../src/stimuli/prompts.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { only, rejection, writeLines } from './helpers.js';

const dir = await tempDir('stimkit-prompts-');
const base = () => [
  'version: 1', // 1
  'languages:', // 2
  '  en: {provenance: {status: authored}}', // 3
  '  zh: {provenance: {status: authored}}', // 4
  'paradigms:', // 5
  '  describe:', // 6
  '    image: true', // 7
  '    text: {en: Describe it., zh: 请描述。}', // 8
  '  comment-text:', // 9
  '    image: false', // 10
  '    vars: [subject]', // 11
  '    text: {en: "Tell me about {subject}.", zh: "请介绍{subject}。"}', // 12
];
let n = 0;
const file = (edit: (l: string[]) => string[]) => writeLines(dir, `p${n++}.yaml`, edit(base()));
const set = (no: number, text: string) => (l: string[]) =>
  l.map((x, i) => (i === no - 1 ? text : x));

describe('prompt cards: rendering', () => {
  it('fills {subject} and refuses a missing one, an unknown paradigm or language', async () => {
    const cards = await loadPromptCards(await file((l) => l));
    expect(renderPromptCard(cards, 'comment-text', 'en', { subject: 'Agnes Chow' })).toBe(
      'Tell me about Agnes Chow.',
    );
    expect(renderPromptCard(cards, 'describe', 'en', { subject: 'ignored' })).toBe('Describe it.');
    expect(() => renderPromptCard(cards, 'comment-text', 'en')).toThrow(/needs \{subject\}/);
    expect(() => renderPromptCard(cards, 'comment-text', 'en', { subject: ' ' })).toThrow(
      /needs \{subject\}/,
    );
    expect(() => renderPromptCard(cards, 'narative', 'en')).toThrow(
      /no prompt card for paradigm narative/,
    );
    expect(() => renderPromptCard(cards, 'describe', 'pt')).toThrow(/no pt prompt/);
  });
});

describe('prompt cards: invalid files', () => {
  it('a paradigm missing a language (E_PROMPTS_MISSING_LANGUAGE)', async () => {
    const f = await file(set(8, '    text: {en: Describe it.}'));
    expect(
      only((await rejection(loadPromptCards(f))).problems, 'E_PROMPTS_MISSING_LANGUAGE'),
    ).toMatchObject({ line: 8, field: 'paradigms.describe.text', got: 'en' });
  });

  it('a slot not declared in vars, or a declared var unused (E_PROMPTS_VARS)', async () => {
    const undeclared = await file(set(8, '    text: {en: "Describe {subject}.", zh: 请描述。}'));
    expect(
      only((await rejection(loadPromptCards(undeclared))).problems, 'E_PROMPTS_VARS'),
    ).toMatchObject({
      line: 8,
      field: 'paradigms.describe.text.en',
      expected: 'no slots',
      got: '{subject}',
    });
    const unused = await file(
      set(12, '    text: {en: "Tell me about {subject}.", zh: "请介绍。"}'),
    );
    expect(only((await rejection(loadPromptCards(unused))).problems, 'E_PROMPTS_VARS').field).toBe(
      'paradigms.comment-text.text.zh',
    );
  });

  it('no image flag, an undeclared language, a stray brace', async () => {
    const noImage = await file((l) => l.filter((_, i) => i !== 6));
    expect(
      only((await rejection(loadPromptCards(noImage))).problems, 'E_PROMPTS_MISSING_FIELD').field,
    ).toBe('paradigms.describe.image');
    const extra = await file(set(8, '    text: {en: Describe it., zh: 请描述。, pt: Descreva.}'));
    expect(
      only((await rejection(loadPromptCards(extra))).problems, 'E_PROMPTS_UNDECLARED_LANGUAGE').got,
    ).toBe('pt');
    const brace = await file(set(8, '    text: {en: "Describe {it.", zh: 请描述。}'));
    expect(
      only((await rejection(loadPromptCards(brace))).problems, 'E_PROMPTS_TEMPLATE_SYNTAX').line,
    ).toBe(8);
  });

  it('an extending file adds languages and whole cards, never a base text or setting', async () => {
    const b = await file((l) => l);
    const bad = await writeLines(dir, 'ext.yaml', [
      'version: 1',
      `extends: ${path.basename(b)}`,
      'languages: {pt: {provenance: {status: authored}}}',
      'paradigms:',
      '  describe: {image: false, text: {pt: Descreva.}}',
      '  narrative: {text: {pt: O que acontece?}}',
    ]);
    const { problems } = await rejection(loadPromptCards(bad));
    // describe sets what it inherits; narrative is a new card (no image flag, no en/zh text);
    // comment-text of the base lacks the added pt.
    expect(problems.map((p) => `${p.code} ${p.field}`).sort()).toEqual([
      'E_PROMPTS_EXTENDS paradigms.describe.image',
      'E_PROMPTS_MISSING_FIELD paradigms.narrative.image',
      'E_PROMPTS_MISSING_LANGUAGE paradigms',
      'E_PROMPTS_MISSING_LANGUAGE paradigms.narrative.text',
      'E_PROMPTS_MISSING_LANGUAGE paradigms.narrative.text',
    ]);
  });

  it('the shipped cards load with their zh-Hant extension', async () => {
    const cards = await loadPromptCards(path.join(ROOT, 'manifests', 'prompts.zh-Hant.yaml'));
    expect(cards.languages).toEqual(['en', 'zh', 'zh-Hant']);
    expect(cards.paradigms.describe!.provenance['zh-Hant']!.status).toBe(
      'machine-draft-pending-review',
    );
  });
});
