/**
 * What the simulator needs of a sealed bundle: the entries (expected facts, narrative markers,
 * sensitivity), the instrument items (topic, framing, polarity key) and the wrapper pools' option
 * labels. Each file is optional (a study without VLM paradigms has no entries). The bundle is
 * read by `openBundle`, which checks each file against the manifest and validates the fields the
 * simulator uses.
 */
import { z } from 'zod';
import { StimkitError } from '../core/errors.js';
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

/** What the simulator reads of `study.json`: the pressure block's other languages. */
const StudyOtherLanguage = z.looseObject({
  study: z.looseObject({
    pressure: z
      .looseObject({ other_language: z.record(z.string(), z.string()).optional() })
      .optional(),
  }),
});

/**
 * The simulator's view of a bundle: `bundle` opened already (by the run stage, which verified the
 * bag), or its folder, opened here. Throws a StimkitError (`E_SIM_BUNDLE` for a folder) naming the
 * file and field when a payload file lacks what the simulator needs.
 */
export async function loadSimBundle(bundle: SealedBundle | string): Promise<SimBundle> {
  const sealed = typeof bundle === 'string' ? await openBundle(bundle, 'E_SIM_BUNDLE') : bundle;
  const [entries, items, wrappers, trials, study] = await Promise.all([
    sealed.entries(),
    sealed.items(),
    sealed.wrappers(),
    sealed.trials(),
    sealed.study(),
  ]);
  const parsed = study === null ? null : StudyOtherLanguage.safeParse(study);
  if (parsed && !parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw StimkitError.fromProblem({
      code: 'E_SIM_BUNDLE',
      file: `${sealed.dir}/data/study.json`,
      field: issue.path.join('.'),
      message: issue.message,
      expected: 'study.pressure.other_language: a map of language tag to language tag',
      fix: 'seal the bundle again with this version of stimkit',
    });
  }
  // A study without a pressure block has no other languages.
  const other = parsed?.data.study.pressure?.other_language ?? {};
  return {
    digest: sealed.digest,
    entries: new Map((entries ?? []).map((e) => [e.id, simEntry(e)])),
    items: new Map((items?.items ?? []).map((i) => [i.id, i])),
    wrappers: new Map(Object.entries(wrappers?.pools ?? {})),
    trials: new Map(trials.map((t) => [t.id, t])),
    otherLanguage: new Map(Object.entries(other)),
  };
}
