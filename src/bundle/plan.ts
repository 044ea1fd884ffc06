/**
 * Expanding a study into its complete trial plan, in a fixed order: the VLM paradigms in plan
 * order (describe, comment-image, comment-text, abstraction, narrative) × entries in corpus order
 * × variants × languages × seeds, then the instrument arms × topics × languages × framings ×
 * iterations. Images stay symbolic here (entry + variant code); `resolve.ts` turns them into
 * digests, so a dry run needs no image work.
 */
import { StimkitError, type Problem } from '../core/errors.js';
import type { Entry } from '../ingest/schema.js';
import type { LoadedStudy } from '../study/load.js';
import { IMAGE_PARADIGMS, VARIANT_CODES, type Sampling, type Study } from '../study/schema.js';
import type { Trial } from './format.js';
import { trialId } from './trial-id.js';

/** The text of prompt cards, by card id and language. */
export interface PromptSource {
  render(card: string, lang: string, slots: { subject?: string }): string;
}

/** One minimal-pair item of the instrument. */
interface InstrumentItem {
  id: string;
  topic: string;
  lang: string;
  framing: 'affirmative' | 'reverse';
  /** The item's sentence (without wrappers). */
  text: string;
}

/** The instrument's items, wrapper draws and rendering. */
export interface InstrumentSource {
  /** Topic ids in file order. */
  topics: string[];
  items: InstrumentItem[];
  draw(key: {
    topic: string;
    lang: string;
    framing: 'affirmative' | 'reverse';
    iteration: number;
  }): {
    prefix: { id: string; index: number; text: string };
    suffix: { id: string; index: number; text: string };
  };
  render(
    prefix: { id: string; index: number; text: string },
    item: InstrumentItem,
    suffix: { id: string; index: number; text: string },
    lang: string,
  ): string;
}

/** A planned trial: a Trial whose images are still symbolic. */
export interface PlannedTrial extends Omit<Trial, 'messages' | 'images'> {
  /** The block it counts under: the paradigm, or `instrument/<arm>`. */
  block: string;
  /** The image to show (entry and variant), or null. */
  image: { entry: string; variant: (typeof VARIANT_CODES)[number] } | null;
  /** The text of the user message. */
  text: string;
}

/** What the plan needs from the corpus: entries in corpus order. */
export type PlanEntry = Pick<Entry, 'id' | 'roles' | 'anchor'>;

function selectEntries(
  study: LoadedStudy,
  paradigm: string,
  entries: PlanEntry[],
  problems: Problem[],
): PlanEntry[] {
  const block = study.study.paradigms[paradigm as keyof Study['paradigms']]!;
  const roles = new Set(block.entries.roles);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const field = `paradigms.${paradigm}.entries`;
  const err = (message: string, fix: string, more: Partial<Problem> = {}) =>
    problems.push({
      code: 'E_BUNDLE_SELECTION',
      severity: 'error',
      file: study.file,
      field,
      message,
      fix,
      ...more,
    });
  if (block.entries.ids) {
    const chosen: PlanEntry[] = [];
    for (const id of block.entries.ids) {
      const e = byId.get(id);
      if (!e)
        err(`entry "${id}" is not in the corpus`, 'check the id against the entries manifest', {
          field: `${field}.ids`,
        });
      else if (!e.roles.some((r) => roles.has(r))) {
        err(
          `entry "${id}" has none of the roles ${[...roles].join(', ')}`,
          'give it the role in the entries manifest, or drop it from ids',
          { field: `${field}.ids`, got: e.roles.join(', ') },
        );
      } else chosen.push(e);
    }
    const order = new Map(entries.map((e, i) => [e.id, i]));
    return chosen.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }
  const chosen = entries.filter((e) => e.roles.some((r) => roles.has(r)));
  if (chosen.length === 0)
    err(
      `no entry of the corpus has any of the roles ${[...roles].join(', ')}`,
      'assign the roles in the entries manifest, or change the selection',
    );
  return chosen;
}

/**
 * Expand the study into its trial plan. Throws a StimkitError listing every problem (unknown
 * entries, missing anchor names or items, duplicate trials).
 */
export function expandPlan(
  loaded: LoadedStudy,
  sources: { entries?: PlanEntry[]; prompts?: PromptSource; instrument?: InstrumentSource },
): PlannedTrial[] {
  const { study } = loaded;
  const problems: Problem[] = [];
  const trials: PlannedTrial[] = [];
  const push = (t: Omit<PlannedTrial, 'id'>) => trials.push({ id: trialId(t), ...t });

  for (const [paradigm, block] of loaded.paradigms) {
    const entries = selectEntries(loaded, paradigm, sources.entries ?? [], problems);
    const langs = block.languages ?? study.languages;
    const seeds = block.seeds ?? study.seeds;
    // loadStudy refuses a VLM paradigm with neither its own nor a top-level sampling.
    const sampling: Sampling = (block.sampling ?? study.sampling)!;
    const card = block.prompt ?? paradigm;
    const variants =
      paradigm === 'abstraction'
        ? (block.variants ?? [...VARIANT_CODES])
        : IMAGE_PARADIGMS.has(paradigm)
          ? (['A0'] as const)
          : [null];
    for (const entry of entries) {
      for (const variant of variants) {
        for (const lang of langs) {
          let subject: string | undefined;
          if (paradigm === 'comment-text') {
            subject = entry.anchor?.name[lang];
            if (!subject) {
              problems.push({
                code: 'E_BUNDLE_ANCHOR_NAME',
                severity: 'error',
                file: loaded.file,
                field: `paradigms.${paradigm}`,
                entry: entry.id,
                message: `entry "${entry.id}" has no anchor name in "${lang}" to fill {subject}`,
                fix: `add anchor.name.${lang} to the entry`,
              });
              continue;
            }
          }
          let text: string;
          try {
            text = sources.prompts!.render(card, lang, subject === undefined ? {} : { subject });
          } catch (err) {
            if (err instanceof StimkitError)
              problems.push(
                ...(err.problems.length
                  ? err.problems
                  : [{ code: err.code, severity: 'error' as const, message: err.message }]),
              );
            else throw err;
            continue;
          }
          for (const seed of seeds) {
            push({
              block: paradigm,
              paradigm,
              arm: null,
              lang,
              entry: entry.id,
              item: null,
              topic: null,
              variant,
              framing: null,
              iteration: null,
              seed,
              prompt: card,
              wrappers: null,
              models: block.models ?? study.default_models ?? null,
              image: variant ? { entry: entry.id, variant } : null,
              text,
              sampling,
            });
          }
        }
      }
    }
  }

  if (study.instrument && sources.instrument) {
    const ins = study.instrument;
    const src = sources.instrument;
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
                models: arm.models ?? ins.models ?? study.default_models ?? null,
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

  const seen = new Map<string, PlannedTrial>();
  for (const t of trials) {
    const prev = seen.get(t.id);
    if (prev) {
      problems.push({
        code: 'E_BUNDLE_DUPLICATE_TRIAL',
        severity: 'error',
        file: loaded.file,
        message: `two trials have the same defining fields (${t.block}, ${t.lang}, ${t.entry ?? t.item}, ${t.variant ?? ''} ${t.seed ?? t.iteration})`,
        fix: 'remove the repeated language, seed, entry or variant',
      });
      break;
    }
    seen.set(t.id, t);
  }
  if (problems.length > 0) {
    throw new StimkitError(
      'E_BUNDLE_PLAN',
      `${loaded.file}: ${problems.length} problem(s) expanding the trial plan`,
      { fix: 'correct the study design as each problem below says', problems },
    );
  }
  return trials;
}
