/**
 * What a reader of a sealed bundle relies on in its JSON payload files (`entries.json`,
 * `items.json`, `wrappers.json`, `variants.json`, `study.json`). The writer (`payload.ts`) writes
 * more; fields no command reads pass unchecked (loose objects), the ones a command reads are
 * checked here, once, by `openBundle`.
 */
import { z } from 'zod';

const LangMap = z.record(z.string(), z.string());

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
});
export type BundleEntry = z.output<typeof BundleEntry>;

export const EntriesPayload = z.looseObject({ entries: z.array(BundleEntry) });
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
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  width: z.number().int(),
  height: z.number().int(),
});
export type BundleVariant = z.output<typeof BundleVariant>;

export const VariantsPayload = z.looseObject({ records: z.array(BundleVariant) });
export type VariantsPayload = z.output<typeof VariantsPayload>;

/** `study.json`: the normalized study; readers use its model sets. */
export const StudyPayload = z.looseObject({
  study: z.looseObject({ models: z.record(z.string(), z.array(z.string())).optional() }),
});
export type StudyPayload = z.output<typeof StudyPayload>;
