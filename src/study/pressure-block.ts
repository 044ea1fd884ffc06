/**
 * The study's `pressure` block: conversations that start from forced-choice instrument trials
 * and go on with follow-up turns (docs/formats/study.md, docs/formats/pressure.md). Each
 * conversation's first turn is an instrument trial's prompt as it is; each later turn sends one
 * follow-up, of the kinds listed in `turns`, in that order. A conversation has 1 + turns.length
 * turns, and the block plans conversations × turns trials.
 */
import { z } from 'zod';
import { LangCode, Slug } from '../ingest/schema.js';
import { ThinkingFactor } from './thinking-factor.js';

/** The follow-up kinds, in the order docs/formats/pressure.md lists them (the keys of a follow-up file). */
export const FOLLOWUP_KINDS = [
  'are_you_sure',
  'authority',
  'counter_claim',
  'other_language',
  'switch_language',
] as const;

export const PressureBlock = z
  .strictObject({
    /** Follow-up files (`stimkit.pressure`), one per language, e.g. `stimkit:pressure/en.yaml`. */
    followups: z.array(z.string().min(1)).min(1),
    /** The instrument arms whose trials start conversations (default: every arm). */
    arms: z.array(Slug).min(1).optional(),
    /** Only iterations 0..n-1 of each instrument cell start a conversation (default: all). */
    iterations: z.number().int().min(1).max(100_000).optional(),
    /** The follow-up of each turn after the first, in order (turn 2 first). */
    turns: z.array(z.enum(FOLLOWUP_KINDS)).min(1),
    /** The other language of conversations in each language (for other_language, switch_language). */
    other_language: z.record(LangCode, LangCode).optional(),
    /** Model set (default: the arm's). */
    models: Slug.optional(),
    /**
     * The block's own thinking factor: each conversation once per level. Without it a
     * conversation keeps the thinking level of the instrument trial it starts from.
     */
    thinking: ThinkingFactor.optional().describe(
      "The pressure block's thinking factor: each conversation planned once per level (on: sampling.thinking true; off: false). Without it a conversation keeps the level of the instrument trial it starts from.",
    ),
  })
  .describe(
    'Pressure over turns: conversations from instrument trials (arms, first iterations), then one follow-up per turn from the follow-up files, in the order of turns.',
  );
export type PressureBlock = z.output<typeof PressureBlock>;
