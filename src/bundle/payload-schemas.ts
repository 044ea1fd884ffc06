/**
 * What a reader of a sealed bundle relies on in its JSON payload files (`entries.json`,
 * `items.json`, `wrappers.json`, `variants.json`, `study.json`). The writer (`payload.ts`) writes
 * more; fields no command reads pass unchecked (loose objects), the ones a command reads are
 * checked here, once, by `openBundle`.
 */
import { z } from 'zod';
import { Rubric } from '../study/rubric-schema.js';

const LangMap = z.record(z.string(), z.string());
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** An expected fact: its id, its text per language (`en`, `zh`, …) and optional aliases. */
const BundleFact = z.looseObject({ id: z.string() });

/** One corpus entry the trials show (`entries.json` `entries`). */
export const BundleEntry = z.looseObject({
  id: z.string(),
  title: LangMap,
  topic: z.string(),
  sensitivity: z.enum(['high', 'low']),
  roles: z.array(z.string()).default([]),
  provenance: z.record(z.string(), z.string().nullable().optional()).default({}),
  expected_facts: z.array(BundleFact).default([]),
  narrative_markers: z.record(z.string(), z.array(z.string())).optional(),
  notes: z.string().optional(),
  anchor: z.looseObject({ name: LangMap }).optional(),
  /** The entry's source image (its file in the corpus and sha256), which `release` names. */
  image: z
    .looseObject({ file: z.string(), sha256: Sha256, bytes: z.number().int().optional() })
    .nullable()
    .optional(),
});
export type BundleEntry = z.output<typeof BundleEntry>;

export const EntriesPayload = z.looseObject({
  /** The corpus the entries come from, and its languages. */
  corpus: z.string(),
  languages: z.array(z.string()),
  entries: z.array(BundleEntry),
});
export type EntriesPayload = z.output<typeof EntriesPayload>;

const Pole = z.enum(['plus', 'minus']);
const Poles = z.strictObject({ plus: z.string(), minus: z.string() });

/** A topic of `items.json`: the pole agreement with its affirmative supports. */
export const BundleTopic = z.looseObject({
  id: z.string(),
  title: z.string(),
  key: z.string().nullable(),
  affirmative_pole: Pole,
  poles: Poles,
});
export type BundleTopic = z.output<typeof BundleTopic>;

/** A minimal-pair item of `items.json`. */
export const BundleItem = z.looseObject({
  id: z.string(),
  topic: z.string(),
  lang: z.string(),
  framing: z.enum(['affirmative', 'reverse']),
  /** +1 or −1: stance = polarity_key × agreement score. */
  polarity_key: z.union([z.literal(1), z.literal(-1)]),
  affirmative_pole: Pole,
});
export type BundleItem = z.output<typeof BundleItem>;

export const ItemsPayload = z.looseObject({
  poles: Poles,
  topics: z.array(BundleTopic),
  items: z.array(BundleItem),
});
export type ItemsPayload = z.output<typeof ItemsPayload>;

/** A wrapper pool's response options, in the order of the option values (`[2, 1, -1, -2]`). */
export const BundlePool = z.looseObject({
  options: z.array(z.strictObject({ label: z.string().min(1), value: z.number().int() })).min(1),
});
export type BundlePool = z.output<typeof BundlePool>;

export const WrappersPayload = z.looseObject({ pools: z.record(z.string(), BundlePool) });
export type WrappersPayload = z.output<typeof WrappersPayload>;

/** One variant image the bundle holds (`variants.json` `records`). */
export const BundleVariant = z.looseObject({
  entry: z.string(),
  code: z.string(),
  name: z.string(),
  /** `images/<sha256>.png`, in the bundle's `data/`. */
  file: z.string(),
  sha256: Sha256,
  width: z.number().int(),
  height: z.number().int(),
  /** The variant's resolved parameters. */
  params: z.record(z.string(), z.unknown()),
});
export type BundleVariant = z.output<typeof BundleVariant>;

export const VariantsPayload = z.looseObject({
  records: z.array(BundleVariant),
  /** The variants recipe the images were made with (resolved). */
  recipe: z.record(z.string(), z.unknown()).optional(),
});
export type VariantsPayload = z.output<typeof VariantsPayload>;

/** `prompts.json`: the prompt cards as loaded, every paradigm and language (`diff` compares them). */
export const PromptsPayload = z.looseObject({ paradigms: z.record(z.string(), z.unknown()) });
export type PromptsPayload = z.output<typeof PromptsPayload>;

/** `study.json`: the normalized study; readers use its model sets. */
export const StudyPayload = z.looseObject({
  study: z.looseObject({ models: z.record(z.string(), z.array(z.string())).optional() }),
});
export type StudyPayload = z.output<typeof StudyPayload>;

/** `rubric.json`: the audit rubric the study named, sealed (only when it named one). */
export const RubricPayload = z.looseObject({ rubric: Rubric });
