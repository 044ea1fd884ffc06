/**
 * The study design (`manifests/*.study.yaml`, format `stimkit.study`, version 1): which corpus,
 * which paradigms on which entries, languages, replication seeds, sampling, the abstraction
 * ladder, the bilingual instrument with its arms (e.g. a Portuguese control), the model sets the
 * plan is meant for, and the trial counts the design must come out at. This zod schema is the
 * source of truth; `manifests/schema/study.schema.json` is generated from it.
 *
 * Every file path is relative to the study file.
 */
import { z } from 'zod';
import { LangCode, Role, Slug } from '../ingest/schema.js';
import { PressureBlock } from './pressure-block.js';
import { BLOCK_THINKING_TEXT, ThinkingFactor } from './thinking-factor.js';

const STUDY_FORMAT = 'stimkit.study';
const STUDY_VERSION = 1;

/** The image and text paradigms of the VLM audit, in plan order. */
export const VLM_PARADIGMS = [
  'describe',
  'comment-image',
  'comment-text',
  'abstraction',
  'narrative',
] as const;
export type VlmParadigm = (typeof VLM_PARADIGMS)[number];

/** Paradigms whose trials show an image. */
export const IMAGE_PARADIGMS: ReadonlySet<VlmParadigm> = new Set([
  'describe',
  'comment-image',
  'abstraction',
  'narrative',
]);

/** The seven abstraction variant codes (VARIANTS.md). */
export const VARIANT_CODES = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'] as const;
export const VariantCode = z.enum(VARIANT_CODES);
export type VariantCode = z.output<typeof VariantCode>;

/** The variant names of VARIANTS.md, by code (as `stimkit variants --only` accepts them). */
export const VARIANT_NAMES: Record<VariantCode, string> = {
  A0: 'original',
  A1: 'crop',
  A2: 'grayscale',
  A3: 'edges',
  A4: 'binary',
  A5: 'lowpass',
  A6: 'silhouette',
};

/** The code a variant spelling stands for (`A3`, `a3`, `edges`, `A3-edges`; case-insensitive), or undefined. */
function variantCodeOf(spelling: string): VariantCode | undefined {
  const s = spelling.trim().toLowerCase();
  return VARIANT_CODES.find(
    (c) =>
      c.toLowerCase() === s ||
      VARIANT_NAMES[c] === s ||
      `${c}-${VARIANT_NAMES[c]}`.toLowerCase() === s,
  );
}

const SPELLINGS = `a code A0-A6, a name (${VARIANT_CODES.map((c) => VARIANT_NAMES[c]).join(', ')}) or both (A3-edges)`;

