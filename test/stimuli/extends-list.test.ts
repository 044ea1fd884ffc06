// Extending without copying: `extends` takes a list of files (combining language files of one
// base), and a language file may cover only the topics a study uses.
import { describe, expect, it } from 'vitest';
import { checkFiles } from '../../src/check/index.js';
import { runPairs } from '../../src/stimuli/pairs.js';
import { loadPromptCards } from '../../src/stimuli/prompts.js';
import { pairsHuman } from '../../src/stimuli/summary.js';
import { loadTopics, missingItems } from '../../src/stimuli/topics.js';
import { loadWrapperPools } from '../../src/stimuli/wrappers.js';
import { tempDir } from '../helpers/tmp.js';
import { rejection, writeLines } from './helpers.js';

const RU_TOPICS = [
  'format: stimkit.topics',
  'version: 1',
  'extends: stimkit:geopolitics.topics.yaml',
  'languages:',
  '  ru: {name: Russian, provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}}',
  'topics:',
  '  - id: trade',
  '    items:',
  '      ru:',
  '        template: "Торговая политика США скорее {outcome_a}, чем {outcome_b}."',
  '        outcome_a: поможет',
  '        outcome_b: навредит',
];

const RU_WRAPPERS = [
  'format: stimkit.wrappers',
  'version: 1',
  'extends: stimkit:wrappers.yaml',
  'pools:',
  '  ru:',
  '    name: Russian',
  '    options: [Полностью согласен, Согласен, Не согласен, Полностью не согласен]',
  '    provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}',
  '    prefixes:',
  '      - {id: ru-p01, text: Как вы ответите на вопрос ниже?}',
  '    suffixes:',
  '      - {id: ru-s01, text: "Ответьте одним из: Полностью согласен, Согласен, Не согласен, Полностью не согласен."}',
];

const study = (topicIds: string) => [
  'format: stimkit.study',
  'version: 1',
  'id: ru-pilot',
  'title: Russian pilot',
  'global_seed: 7',
  'instrument:',
  '  topics: ru.topics.yaml',
  '  wrappers: ru.wrappers.yaml',
  ...(topicIds ? [`  topic_ids: [${topicIds}]`] : []),
  '  sampling: {temperature: 0}',
  '  arms:',
  '    - {id: main, languages: [en, ru], iterations: 2}',
];

/** The Russian topics and wrappers, and a study of `topicIds` in en and ru, in a new folder. */
async function ruStudy(topicIds: string): Promise<string> {
  const dir = await tempDir('stimkit-extends-');
  await writeLines(dir, 'ru.topics.yaml', RU_TOPICS);
  await writeLines(dir, 'ru.wrappers.yaml', RU_WRAPPERS);
  return writeLines(dir, 'ru.study.yaml', study(topicIds));
}

