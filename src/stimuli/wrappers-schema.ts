/**
 * The wrapper-pools file (`stimkit.wrappers`, version 1): per language, the prefixes and suffixes
 * drawn around every instrument item and the response-option labels the suffixes list. This zod
 * schema is the source of truth (JSON Schema: manifests/schema/wrappers.schema.json); the rules a
 * schema cannot say are checked in `wrappers.ts`. Format reference: docs/formats/wrappers.md.
 */
import { z } from 'zod';
import { LangCode, Slug } from '../ingest/schema.js';
import { ExtendsRef, TextProvenance } from './provenance.js';

export const WRAPPERS_FORMAT = 'stimkit.wrappers';
export const WRAPPERS_VERSION = 1;

const Text = z.string().regex(/\S/, 'non-blank text');

/** One prefix or suffix: a stable id (recorded in every trial), its text, its provenance. */
const WrapperInput = z.strictObject({
  id: Slug,
  text: Text,
  /** Overrides the pool's default provenance. */
  provenance: TextProvenance.optional(),
  notes: z.string().optional(),
});
type WrapperInput = z.output<typeof WrapperInput>;

/** The pool of one language. */
export const PoolInput = z.strictObject({
  name: z.string().min(1).optional(),
  /** Response-option labels, in the order of `option_values` (e.g. Strongly agree … Strongly disagree). */
  options: z.array(Text).min(2, 'at least two options'),
  prefixes: z.array(WrapperInput).min(1, 'at least one prefix'),
  suffixes: z.array(WrapperInput).min(1, 'at least one suffix'),
  /** Default provenance of the pool's texts (options included). */
  provenance: TextProvenance,
});
export type PoolInput = z.output<typeof PoolInput>;

export const WrappersFileInput = z.strictObject({
  format: z.literal(WRAPPERS_FORMAT).default(WRAPPERS_FORMAT),
  version: z.literal(WRAPPERS_VERSION),
  /**
   * A file that adds languages to another wrappers file names it here (relative path, or
   * `stimkit:<name>`); a list combines files that extend one base file.
   */
  extends: ExtendsRef.optional(),
  description: z.string().optional(),
  source: z.string().optional(),
  /**
   * The score of each option position, shared by every language: `[2, 1, -1, -2]` for Strongly
   * agree, Agree, Disagree, Strongly disagree. Required unless `extends` (then inherited).
   */
  option_values: z.array(z.number().int()).min(2).optional(),
  /** One pool per language (a file that extends another: only the languages it adds). */
  pools: z.record(LangCode, PoolInput).default({}),
  /**
   * A file that extends another only: more prefixes and suffixes for pools of the base file, with
   * the provenance of the added texts. Suffixes must list the base pool's options.
   */
  add_to_pools: z
    .record(
      LangCode,
      z.strictObject({
        prefixes: z.array(WrapperInput).default([]),
        suffixes: z.array(WrapperInput).default([]),
        provenance: TextProvenance,
      }),
    )
    .optional(),
});
export type WrappersFileInput = z.output<typeof WrappersFileInput>;
