/**
 * The instrument part of the trial plan: arms × topics × languages × framings × iterations, each
 * trial's text the item between its drawn wrappers.
 */
import type { Problem } from '../core/errors.js';
import type { LoadedStudy } from '../study/load.js';
import type { Study } from '../study/schema.js';
import type { InstrumentSource, PlannedTrial } from './plan.js';

/** Adds a trial (its id is computed from the defining fields). */
export type PushTrial = (t: Omit<PlannedTrial, 'id'>) => void;

/**
 * Add the instrument's trials; an unknown topic id or a missing item is recorded in `problems`.
 */
export function planInstrument(
  loaded: LoadedStudy,
  ins: NonNullable<Study['instrument']>,
  src: InstrumentSource,
  problems: Problem[],
  push: PushTrial,
): void {
  const topics = ins.topic_ids ?? src.topics;
  for (const t of ins.topic_ids ?? []) {
    if (!src.topics.includes(t)) {
      problems.push({
        code: 'E_BUNDLE_TOPIC',
        severity: 'error',
        file: loaded.file,
        field: 'instrument.topic_ids',
        message: `topic "${t}" is not in ${ins.topics}`,
        expected: src.topics.join(', '),
        fix: 'use a topic id of the topics file',
      });
    }
  }
  const items = new Map(src.items.map((i) => [`${i.topic}\t${i.lang}\t${i.framing}`, i]));
  for (const arm of ins.arms) {
    for (const topic of topics.filter((t) => src.topics.includes(t))) {
      for (const lang of arm.languages) {
        for (const framing of ins.framings) {
          const item = items.get(`${topic}\t${lang}\t${framing}`);
          if (!item) {
            problems.push({
              code: 'E_BUNDLE_ITEM',
              severity: 'error',
              file: loaded.file,
              field: `instrument.arms[${ins.arms.indexOf(arm)}].languages`,
              message: `topic "${topic}" has no ${framing} item in "${lang}"`,
              fix: `add the "${lang}" text of the topic to ${ins.topics}, or drop the language from the arm`,
            });
            continue;
          }
          const models = arm.models ?? ins.models ?? loaded.study.default_models ?? null;
          for (let iteration = 0; iteration < arm.iterations; iteration++) {
            const w = src.draw({ topic, lang, framing, iteration });
            push({
              block: `instrument/${arm.id}`,
              paradigm: 'instrument',
              arm: arm.id,
              lang,
              entry: null,
              item: item.id,
              topic,
              variant: null,
              framing,
              iteration,
              seed: null,
              prompt: null,
              wrappers: {
                prefix: { id: w.prefix.id, index: w.prefix.index },
                suffix: { id: w.suffix.id, index: w.suffix.index },
              },
              models,
              image: null,
              text: src.render(w.prefix, item, w.suffix, lang),
              sampling: ins.sampling,
            });
          }
        }
      }
    }
  }
}
