/**
 * What the simulator needs of a sealed bundle: the entries (expected facts, narrative markers,
 * sensitivity), the instrument items (topic, framing, polarity key) and the wrapper pools' option
 * labels. Each file is optional (a study without VLM paradigms has no entries). The bundle is
 * read by `openBundle`, which checks each file against the manifest and validates the fields the
 * simulator uses.
 */
import type { z } from 'zod';
import { BundleEntry, BundleItem, type BundlePool } from '../bundle/payload-schemas.js';
import { openBundle, type SealedBundle } from '../bundle/reader.js';
import type { SimBundle } from './index.js';

/** An entry with each expected fact as its id and its text per language (`en`, `zh`, …). */
function simEntry(e: BundleEntry) {
  return {
    ...e,
    expected_facts: e.expected_facts.map((f) => {
      const text: Record<string, string> = {};
      for (const [k, v] of Object.entries(f))
        if (k !== 'id' && k !== 'aliases' && typeof v === 'string') text[k] = v;
      return { id: f.id, text };
    }),
    narrative_markers: e.narrative_markers ?? {},
  };
}

/** The parts of an entry record the simulator reads. */
export const SimEntry = BundleEntry.transform(simEntry);
export type SimEntry = z.output<typeof SimEntry>;

/** The parts of an instrument item the simulator reads. */
export const SimItem = BundleItem;
export type SimItem = BundleItem;

/** A wrapper pool's response options, in the order of the option values (`[2, 1, -1, -2]`). */
export type SimPool = BundlePool;

/**
 * The simulator's view of a bundle: `bundle` opened already (by the run stage, which verified the
 * bag), or its folder, opened here. Throws a StimkitError (`E_SIM_BUNDLE` for a folder) naming the
 * file and field when a payload file lacks what the simulator needs.
 */
export async function loadSimBundle(bundle: SealedBundle | string): Promise<SimBundle> {
  const sealed = typeof bundle === 'string' ? await openBundle(bundle, 'E_SIM_BUNDLE') : bundle;
  const [entries, items, wrappers] = await Promise.all([
    sealed.entries(),
    sealed.items(),
    sealed.wrappers(),
  ]);
  return {
    digest: sealed.digest,
    entries: new Map((entries ?? []).map((e) => [e.id, simEntry(e)])),
    items: new Map((items?.items ?? []).map((i) => [i.id, i])),
    wrappers: new Map(Object.entries(wrappers?.pools ?? {})),
  };
}
