/**
 * Expanding a study into its complete trial plan, in a fixed order: the VLM paradigms in plan
 * order (describe, comment-image, comment-text, abstraction, narrative) × entries in corpus order
 * × variants × languages × seeds, then the instrument arms × topics × languages × framings ×
 * iterations, then the pressure conversations × turns (plan-pressure.ts); each trial once per
 * level of its block's thinking factor (plan-thinking.ts). Images stay symbolic here (entry +
 * variant code); `resolve.ts` turns them into digests, so a dry run needs no image work.
 */
import { StimkitError, type Problem } from '../core/errors.js';
import type { Entry } from '../ingest/schema.js';
import type { LoadedStudy } from '../study/load.js';
import { IMAGE_PARADIGMS, VARIANT_CODES, type Sampling, type Study } from '../study/schema.js';
import type { Trial } from './format.js';
import { planInstrument, type PushTrial } from './plan-instrument.js';
import { levelPush, thinkingProblems } from './plan-thinking.js';
import { planPressure } from './plan-pressure.js';
import type { PressureTexts } from '../stimuli/pressure.js';

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
  sources: {
    entries?: PlanEntry[];
    prompts?: PromptSource;
    instrument?: InstrumentSource;
    pressure?: PressureTexts;
  },
): PlannedTrial[] {
  const problems: Problem[] = thinkingProblems(loaded);
  const trials: PlannedTrial[] = [];
  // the thinking factor: each trial once per level of its block's factor
  const push = levelPush(loaded.study, trials);
  for (const [paradigm, block] of loaded.paradigms)
    planParadigm(loaded, paradigm, block, sources, problems, push);
  if (loaded.study.instrument && sources.instrument)
    planInstrument(loaded, loaded.study.instrument, sources.instrument, problems, push);
  if (loaded.study.pressure && sources.pressure)
    planPressure(loaded, loaded.study.pressure, sources.pressure, trials, problems, push);
  checkDuplicates(loaded, trials, problems);
  if (problems.length > 0) {
    throw new StimkitError(
      'E_BUNDLE_PLAN',
      `${loaded.file}: ${problems.length} problem(s) expanding the trial plan`,
      { fix: 'correct the study design as each problem below says', problems },
    );
  }
  return trials;
}

type ParadigmEntry = LoadedStudy['paradigms'][number];

/** The trials of one VLM paradigm: entries × variants × languages × seeds. */
function planParadigm(
  loaded: LoadedStudy,
  paradigm: ParadigmEntry[0],
  block: ParadigmEntry[1],
  sources: { entries?: PlanEntry[]; prompts?: PromptSource },
  problems: Problem[],
  push: PushTrial,
): void {
  const { study } = loaded;
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
        const text = paradigmText(loaded, paradigm, card, entry, lang, sources.prompts!, problems);
        if (text === null) continue;
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

/**
 * The user message of a VLM trial: the prompt card rendered in `lang` (with the entry's anchor
 * name as {subject} for comment-text). Null, with the problem recorded, when it cannot be made.
 */
function paradigmText(
  loaded: LoadedStudy,
  paradigm: string,
  card: string,
  entry: PlanEntry,
  lang: string,
  prompts: PromptSource,
  problems: Problem[],
): string | null {
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
      return null;
    }
  }
  try {
    return prompts.render(card, lang, subject === undefined ? {} : { subject });
  } catch (err) {
    if (!(err instanceof StimkitError)) throw err;
    problems.push(
      ...(err.problems.length
        ? err.problems
        : [{ code: err.code, severity: 'error' as const, message: err.message }]),
    );
    return null;
  }
}

/** The first pair of trials with the same id (the same defining fields), as a problem. */
function checkDuplicates(loaded: LoadedStudy, trials: PlannedTrial[], problems: Problem[]): void {
  const seen = new Map<string, PlannedTrial>();
  for (const t of trials) {
    if (seen.get(t.id)) {
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
}
