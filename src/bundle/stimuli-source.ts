/**
 * The stimuli a study names (prompt cards, topics, wrapper pools), loaded through the stimuli
 * stage and shaped for the plan, plus their payload records for the bag. Paths in the payload
 * are relative to the study file, never absolute.
 */
import { relPosix } from '../core/fsio.js';
import { expandPairs, type PairItem } from '../stimuli/pairs.js';
import { loadPromptCards, renderPromptCard, type PromptCards } from '../stimuli/prompts.js';
import { drawWrappers } from '../stimuli/draw.js';
import { renderInstrumentPrompt } from '../stimuli/render.js';
import { loadTopics, type TopicsFile } from '../stimuli/topics.js';
import { loadWrapperPools, poolFor, type WrapperPools } from '../stimuli/wrappers.js';
import type { LoadedStudy } from '../study/load.js';
import type { InstrumentSource, PromptSource } from './plan.js';

/** Loaded stimuli with their plan adapters. */
export interface Stimuli {
  prompts?: { cards: PromptCards; source: PromptSource };
  instrument?: { topics: TopicsFile; pools: WrapperPools; items: PairItem[]; langs: string[]; source: InstrumentSource };
}

/** Load the prompt cards, topics and wrapper pools the study names. */
export async function loadStimuli(loaded: LoadedStudy): Promise<Stimuli> {
  const { study } = loaded;
  const out: Stimuli = {};
  if (study.prompts) {
    const cards = await loadPromptCards(loaded.resolve(study.prompts));
    out.prompts = { cards, source: { render: (card, lang, slots) => renderPromptCard(cards, card, lang, slots) } };
  }
  if (study.instrument) {
    const ins = study.instrument;
    const [topics, pools] = await Promise.all([loadTopics(loaded.resolve(ins.topics)), loadWrapperPools(loaded.resolve(ins.wrappers))]);
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
        render: (prefix, item, suffix, lang) => renderInstrumentPrompt(prefix.text, item.text, suffix.text, lang),
      },
    };
  }
  return out;
}

const inputs = (loaded: LoadedStudy, list: Array<{ file: string; sha256: string }>) =>
  list.map((i) => ({ file: relPosix(loaded.dir, i.file), sha256: i.sha256 }));

/** `data/prompts.json`: the prompt cards as loaded (every paradigm, every language). */
export function promptsPayload(loaded: LoadedStudy, stimuli: Stimuli) {
  const c = stimuli.prompts?.cards;
  if (!c) return null;
  return { format: c.format, version: c.version, inputs: inputs(loaded, c.inputs), languages: c.languages, paradigms: c.paradigms };
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
    topics: t.topics.map((x) => ({ id: x.id, title: x.title, key: x.key, affirmative_pole: x.affirmative_pole, poles: x.poles })),
    items: ins.items.filter((i) => usedItems.has(i.id)),
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
