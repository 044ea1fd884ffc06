/**
 * The validation sample (`stimkit.label-sample`, version 1): the trials × models that human raters
 * label, each with everything the rater sees except what the bundle already holds (the entry's
 * ground truth in `entries.json`, the image in `data/images/<sha256>.png`). Written by
 * `stimkit label sample`, read by `stimkit label serve` and `stimkit label export`. This zod schema
 * is the source of truth; docs/formats/label-sample.md describes it for other languages.
 */
import { z } from 'zod';

export const LABEL_SAMPLE_FORMAT = 'stimkit.label-sample';
export const LABEL_SAMPLE_VERSION = 1;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case hex sha256');

/** The stratification variables the sampler knows. */
export const STRATA = ['model', 'lang', 'paradigm', 'sensitivity', 'variant', 'entry'] as const;
export const Stratum = z.enum(STRATA);
export type Stratum = z.infer<typeof Stratum>;

/** One item to label: a trial and the response one model gave to it. */
export const SampleItem = z.strictObject({
  /** `i_` + the first 16 hex digits of sha256("<trial_id>\n<model>"): stable across samples. */
  id: z.string().regex(/^i_[0-9a-f]{16}$/),
  /** Trial id in the bundle's `trials.jsonl`. */
  trial_id: z.string().regex(/^t_[0-9a-f]{24}$/),
  /** The model that gave the response (as named in the ledger or responses file). */
  model: z.string().min(1),
  paradigm: z.string(),
  lang: z.string(),
  /** Corpus entry id: its title, context and expected facts are in the bundle's `entries.json`. */
  entry: z.string().nullable(),
  /** `high` or `low`, copied from the entry (null without an entry). */
  sensitivity: z.string().nullable(),
  variant: z.string().nullable(),
  /** sha256 of each image the trial shows, in order: `data/images/<sha256>.png` in the bundle. */
  images: z.array(Sha256Hex),
  /** The text parts of the trial's messages, joined by a blank line, verbatim. */
  prompt: z.string(),
  /** The model's response, verbatim. */
  response: z.string(),
  /** True when a simulated respondent gave the response (absent in samples drawn before it was recorded). */
  simulated: z.boolean().optional(),
});
export type SampleItem = z.infer<typeof SampleItem>;

/** How many trials a stratum held and how many the sample drew from it. */
const StratumCount = z.strictObject({
  key: z.record(z.string(), z.string()),
  population: z.number().int().min(1),
  sampled: z.number().int().min(0),
});

export const LabelSample = z.strictObject({
  format: z.literal(LABEL_SAMPLE_FORMAT),
  version: z.literal(LABEL_SAMPLE_VERSION),
  /** Software that wrote the sample (`stimkit <version>`). */
  tool: z.string(),
  bundle: z.strictObject({
    /** The bundle folder, relative to the sample file's folder (forward slashes). */
    path: z.string(),
    /** The bundle digest: sha256 of its `manifest-sha256.txt`. */
    digest: Sha256Hex,
  }),
  /** Where the responses came from. */
  inputs: z.strictObject({
    responses: z.strictObject({
      kind: z.enum(['jsonl', 'ledger']),
      file: z.string(),
      sha256: Sha256Hex,
    }),
  }),
  params: z.strictObject({
    n: z.number().int().min(1),
    seed: z.number().int().min(0),
    strata: z.array(Stratum).min(1),
    paradigms: z.array(z.string()),
    method: z.string(),
  }),
  /** Rows the sampler could draw from (responses with text, in the chosen paradigms). */
  population: z.number().int().min(0),
  strata: z.array(StratumCount),
  items: z.array(SampleItem).min(1),
});
export type LabelSample = z.infer<typeof LabelSample>;
