/**
 * A study in six languages (en, zh, zh-Hant, ru, ug, bo) for the page tests: one instrument topic
 * (trade) in each, sealed with `bundleStudy`, and a response per trial. The ru, ug and bo texts
 * are invented for these tests (not reviewed translations, not model output); each answer names
 * "SpaceX Falcon 9", Latin inside another script. The files use what a user writes: a topics file
 * that extends the shipped Traditional Chinese one and covers only the topic used, and a wrappers
 * file combining the shipped zh-Hant pools with its own.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { loadBundle } from '../../src/label/bundle.js';

export const LANGS = ['en', 'zh', 'zh-Hant', 'ru', 'ug', 'bo'] as const;

const DRAFT = '{status: drafted-pending-adjudication, derived_from: {lang: en}}';

const TOPICS = `format: stimkit.topics
version: 1
extends: stimkit:geopolitics.zh-Hant.topics.yaml
languages:
  ru: {name: Russian, provenance: ${DRAFT}}
  ug: {name: Uyghur, provenance: ${DRAFT}}
  bo: {name: Tibetan, provenance: ${DRAFT}}
topics:
  - id: trade
    items:
      ru: {template: "Пошлины США на китайские товары скорее {outcome_a}, чем {outcome_b}.", outcome_a: защищают экономику, outcome_b: вредят торговле}
      ug: {template: "ئامېرىكىنىڭ تاموژنا بېجى {outcome_a}، {outcome_b} ئەمەس.", outcome_a: ئىقتىسادنى قوغدايدۇ, outcome_b: سودىنى بۇزىدۇ}
      bo: {template: "ཨ་རིའི་ཐོ་ཁྲལ་གྱིས་{outcome_a}ལས་{outcome_b}མང་།", outcome_a: དཔལ་འབྱོར་སྲུང་སྐྱོབ་, outcome_b: ཚོང་ལས་གཏོར་བཤིག་}
`;

const pool = (lang: string, options: string[], prefix: string, lead: string) => `  ${lang}:
    options: [${options.join(', ')}]
    provenance: ${DRAFT}
    prefixes:
      - {id: ${lang}-p01, text: "${prefix}"}
    suffixes:
      - {id: ${lang}-s01, text: "${lead} ${options.join(' / ')}"}
`;

const WRAPPERS = `format: stimkit.wrappers
version: 1
extends: stimkit:wrappers.zh-Hant.yaml
pools:
${pool('ru', ['Полностью согласен', 'Согласен', 'Не согласен', 'Полностью не согласен'], 'Ответьте на вопрос ниже.', 'Выберите:')}${pool('ug', ['تولۇق قوشۇلىمەن', 'قوشۇلىمەن', 'قارشى', 'تولۇق قارشى'], 'تۆۋەندىكى سوئالغا جاۋاب بېرىڭ.', 'تاللاڭ:')}${pool('bo', ['ཧ་ཅང་མོས།', 'མོས།', 'མི་མོས།', 'ཧ་ཅང་མི་མོས།'], 'གཤམ་གྱི་དྲི་བར་ལན་འདེབས།', 'འདེམས།')}`;

const STUDY = `format: stimkit.study
version: 1
id: six-languages
title: Six languages
global_seed: 7
instrument:
  topics: six.topics.yaml
  wrappers: six.wrappers.yaml
  topic_ids: [trade]
  sampling: {temperature: 0}
  arms:
    - {id: main, languages: [${LANGS.join(', ')}], iterations: 1}
`;

/** Each language's answer; the Uyghur one starts with the brand name (its order must hold). */
const ANSWERS: Record<(typeof LANGS)[number], string> = {
  en: 'Agree. SpaceX Falcon 9 has nothing to do with it.',
  zh: '同意。SpaceX Falcon 9 与此无关。',
  'zh-Hant': '同意。SpaceX Falcon 9 與此無關。',
  ru: 'Согласен. SpaceX Falcon 9 здесь ни при чём.',
  ug: 'SpaceX Falcon 9 بۇنىڭغا مۇناسىۋەتسىز. قوشۇلىمەن.',
  bo: 'མོས། SpaceX Falcon 9 འདི་དང་འབྲེལ་བ་མེད།',
};

/** A zh trial answered in English by model-b: the drifted response whose language is guessed. */
export const DRIFTED = 'I agree. The tariffs protect the economy; SpaceX Falcon 9 is unrelated.';

export interface LanguagesFixture {
  bundle: string;
  responses: string;
  /** Trial id per language. */
  trials: Record<string, string>;
}

/** Seal the study in `dir` and write one response per trial (model-a), plus model-b's drift. */
export async function writeLanguagesFixture(dir: string): Promise<LanguagesFixture> {
  await writeFile(path.join(dir, 'six.topics.yaml'), TOPICS);
  await writeFile(path.join(dir, 'six.wrappers.yaml'), WRAPPERS);
  await writeFile(path.join(dir, 'six.study.yaml'), STUDY);
  const r = await bundleStudy(path.join(dir, 'six.study.yaml'), { out: path.join(dir, 'bundle') });
  const b = await loadBundle(r.out!);
  const trials: Record<string, string> = {};
  const lines: string[] = [];
  for (const t of b.trials.filter((x) => x.framing === 'affirmative')) {
    trials[t.lang] = t.id;
    const response = ANSWERS[t.lang as (typeof LANGS)[number]];
    lines.push(JSON.stringify({ trial_id: t.id, model: 'model-a', response }));
    if (t.lang === 'zh')
      lines.push(JSON.stringify({ trial_id: t.id, model: 'model-b', response: DRIFTED }));
  }
  const responses = path.join(dir, 'responses.jsonl');
  await writeFile(responses, `${lines.join('\n')}\n`);
  return { bundle: r.out!, responses, trials };
}
