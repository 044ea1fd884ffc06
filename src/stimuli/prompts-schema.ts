/**
 * The prompt-cards file (`stimkit.prompts`, version 1): per paradigm and language, the exact
 * prompt text of the VLM audit (Table A3), with declared slots such as `{subject}`. This zod
 * schema is the source of truth (JSON Schema: manifests/schema/prompts.schema.json); the rules a
 * schema cannot say are checked in `prompts.ts`. Format reference: docs/formats/prompts.md.
 */
import { z } from 'zod';
import { LangCode, Slug } from '../ingest/schema.js';
import { ExtendsRef, TextProvenance } from './provenance.js';

export const PROMPTS_FORMAT = 'stimkit.prompts';
export const PROMPTS_VERSION = 1;

const VarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a slot name (letters, digits, _)');

/** One paradigm: whether it shows an image, its slots, its text per language. */
export const PromptCardInput = z.strictObject({
  description: z.string().optional(),
  /** True when the prompt goes with an image (describe, comment-image, abstraction, narrative). Required unless `extends`. */
  image: z.boolean().optional(),
  /** Slots the text uses, e.g. `[subject]` for comment-text; filled when the trial is rendered. */
  vars: z.array(VarName).optional(),
  /** The prompt in each language of the file. */
  text: z.record(LangCode, z.string().regex(/\S/, 'non-blank text')),
  /** Per-language provenance overriding the language default. */
  provenance: z.record(LangCode, TextProvenance).optional(),
  notes: z.string().optional(),
});
export type PromptCardInput = z.output<typeof PromptCardInput>;

export const PromptsFileInput = z.strictObject({
  format: z.literal(PROMPTS_FORMAT).default(PROMPTS_FORMAT),
  version: z.literal(PROMPTS_VERSION),
  /**
   * A file that adds languages to another prompts file names it here (relative path, or
   * `stimkit:<name>`); a list combines files that extend one base file.
   */
  extends: ExtendsRef.optional(),
  description: z.string().optional(),
  source: z.string().optional(),
  /** The languages of this file, in order, with their default provenance. */
  languages: z
    .record(
      LangCode,
      z.strictObject({ name: z.string().min(1).optional(), provenance: TextProvenance }),
    )
    .default({}),
  /** One card per paradigm (an extending file gives only the text of its languages). */
  paradigms: z.record(Slug, PromptCardInput).default({}),
});
export type PromptsFileInput = z.output<typeof PromptsFileInput>;
