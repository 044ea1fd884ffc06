/**
 * Checking a study's languages against its stimuli once, when they are loaded: every language a
 * VLM paradigm uses needs its prompt card's text, and every language of an instrument arm needs
 * the topics' items and a wrapper pool. Each missing language is one problem at the study file's
 * line and field (`languages[1]`, `paradigms.describe.languages[0]`,
 * `instrument.arms[0].languages[1]`), naming what lacks it, instead of one per trial.
 */
import { formatPath, lineOf } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { closest } from '../core/suggest.js';
import type { PromptCards } from '../stimuli/prompts.js';
import type { TopicsFile } from '../stimuli/topics.js';
import type { WrapperPools } from '../stimuli/wrappers.js';
import type { LoadedStudy } from '../study/load.js';

/** The loaded stimuli the check needs (any may be absent). */
export interface StimulusLanguages {
  cards?: PromptCards;
  topics?: TopicsFile;
  pools?: WrapperPools;
}

/** One problem per language the stimuli lack, in study order. */
export function checkStimulusLanguages(loaded: LoadedStudy, s: StimulusLanguages): Problem[] {
  const { study } = loaded;
  const problems: Problem[] = [];
  if (s.cards && study.prompts) checkCardLanguages(loaded, s.cards, study.prompts, problems);
  if (study.instrument) checkArmLanguages(loaded, study.instrument, s, problems);
  return problems;
}

/** The study file, line and field of a path in the study. */
function fieldAt(loaded: LoadedStudy, where: PropertyKey[]) {
  return { file: loaded.file, line: lineOf(loaded.parsed, where), field: formatPath(where) };
}

/** Every language a VLM paradigm uses has its prompt card's text (one problem per field). */
function checkCardLanguages(
  loaded: LoadedStudy,
  cards: PromptCards,
  src: string,
  problems: Problem[],
): void {
  const { study } = loaded;
  // Problems keyed by field, so that a study-level language lacking in several cards is one problem.
  const missing = new Map<string, { problem: Problem; cards: string[] }>();
  for (const [paradigm, block] of loaded.paradigms) {
    const name = block.prompt ?? paradigm;
    const card = cards.paradigms[name];
    if (!card) {
      problems.push({
        code: 'E_PROMPTS_UNKNOWN_PARADIGM',
        severity: 'error',
        ...fieldAt(
          loaded,
          block.prompt ? ['paradigms', paradigm, 'prompt'] : ['paradigms', paradigm],
        ),
        message: `no prompt card "${name}" in ${src}`,
        expected: `one of ${Object.keys(cards.paradigms).join(', ')}`,
        got: name,
        fix: block.prompt
          ? 'name a card of the prompt cards'
          : `add a ${name} card to ${src}, or set paradigms.${paradigm}.prompt`,
      });
      continue;
    }
    const base: PropertyKey[] = block.languages
      ? ['paradigms', paradigm, 'languages']
      : ['languages'];
    (block.languages ?? study.languages).forEach((lang, i) => {
      if (card.text[lang] !== undefined) return;
      const where = [...base, i];
      const key = formatPath(where);
      const seen = missing.get(key);
      if (seen) {
        seen.cards.push(name);
        return;
      }
      const problem: Problem = {
        code: 'E_PROMPTS_NO_LANGUAGE',
        severity: 'error',
        ...fieldAt(loaded, where),
        message: '',
        expected: `one of ${cards.languages.join(', ')}`,
        got: lang,
        fix: `${typoOf(lang, cards.languages)}add ${lang} texts to the prompt cards (a file that extends ${src} is enough), or drop ${lang} here`,
      };
      missing.set(key, { problem, cards: [name] });
      problems.push(problem);
    });
  }
  for (const { problem, cards: names } of missing.values()) {
    problem.message = `no "${problem.got}" text in ${src} for the prompt card(s) ${names.join(', ')}`;
  }
}

/**
 * E_TOPICS_MISSING_LANGUAGE naming the topics the study uses (`topic_ids`, or every topic) that
 * have no item in `lang`: a language file may cover only some topics (the ones a study uses).
 */
function uncoveredTopics(
  loaded: LoadedStudy,
  ins: NonNullable<LoadedStudy['study']['instrument']>,
  topics: TopicsFile,
  lang: string,
  where: PropertyKey[],
  problems: Problem[],
): void {
  const used = ins.topic_ids ?? topics.topics.map((t) => t.id);
  const lacking = topics.topics.filter((t) => used.includes(t.id) && !t.items[lang]);
  if (lacking.length === 0) return;
  const ids = lacking.map((t) => t.id);
  problems.push({
    code: 'E_TOPICS_MISSING_LANGUAGE',
    severity: 'error',
    ...fieldAt(loaded, where),
    message: `the study uses topic(s) ${ids.join(', ')}, which ${ins.topics} has no "${lang}" item for`,
    expected: `a ${lang} item for every topic the study uses`,
    got: `${used.length - ids.length} of ${used.length}`,
    fix: `add the ${lang} items of ${ids.join(', ')} (a file that extends ${ins.topics} is enough), or list only covered topics in instrument.topic_ids`,
  });
}

/** The start of a fix when `lang` is a likely typo of a language the file has (`uq` for `ug`): "use ug here (did you mean ug?), or ". */
function typoOf(lang: string, known: readonly string[]): string {
  const near = closest(
    lang,
    known.filter((k) => k !== lang),
  );
  return near ? `use ${near} here (did you mean ${near}?), or ` : '';
}

/** Every language of an instrument arm has the topics' items and a wrapper pool. */
function checkArmLanguages(
  loaded: LoadedStudy,
  ins: NonNullable<LoadedStudy['study']['instrument']>,
  s: StimulusLanguages,
  problems: Problem[],
): void {
  ins.arms.forEach((arm, i) => {
    arm.languages.forEach((lang, j) => {
      const where = ['instrument', 'arms', i, 'languages', j];
      if (s.topics && !s.topics.languages.includes(lang)) {
        problems.push({
          code: 'E_PAIRS_UNKNOWN_LANGUAGE',
          severity: 'error',
          ...fieldAt(loaded, where),
          message: `${ins.topics} has no "${lang}" items`,
          expected: `one of ${s.topics.languages.join(', ')}`,
          got: lang,
          fix: `${typoOf(lang, s.topics.languages)}add ${lang} to the topics (a file that extends ${ins.topics} is enough, with its translation provenance), or drop it from the arm`,
        });
      }
      if (s.topics?.languages.includes(lang))
        uncoveredTopics(loaded, ins, s.topics, lang, where, problems);
      if (s.pools && !s.pools.pools[lang]) {
        problems.push({
          code: 'E_WRAPPERS_NO_POOL',
          severity: 'error',
          ...fieldAt(loaded, where),
          message: `${ins.wrappers} has no "${lang}" wrapper pool`,
          expected: `one of ${s.pools.languages.join(', ')}`,
          got: lang,
          fix: `${typoOf(lang, s.pools.languages)}add a ${lang} pool (a file that extends ${ins.wrappers} is enough), or drop it from the arm`,
        });
      }
    });
  });
}
