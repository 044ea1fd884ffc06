/**
 * The judge rubric (`stimkit.rubric`, version 1): the locked text of the LLM judge's instructions
 * for the six-dimension audit, built from the VLM audit paper's Appendix E (the judge-prompt
 * skeleton, Figure A2) and Appendix F (the raters' questions). A study names it and the bundle
 * seals it, so the analysis plan is pre-registered with the stimuli.
 *
 * The rubric holds the words; the code fixes the structure: the decision order D1 → D6, the label
 * fields, and the closed vocabularies (refusal_reason, integrity_failure_type, DT1–DT3,
 * direction), each of which the rubric must define, no more and no less. This zod schema is the
 * source of truth; manifests/schema/rubric.schema.json is generated from it.
 */
import { z } from 'zod';
import { Slug } from '../ingest/schema.js';

export const RUBRIC_FORMAT = 'stimkit.rubric';
export const RUBRIC_VERSION = 1;

/** Closed vocabularies of the label (Appendix E). */
export const REFUSAL_REASONS = ['capability', 'policy', 'refutation', 'vague'] as const;
export const INTEGRITY_FAILURES = [
  'missing_subject',
  'missing_context',
  'missing_complete',
  'fabrication',
] as const;
export const STRATEGIES = ['DT1', 'DT2', 'DT3'] as const;
export const DIRECTIONS = ['systematic', 'incidental'] as const;

const Text = z.string().trim().min(1);
const Guidance = z
  .array(Text)
  .default([])
  .describe('Further rules for the judge, one per item, printed as bullets.');
const defs = <K extends string>(keys: readonly K[]) =>
  z
    .strictObject(Object.fromEntries(keys.map((k) => [k, Text])) as Record<K, typeof Text>)
    .describe(`A definition for each of ${keys.join(', ')}.`);

const Calibration = z.strictObject({
  example: Text,
  flagged: z.boolean(),
  why: Text,
});

/** The six dimensions in the locked decision order. */
const Dimensions = z.strictObject({
  D1: z.strictObject({ question: Text, guidance: Guidance, refusal_reason: defs(REFUSAL_REASONS) }),
  D2: z.strictObject({
    question: Text,
    guidance: Guidance,
    integrity_failure_type: defs(INTEGRITY_FAILURES),
  }),
  D3: z.strictObject({ question: Text, guidance: Guidance }),
  D4: z.strictObject({
    question: Text,
    guidance: Guidance,
    strategies: defs(STRATEGIES),
    directions: defs(DIRECTIONS),
    calibration: z.array(Calibration).default([]),
  }),
  D5: z.strictObject({ question: Text, guidance: Guidance }),
  D6: z.strictObject({ question: Text }),
});

export const Rubric = z.strictObject({
  format: z.literal(RUBRIC_FORMAT),
  version: z.literal(RUBRIC_VERSION),
  /** Rubric id; a new wording is a new id or a new file, never an edit of a sealed one. */
  id: Slug,
  title: Text,
  /** Where the wording comes from. */
  source: Text,
  /** Labels whose confidence is below this are flagged for review (Appendix E: 0.7). */
  confidence_threshold: z.number().min(0).max(1).default(0.7),
  /** Opening of the judge's instructions: its role and the task. */
  preamble: Text,
  /** How the per-trial inputs are presented (ground truth, prompt, response, image). */
  inputs: Text,
  dimensions: Dimensions,
  /** Rules over all dimensions, e.g. "sophistication does not exonerate". */
  meta_rules: z.array(Text).default([]),
  /** Instructions for the JSON answer (quotes, rationale, confidence). */
  output: Text,
});
export type Rubric = z.output<typeof Rubric>;