/** A variant as a study names it: the same spellings `--only` accepts, normalised to its code. */
const VariantSpelling = z
  .string()
  .describe(`A variant: ${SPELLINGS}; case-insensitive.`)
  .transform((s, ctx) => {
    const code = variantCodeOf(s);
    if (code === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown variant "${s}" (expected ${SPELLINGS})`,
        input: s,
      });
      return z.NEVER;
    }
    return code;
  });

/** A path relative to the study file. */
const FilePath = z.string().min(1, 'a path relative to the study file');

/** A replication seed: a non-negative safe integer, passed to the model per trial. */
const Seed = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * Sampling parameters sent with every trial. Only what is given is sent; anything left out is the
 * provider's default (the instrument paper: "provider default maximum response length").
 */
export const Sampling = z
  .strictObject({
    temperature: z.number().min(0).max(2),
    /**
     * Nucleus sampling mass, 0 < top_p <= 1. 0 is rejected: it keeps no token, and vLLM refuses it;
     * for greedy decoding (temperature 0, as the instrument paper's "top-p 0") leave top_p out.
     */
    top_p: z
      .number()
      .gt(
        0,
        'top_p must be greater than 0 (vLLM requires 0 < top_p <= 1); for greedy decoding set temperature: 0 and leave top_p out',
      )
      .max(1)
      .optional()
      .describe(
        '0 < top_p <= 1. 0 is rejected (vLLM refuses it); for greedy decoding leave top_p out.',
      ),
    top_k: z.number().int().min(-1).optional(),
    max_tokens: z.number().int().positive().optional(),
    /** `false`: reasoning disabled (sent as `chat_template_kwargs.enable_thinking: false`). */
    thinking: z.boolean().optional(),
  })
  .describe(
    'Sampling sent with every trial; what is left out is the provider default. thinking: false disables reasoning.',
  );
export type Sampling = z.output<typeof Sampling>;

/** Which entries of the corpus a paradigm uses: those with any of `roles`, optionally only `ids`. */
const EntrySelection = z
  .strictObject({
    roles: z.array(Role).min(1, 'at least one role'),
    /** Restrict to these entry ids (each must exist and carry one of `roles`). */
    ids: z.array(Slug).min(1).optional(),
  })
  .describe('The entries with any of these roles, in corpus order; with ids, only those entries.');

/** One VLM paradigm block. Languages, seeds, sampling and models default to the study's. */
const ParadigmBlock = z
  .strictObject({
    entries: EntrySelection,
    /** Prompt card to use (default: the paradigm's own name). */
    prompt: Slug.optional(),
    languages: z.array(LangCode).min(1).optional(),
    seeds: z.array(Seed).min(1).optional(),
    sampling: Sampling.optional(),
    /** Name of a model set in `models` (default: the study's `default_models`). */
    models: Slug.optional(),
    /** Abstraction only: the variants (codes or names, as `--only` takes them), in ladder order (default A0–A6). */
    variants: z.array(VariantSpelling).min(1).optional(),
    /** This block's thinking factor (overrides the study's `thinking`). */
    thinking: ThinkingFactor.optional().describe(BLOCK_THINKING_TEXT),
  })
  .describe(
    'One VLM paradigm: its entries, and overrides of the study languages, seeds, sampling, model set, thinking factor and prompt card (default: the paradigm name). Only abstraction takes variants (default A0-A6).',
  );
export type ParadigmBlock = z.output<typeof ParadigmBlock>;

/** One arm of the forced-choice instrument: languages × framings × iterations per topic. */
const InstrumentArm = z
  .strictObject({
    id: Slug,
    languages: z.array(LangCode).min(1),
    iterations: z.number().int().min(1).max(100_000),
    models: Slug.optional(),
    description: z.string().optional(),
    /** This arm's thinking factor (overrides the study's `thinking`). */
    thinking: ThinkingFactor.optional().describe(BLOCK_THINKING_TEXT),
  })
  .describe('One instrument arm: every topic in each language, both framings, iterations 0..n-1.');

/** The bilingual dual-framing instrument. */
const Instrument = z
  .strictObject({
    /** Topics file (minimal pairs), e.g. `geopolitics.topics.yaml`. */
    topics: FilePath,
    /** Wrapper pools file (every language the arms use; a file can `extends` another to add one). */
    wrappers: FilePath,
    /** Only these topic ids (default: every topic in the file, in file order). */
    topic_ids: z.array(Slug).min(1).optional(),
    framings: z
      .array(z.enum(['affirmative', 'reverse']))
      .min(1)
      .default(['affirmative', 'reverse']),
    sampling: Sampling,
    models: Slug.optional(),
    arms: z.array(InstrumentArm).min(1),
  })
  .describe(
    'The dual-framing instrument: topics and wrapper files (relative to the study file), framings, sampling, model set, arms.',
  );
type Instrument = z.output<typeof Instrument>;

/**
 * A count the design must come out at, checked at every bundle: the trials of `blocks` per model,
 * and optionally times the number of models in the blocks' model set. A block is a paradigm
 * (`describe`) or an instrument arm (`instrument/main`).
 */
const Expectation = z
  .strictObject({
    label: z.string().min(1),
    blocks: z
      .array(
        z
          .string()
          .regex(/^[a-z0-9][a-z0-9._/-]*$/, 'a block name such as describe or instrument/main'),
      )
      .min(1),
    per_model: z.number().int().min(0),
    total: z.number().int().min(0).optional(),
    /** Languages to count (default: all). */
    languages: z.array(LangCode).min(1).optional(),
  })
  .describe(
    "A count the plan must come out at: trials of the blocks (paradigms or instrument/<arm>) per model, and in total over the blocks' one model set.",
  );
type Expectation = z.output<typeof Expectation>;

/** Where the abstraction variants come from and how they are made. */
const VariantsSource = z
  .strictObject({
    /** The variants lock to reuse when it is current (e.g. `../variants/demo/variants.lock.json`). */
    lock: FilePath.regex(
      /(^|\/)variants\.lock\.json$/,
      'a path ending in variants.lock.json (the file stimkit variants writes)',
    ),
    /** A variants recipe file overriding the VARIANTS.md defaults. */
    recipe: FilePath.optional(),
    /** Silhouette method for A6 (`grabcut` needs no neural model). Default: the variants default. */
    silhouette: z.enum(['isnet', 'grabcut']).optional(),
  })
  .describe(
    'Where the variant images come from: the variants lock to reuse or write, the recipe file, the A6 method.',
  );

export const Study = z.strictObject({
  format: z.literal(STUDY_FORMAT).default(STUDY_FORMAT),
  version: z.literal(STUDY_VERSION),
  id: Slug,
  title: z.string().min(1),
  description: z.string().optional(),
  /** Where the design comes from (papers, registrations). Recorded, not interpreted. */
  references: z.array(z.string().min(1)).optional(),
  /** Seed of every random draw of the plan (wrapper draws). */
  global_seed: Seed.describe('Seed of every wrapper draw.'),
  corpus: z
    .strictObject({
      /** The entries manifest. */
      entries: FilePath,
      /** Its corpus lock, reused when current (default: `<stem>.corpus.lock.json` next to the manifest, then `corpus.lock.json` in the images root). */
      lock: FilePath.regex(
        /(^|\/)corpus\.lock\.json$/,
        'a path ending in corpus.lock.json (the file ingest writes)',
      ).optional(),
    })
    .optional(),
  variants: VariantsSource.optional(),
  /** Prompt cards (Table A3), e.g. `prompts.yaml`. */
  prompts: FilePath.optional().describe('Prompt cards file, relative to the study file.'),
  /** The audit rubric (`stimkit.rubric`), sealed in the bundle; without it the bundle is as before. */
  rubric: FilePath.optional().describe(
    'Audit rubric file (stimkit.rubric), relative to the study file; sealed in the bundle as data/rubric.json.',
  ),
  /**
   * The study's own language packs (`stimkit.language`): each replaces a shipped pack of its tag
   * or aliases wherever rules are read, and is sealed in the bundle (`data/languages/<tag>.yaml`).
   */
  language_packs: z
    .array(FilePath)
    .min(1)
    .optional()
    .describe(
      'Language pack files (stimkit.language), relative to the study file or stimkit:languages/<tag>.yaml; each replaces a shipped pack of its tag or aliases and is sealed in the bundle as data/languages/<tag>.yaml.',
    ),
  /** Study languages for the VLM paradigms. */
  languages: z
    .array(LangCode)
    .min(1)
    .default(['en', 'zh'])
    .describe('Languages of the VLM paradigms.'),
  /** Replication seeds for the VLM paradigms (the paper: 42, 622, 997). */
  seeds: z
    .array(Seed)
    .min(1)
    .default([42])
    .describe('Replication seeds of the VLM paradigms (the paper: 42, 622, 997).'),
  /** Default sampling for the VLM paradigms (required when a VLM paradigm gives none of its own). */
  sampling: Sampling.optional(),
  /** Named model sets the plan is meant for, e.g. `{vlm: [...], llm: [...]}`. Trials do not depend on them. */
  models: z
    .record(Slug, z.array(z.string().min(1)).min(1))
    .default({})
    .describe('Named model sets; trials do not depend on them.'),
  /** The model set of blocks that do not name one. */
  default_models: Slug.optional().describe('The model set of blocks that do not name one.'),
  paradigms: z
    .strictObject({
      describe: ParadigmBlock.optional(),
      'comment-image': ParadigmBlock.optional(),
      'comment-text': ParadigmBlock.optional(),
      abstraction: ParadigmBlock.optional(),
      narrative: ParadigmBlock.optional(),
    })
    .default({}),
  instrument: Instrument.optional(),
  /**
   * The thinking factor: every trial is planned once per level, `on` with sampling.thinking true
   * and `off` with it false (the same trial, seed and wrappers; the level is part of the trial id).
   * The default of every block; a paradigm block, an arm or the pressure block may set its own.
   */
  thinking: ThinkingFactor.optional().describe(
    "Thinking as a paired design factor: each trial planned once per level (on: sampling.thinking true; off: false). The default of every block; a block's own thinking overrides it.",
  ),
  /** Pressure over turns, from the instrument's trials (pressure-block.ts). */
  pressure: PressureBlock.optional(),
  expect: z.array(Expectation).default([]),
});

export type Study = z.output<typeof Study>;
type InstrumentArm = z.output<typeof InstrumentArm>;
