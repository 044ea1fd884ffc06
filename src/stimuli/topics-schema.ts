/**
 * The topics file (`stimkit.topics`, version 1): minimal pairs for the dual-framing instrument.
 * This zod schema is the source of truth (JSON Schema: manifests/schema/topics.schema.json); the
 * rules a schema cannot say (every topic in every language, both outcome slots, the swap, known
 * keys and poles, what an extending file may add) are checked in `topics.ts`.
 * Format reference: docs/formats/topics.md.
 */
import { z } from 'zod';
import { LangCode, Slug } from '../ingest/schema.js';
import { ExtendsRef, TextProvenance } from './provenance.js';

export const TOPICS_FORMAT = 'stimkit.topics';
export const TOPICS_VERSION = 1;

/** The two ends of a topic's stance axis; only `plus` and `minus` exist. */
export const POLES = ['plus', 'minus'] as const;
export type Pole = (typeof POLES)[number];

/** The name of one part of a multi-part outcome (`{outcome_a.verb}`). */
const PartName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a part name (letters, digits, _)');

/**
 * An outcome term: one string, or named parts when the language moves words between the two
 * positions (English "respond more to X than they intrude on Y": parts `verb` and `object`).
 */
export const Outcome = z.union([
  z.string().regex(/\S/, 'non-blank text'),
  z.record(PartName, z.string().regex(/\S/, 'non-blank text')),
]);
export type Outcome = z.output<typeof Outcome>;

/**
 * One topic in one language. Either a template (`template` with `{outcome_a}` and `{outcome_b}`,
 * optionally `{subject}`), whose reverse is the swap by construction, or an explicit pair
 * (`affirmative` and `reverse`, optionally naming `outcome_a` and `outcome_b`) checked to differ
 * only by the swap.
 */
export const TopicItemInput = z.strictObject({
  subject: z.string().regex(/\S/, 'non-blank text').optional(),
  template: z.string().regex(/\S/, 'non-blank text').optional(),
  outcome_a: Outcome.optional(),
  outcome_b: Outcome.optional(),
  affirmative: z.string().regex(/\S/, 'non-blank text').optional(),
  reverse: z.string().regex(/\S/, 'non-blank text').optional(),
  /** Overrides the language's default provenance for this item. */
  provenance: TextProvenance.optional(),
  notes: z.string().optional(),
});
export type TopicItemInput = z.output<typeof TopicItemInput>;

export const TopicInput = z.strictObject({
  id: Slug,
  title: z.string().min(1).optional(),
  /** A key declared in the file's `keys` (e.g. `US`); its pole is the affirmative pole. */
  key: z.string().min(1).optional(),
  /** Alternative to `key`: the pole (`plus` or `minus`) agreement with the affirmative supports. */
  affirmative_pole: z.string().min(1).optional(),
  /** Overrides the file's pole labels for this topic. */
  poles: z.record(z.string(), z.string().min(1)).optional(),
  /** The topic in each language of the file. */
  items: z.record(LangCode, TopicItemInput),
  notes: z.string().optional(),
});
export type TopicInput = z.output<typeof TopicInput>;

const LanguageDecl = z.strictObject({
  /** Human name, e.g. "Mandarin Chinese (Simplified)". */
  name: z.string().min(1).optional(),
  /** Default provenance of every text in this language. */
  provenance: TextProvenance,
});
type LanguageDecl = z.output<typeof LanguageDecl>;

export const TopicsFileInput = z.strictObject({
  format: z.literal(TOPICS_FORMAT).default(TOPICS_FORMAT),
  version: z.literal(TOPICS_VERSION),
  /**
   * A file that adds languages to another topics file names it here (relative path, or
   * `stimkit:<name>`); a list combines files that extend one base file.
   */
  extends: ExtendsRef.optional(),
  /** Name of the domain (slug), e.g. `geopolitics`. Required unless `extends`. */
  domain: Slug.optional(),
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  /** Citation of the source of the instrument. */
  source: z.string().optional(),
  /** Labels of the two poles: `{plus: Pro-U.S., minus: Pro-China}`. Required unless `extends`. */
  poles: z.record(z.string(), z.string().min(1)).optional(),
  /** Named polarity keys and the pole each stands for: `{US: plus, CN: minus}`. */
  keys: z.record(z.string().min(1), z.string()).optional(),
  /** The languages of this file, in order, with their default provenance. */
  languages: z.record(LangCode, LanguageDecl).default({}),
  /** The topics (a base file needs one at least; a file combining others may have none). */
  topics: z.array(TopicInput).default([]),
});
export type TopicsFileInput = z.output<typeof TopicsFileInput>;
