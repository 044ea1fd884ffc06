/**
 * The entries manifest: the hand-written description of a corpus (provenance, bilingual expected
 * facts, topic, sensitivity, roles). This zod schema is the source of truth; the JSON Schema in
 * `manifests/schema/entries.schema.json` is generated from it (`npm run schemas`).
 */
import { z } from 'zod';

/** A language tag as used in manifests: `en`, `zh`, `pt`, `zh-Hant`, … (BCP 47 subset). */
export const LangCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language tag such as en, zh, pt or zh-Hant');

/** A slug identifier: lower-case letters, digits, `-`, `_`, `.`; starts with a letter or digit. */
export const Slug = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]*$/,
    'a slug (lower-case letters, digits, "-", "_", "."; starting with a letter or digit)',
  );

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, '64 lower-case hex digits (a sha256)');

/** A date as precise as the record allows: `1989`, `1989-06`, `1989-06-05`; null when unknown. */
const PartialDate = z
  .union(
    [
      z
        .string()
        .regex(
          /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/,
          'an ISO date YYYY, YYYY-MM or YYYY-MM-DD',
        ),
      // an unquoted YAML year (`date_taken: 1969`) is a number: the year it says, as text
      z
        .number()
        .int()
        .min(1000)
        .max(9999)
        .transform((y) => String(y)),
    ],
    {
      error: (issue) =>
        typeof issue.input === 'number'
          ? `a year as four digits (1969), or a date as text in quotes ("1969-07", "1969-07-20"); got the number ${issue.input}`
          : 'an ISO date YYYY, YYYY-MM or YYYY-MM-DD',
    },
  )
  .nullable();

/** Text per language, e.g. `{en: "...", zh: "..."}`. */
const LangText = z.record(LangCode, z.string().trim().min(1, 'non-empty text'));

export const Role = z.enum(['core', 'anchor', 'abstraction', 'control']);
const Sensitivity = z.enum(['high', 'low']);

/**
 * A web address people follow from the pages (review, view): http or https only. Any other scheme
 * (`javascript:`, `data:`, `file:`) would become a link that runs code or reads local files.
 */
const HttpUrl = z
  .url({
    protocol: /^https?$/,
    error:
      'an http:// or https:// address (other schemes, such as javascript: or file:, are refused)',
  })
  .meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });

export const Provenance = z.strictObject({
  archive: z.string().min(1).optional(),
  source_url: HttpUrl.optional(),
  credit: z.string().min(1).optional(),
  date_taken: PartialDate.optional(),
  date_retrieved: PartialDate.optional(),
  license: z.string().min(1).optional(),
  notes: z.string().optional(),
});

/**
 * One expected fact: an id, its text in each language as a key of its own (`en`, `zh`, …), and
 * optional aliases per language (other wordings a scorer should accept).
 */
const ExpectedFact = z
  .object({
    id: Slug,
    aliases: z.record(LangCode, z.array(z.string().min(1))).optional(),
  })
  .catchall(z.string().trim().min(1, 'non-empty text'))
  .superRefine((fact, ctx) => {
    for (const key of Object.keys(fact)) {
      if (key !== 'id' && key !== 'aliases' && !LangCode.safeParse(key).success) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `"${key}" is neither id, aliases nor a language tag`,
        });
      }
    }
  });

const ImageRef = z.strictObject({
  /** Path of the image file, relative to the images root (never outside it). */
  file: z.string().min(1),
  /** Pinned sha256 of the file bytes; ingest fails if the file differs. */
  sha256: Sha256Hex.optional(),
  /** Id of another entry this one deliberately shares (or nearly shares) its image with. */
  same_as: Slug.optional(),
});

export const Entry = z.strictObject({
  id: Slug,
  title: LangText,
  topic: Slug,
  sensitivity: Sensitivity,
  roles: z
    .array(Role)
    .min(1, 'at least one role')
    .refine((r) => new Set(r).size === r.length, 'roles listed once each'),
  image: ImageRef,
  provenance: Provenance,
  expected_facts: z.array(ExpectedFact).default([]),
  anchor: z.strictObject({ name: LangText }).optional(),
  narrative_markers: z.record(LangCode, z.array(z.string().min(1))).optional(),
  notes: z.string().optional(),
});

export const ENTRIES_FORMAT = 'stimkit.entries';

export const EntriesManifest = z.strictObject({
  format: z.literal(ENTRIES_FORMAT).default(ENTRIES_FORMAT),
  version: z.literal(1),
  /** Name of the corpus (used for default output folders). */
  corpus: Slug,
  description: z.string().optional(),
  /** Study languages: every core entry needs expected facts, and every anchor a name, in each. */
  languages: z.array(LangCode).min(1).default(['en', 'zh']),
  /** Folder the image paths are relative to, itself relative to this manifest (default: its folder). */
  images: z.string().min(1).default('.'),
  entries: z.array(Entry).min(1, 'at least one entry'),
});

export type EntriesManifest = z.output<typeof EntriesManifest>;
export type Entry = z.output<typeof Entry>;
type ExpectedFact = z.output<typeof ExpectedFact>;
export type Provenance = z.output<typeof Provenance>;
export type Role = z.output<typeof Role>;