describe('extends: a language file for the topics a study uses', () => {
  it('loads a Russian file with one topic; check names the six it lacks', async () => {
    const dir = await tempDir('stimkit-extends-');
    const file = await writeLines(dir, 'ru.topics.yaml', RU_TOPICS);
    const t = await loadTopics(file);
    expect(t.languages).toEqual(['en', 'zh', 'ru']);
    expect(missingItems(t)).toEqual({
      ru: ['taiwan', 'south-china-sea', 'xinjiang', 'belt-and-road', 'technology', 'dollar'],
    });
    // pairs expands the items there are and lists the others.
    const pairs = await runPairs(t, { langs: ['ru'] });
    expect(pairs.artifact.counts).toMatchObject({ topics: 7, items: 2 });
    expect(pairs.artifact.counts.missing_items).toEqual(missingItems(t));
    expect(pairsHuman(pairs)).toContain(
      'note: 6 topic(s) have no ru item (taiwan, south-china-sea',
    );
    const r = await checkFiles([file]);
    expect(r.ok).toBe(true);
    expect(r.files[0]!.problems).toMatchObject([
      { code: 'W_TOPICS_PARTIAL_LANGUAGE', severity: 'warning', field: 'topics' },
    ]);
    expect(r.files[0]!.problems[0]!.message).toContain(
      '6 of 7 topics have no ru item (taiwan, south-china-sea, xinjiang, belt-and-road, technology, dollar)',
    );
  });

  it('a study using only the covered topic checks, and says the others are unused', async () => {
    const ok = await ruStudy('trade');
    const r = await checkFiles([ok]);
    expect(r.files[0]!.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(r.files[0]!.summary).toMatchObject({ trials: 8 });
    const note = r.files[0]!.problems.find((p) => p.code === 'W_TOPICS_UNUSED_LANGUAGE');
    expect(note?.message).toBe(
      'topic(s) taiwan, south-china-sea, xinjiang, belt-and-road, technology, dollar have no ru item in ru.topics.yaml; the study does not use them',
    );
  });

  it('a study using a topic the language lacks is refused, naming the topics', async () => {
    const bad = await ruStudy('trade, dollar');
    const r = await checkFiles([bad]);
    expect(r.ok).toBe(false);
    expect(r.files[0]!.problems).toMatchObject([
      {
        code: 'E_TOPICS_MISSING_LANGUAGE',
        field: 'instrument.arms[0].languages[1]',
        message: 'the study uses topic(s) dollar, which ru.topics.yaml has no "ru" item for',
        got: '1 of 2',
      },
    ]);
  });
});

describe('extends: a list combines files of one base', () => {
  it('combines the shipped Portuguese and Traditional Chinese topics without copying', async () => {
    const dir = await tempDir('stimkit-extends-');
    const file = await writeLines(dir, 'both.topics.yaml', [
      'format: stimkit.topics',
      'version: 1',
      'extends: [stimkit:geopolitics.pt.topics.yaml, stimkit:geopolitics.zh-Hant.topics.yaml]',
    ]);
    const t = await loadTopics(file);
    expect(t.languages).toEqual(['en', 'zh', 'pt', 'zh-Hant']);
    // The base file is read once, though both files extend it.
    expect(t.inputs.map((i) => i.file.split('/').pop())).toEqual([
      'geopolitics.topics.yaml',
      'geopolitics.pt.topics.yaml',
      'geopolitics.zh-Hant.topics.yaml',
      'both.topics.yaml',
    ]);
    expect(missingItems(t)).toEqual({});
    expect(t.topics[0]!.items['zh-Hant']!.affirmative).toContain('臺');
  });

  it('combines wrapper pools and prompt cards the same way', async () => {
    const dir = await tempDir('stimkit-extends-');
    await writeLines(dir, 'ru.wrappers.yaml', RU_WRAPPERS);
    const w = await writeLines(dir, 'both.wrappers.yaml', [
      'format: stimkit.wrappers',
      'version: 1',
      'extends: [ru.wrappers.yaml, stimkit:wrappers.zh-Hant.yaml]',
    ]);
    expect((await loadWrapperPools(w)).languages).toEqual(['en', 'zh', 'pt', 'ru', 'zh-Hant']);
    const p = await writeLines(dir, 'both.prompts.yaml', [
      'format: stimkit.prompts',
      'version: 1',
      'extends: [stimkit:prompts.zh-Hant.yaml]',
      'languages: {}',
      'paradigms: {}',
    ]);
    // A list of one file is that file: it must still add something.
    expect((await rejection(loadPromptCards(p))).error.code).toBe('E_PROMPTS_EXTENDS');
  });

  it('refuses files of different bases, naming them', async () => {
    const dir = await tempDir('stimkit-extends-');
    const file = await writeLines(dir, 'mixed.topics.yaml', [
      'format: stimkit.topics',
      'version: 1',
      'extends: [stimkit:geopolitics.pt.topics.yaml, stimkit:science-consensus.topics.yaml]',
    ]);
    const { error } = await rejection(loadTopics(file));
    expect(error.code).toBe('E_TOPICS_EXTENDS');
    expect(error.message).toContain(
      'build on different base files (geopolitics.topics.yaml, science-consensus.topics.yaml)',
    );
  });
});
