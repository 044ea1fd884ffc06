/**
 * Reads what the simulator needs from a sealed bundle: the entries (expected facts, narrative
 * markers, sensitivity) from `data/entries.json`, the instrument items (topic, framing, polarity
 * key) from `data/items.json`, and the wrapper pools' option labels from `data/wrappers.json`.
 * Each file is optional (a study without VLM paradigms has no entries); only the fields the
 * simulator uses are checked, other fields pass.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadDataFile } from '../core/datafile.js';
import { PAYLOAD } from '../bundle/format.js';
import type { SimBundle } from './index.js';

/** One expected fact: its id and its text per language (`en`, `zh`, …). */
const SimFact = z.looseObject({ id: z.string() }).transform((f) => {
  const text: Record<string, string> = {};
  for (const [k, v] of Object.entries(f))
    if (k !== 'id' && k !== 'aliases' && typeof v === 'string') text[k] = v;
  return { id: f.id, text };
});
type SimFact = z.output<typeof SimFact>;

/** The parts of an entry record the simulator reads. */
export const SimEntry = z.looseObject({
  id: z.string(),
  title: z.record(z.string(), z.string()),
  topic: z.string(),
  sensitivity: z.enum(['high', 'low']),
  expected_facts: z.array(SimFact).default([]),
  narrative_markers: z.record(z.string(), z.array(z.string())).default({}),
  anchor: z.looseObject({ name: z.record(z.string(), z.string()) }).optional(),
});
export type SimEntry = z.output<typeof SimEntry>;

/** The parts of an instrument item the simulator reads. */
export const SimItem = z.looseObject({
  id: z.string(),
  topic: z.string(),
  lang: z.string(),
  framing: z.enum(['affirmative', 'reverse']),
  /** +1 or −1: stance = polarity_key × agreement score. */
  polarity_key: z.union([z.literal(1), z.literal(-1)]),
  affirmative_pole: z.enum(['plus', 'minus']),
});
export type SimItem = z.output<typeof SimItem>;

/** A wrapper pool's response options, in the order of the option values (`[2, 1, -1, -2]`). */
export const SimPool = z.looseObject({
  options: z.array(z.strictObject({ label: z.string().min(1), value: z.number().int() })).min(1),
});
export type SimPool = z.output<typeof SimPool>;

const EntriesFile = z.looseObject({ entries: z.array(SimEntry) });
const ItemsFile = z.looseObject({ items: z.array(SimItem) });
const WrappersFile = z.looseObject({ pools: z.record(z.string(), SimPool) });

async function read<S extends z.ZodType>(
  dataDir: string,
  name: string,
  schema: S,
): Promise<z.output<S> | null> {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) return null;
  return (await loadDataFile(file, schema, 'E_SIM_BUNDLE')).data;
}

/**
 * Load the simulator's view of a bundle. `bundleDir` is the bag (the folder holding `data/`);
 * `digest` is recorded as given (the run stage has verified the bag). Throws a StimkitError
 * (`E_SIM_BUNDLE`) naming the file and field when a payload file lacks what the simulator needs.
 */
export async function loadSimBundle(bundleDir: string, digest: string): Promise<SimBundle> {
  const dataDir = path.join(bundleDir, 'data');
  const [entries, items, wrappers] = await Promise.all([
    read(dataDir, PAYLOAD.entries, EntriesFile),
    read(dataDir, PAYLOAD.items, ItemsFile),
    read(dataDir, PAYLOAD.wrappers, WrappersFile),
  ]);
  return {
    digest,
    entries: new Map((entries?.entries ?? []).map((e) => [e.id, e])),
    items: new Map((items?.items ?? []).map((i) => [i.id, i])),
    wrappers: new Map(Object.entries(wrappers?.pools ?? {})),
  };
}
