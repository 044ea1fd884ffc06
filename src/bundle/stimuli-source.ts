/**
 * The stimuli a study names (prompt cards, topics, wrapper pools), loaded through the stimuli
 * stage and shaped for the plan, plus their payload records for the bag. Paths in the payload
 * are relative to the study file, never absolute.
 */
import { StimkitError } from '../core/errors.js';
import { recordedRef } from '../core/shipped.js';
import { expandPairs, type PairItem } from '../stimuli/pairs.js';
import { loadPromptCards, renderPromptCard, type PromptCards } from '../stimuli/prompts.js';
import { drawWrappers } from '../stimuli/draw.js';
import { renderInstrumentPrompt } from '../stimuli/render.js';
import { loadTopics, type TopicsFile } from '../stimuli/topics.js';
import { loadPressureTexts, type PressureTexts } from '../stimuli/pressure.js';
import { PRESSURE_FORMAT, PRESSURE_VERSION } from '../stimuli/pressure-schema.js';
import { packFor } from '../languages/load.js';
import { loadWrapperPools, poolFor, type WrapperPools } from '../stimuli/wrappers.js';
import type { LoadedStudy } from '../study/load.js';
import { checkStimulusLanguages } from './languages.js';
import type { InstrumentSource, PromptSource } from './plan.js';

/** Loaded stimuli with their plan adapters. */
export interface Stimuli {
  prompts?: { cards: PromptCards; source: PromptSource };
  instrument?: {
    topics: TopicsFile;
    pools: WrapperPools;
    items: PairItem[];
    langs: string[];
    source: InstrumentSource;
  };
  /** The pressure paradigm's follow-up files (study `pressure.followups`). */
  pressure?: PressureTexts;
}

/**
 * Load the prompt cards, topics and wrapper pools the study names, and check once that they have
 * every language the study uses; throws a StimkitError with one problem per missing language, at
 * the study file's line and field.
 */
export async function loadStimuli(loaded: LoadedStudy): Promise<Stimuli> {
  const { study } = loaded;
  const ins = study.instrument;
  const [cards, topics, pools] = await Promise.all([
    study.prompts ? loadPromptCards(loaded.resolve(study.prompts)) : undefined,
    ins ? loadTopics(loaded.resolve(ins.topics)) : undefined,
    ins ? loadWrapperPools(loaded.resolve(ins.wrappers)) : undefined,
  ]);
  const problems = checkStimulusLanguages(loaded, { cards, topics, pools });
  if (problems.length > 0) {
    throw new StimkitError(
      'E_BUNDLE_LANGUAGES',
      `${loaded.file}: ${problems.length} language(s) the stimuli do not have`,
      { fix: 'add the languages to the stimuli files, or drop them from the study', problems },
    );
  }
  const out: Stimuli = {};
  if (study.pressure)
    out.pressure = await loadPressureTexts(
      study.pressure.followups.map((f) => loaded.resolve(f)),
      (tag) => packFor(tag)?.pack.tag ?? tag,
    );
  if (cards)
    out.prompts = {
      cards,
      source: { render: (card, lang, slots) => renderPromptCard(cards, card, lang, slots) },
    };
  if (ins && topics && pools) {
    const langs = [...new Set(ins.arms.flatMap((a) => a.languages))];
    const items = expandPairs(topics, langs);
    for (const lang of langs) poolFor(pools, lang);
    const globalSeed = study.global_seed;
    out.instrument = {
      topics,
      pools,
      items,
      langs,
      source: {
        topics: topics.topics.map((t) => t.id),
        items,
        draw: (key) => drawWrappers(pools, { globalSeed, ...key }),
        render: (prefix, item, suffix, lang) =>
          renderInstrumentPrompt(prefix.text, item.text, suffix.text, lang),
      },
    };
  }
  return out;
}

const inputs = (loaded: LoadedStudy, list: Array<{ file: string; sha256: string }>) =>
  list.map((i) => ({ file: recordedRef(loaded.dir, i.file), sha256: i.sha256 }));

/** `data/prompts.json`: the prompt cards as loaded (every paradigm, every language). */
export function promptsPayload(loaded: LoadedStudy, stimuli: Stimuli) {
  const c = stimuli.prompts?.cards;
  if (!c) return null;
  return {
    format: c.format,
    version: c.version,
    inputs: inputs(loaded, c.inputs),
    languages: c.languages,
    paradigms: c.paradigms,
  };
}

/** `data/items.json`: the topics' keying and every item the plan uses. */
export function itemsPayload(loaded: LoadedStudy, stimuli: Stimuli, usedItems: Set<string>) {
  const ins = stimuli.instrument;
  if (!ins) return null;
  const t = ins.topics;
  return {
    format: t.format,
    version: t.version,
    inputs: inputs(loaded, t.inputs),
    domain: t.domain,
    title: t.title,
    poles: t.poles,
    keys: t.keys,
    topics: t.topics.map((x) => ({
      id: x.id,
      title: x.title,
      key: x.key,
      affirmative_pole: x.affirmative_pole,
      poles: x.poles,
    })),
    items: ins.items.filter((i) => usedItems.has(i.id)),
  };
}

/** `data/pressure.json`: the follow-up files the pressure paradigm uses, by language. */
export function pressurePayload(loaded: LoadedStudy, stimuli: Stimuli) {
  const p = stimuli.pressure;
  if (!p) return null;
  return {
    format: PRESSURE_FORMAT,
    version: PRESSURE_VERSION,
    inputs: inputs(loaded, p.inputs),
    languages: Object.fromEntries(
      [...p.byLang].map(([lang, f]) => [
        lang,
        { provenance: f.data.provenance, followups: f.data.followups },
      ]),
    ),
  };
}

/** `data/wrappers.json`: the pools of the languages the instrument uses. */
export function wrappersPayload(loaded: LoadedStudy, stimuli: Stimuli) {
  const ins = stimuli.instrument;
  if (!ins) return null;
  const p = ins.pools;
  return {
    format: p.format,
    version: p.version,
    inputs: inputs(loaded, p.inputs),
    option_values: p.option_values,
    pools: Object.fromEntries(ins.langs.map((l) => [l, p.pools[l]])),
  };
}
