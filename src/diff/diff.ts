/**
 * `stimkit diff <bundleA> <bundleB>`: what changed between two sealed bundles, by meaning: trials
 * added, removed or changed (and in which field: the prompt text, an image's digest, the wrappers,
 * the sampling), entries and their facts, the study design (sampling, languages, seeds, …), the
 * variants recipe, and the prompt cards, instrument items and wrapper pools. What amending a
 * pre-registered study has to report.
 */
import type { Trial } from '../bundle/format.js';
import { readBundlePayload, type BundlePayload } from './read.js';
import { diffValues, type FieldChange } from './values.js';

/** A trial named by what defines it. */
export interface TrialRef {
  id: string;
  paradigm: string;
  lang: string;
  entry: string | null;
  topic: string | null;
  variant: string | null;
}

/** The difference of two bundles. */
export interface BundleDiff {
  identical: boolean;
  a: { dir: string; digest: string; study: string; trials: number };
  b: { dir: string; digest: string; study: string; trials: number };
  study: FieldChange[];
  recipe: FieldChange[];
  entries: {
    added: string[];
    removed: string[];
    changed: Array<{ id: string; fields: FieldChange[] }>;
  };
  stimuli: { prompts: FieldChange[]; items: FieldChange[]; wrappers: FieldChange[] };
  trials: {
    added: TrialRef[];
    removed: TrialRef[];
    changed: Array<TrialRef & { fields: string[] }>;
    /** How many changed trials changed in each field. */
    by_field: Record<string, number>;
  };
}

const ref = (t: Trial): TrialRef => ({
  id: t.id,
  paradigm: t.paradigm,
  lang: t.lang,
  entry: t.entry,
  topic: t.topic,
  variant: t.variant,
});

/** The text parts of a trial's messages, joined. */
function promptText(t: Trial): string {
  return t.messages
    .map(
      (m) =>
        `${m.role}: ${m.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n')}`,
    )
    .join('\n');
}

/** The fields every trial-level comparison below names on its own. */
const NAMED = ['wrappers', 'sampling', 'models', 'prompt'] as const;

/** Which meaningful fields of a trial differ: prompt, image, wrappers, sampling, models, card, other fields. */
function trialFields(a: Trial, b: Trial): string[] {
  const fields: string[] = [];
  if (promptText(a) !== promptText(b)) fields.push('prompt');
  if (JSON.stringify(a.images) !== JSON.stringify(b.images)) fields.push('image');
  for (const f of NAMED) {
    if (JSON.stringify(a[f]) !== JSON.stringify(b[f]))
      fields.push(f === 'prompt' ? 'prompt card' : f);
  }
  // every other field, in the order trials.jsonl writes them (sorted: canonical JSON)
  const known = new Set<string>(['id', 'messages', 'images', ...NAMED]);
  const ra: Record<string, unknown> = a;
  const rb: Record<string, unknown> = b;
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (!known.has(k) && JSON.stringify(ra[k]) !== JSON.stringify(rb[k])) fields.push(k);
  }
  // Messages that differ only in image parts are covered by `image`.
  return fields;
}

const withoutInputs = (v: unknown): unknown => {
  if (v === null || typeof v !== 'object') return v;
  const { inputs: _inputs, ...rest } = v as Record<string, unknown>;
  return rest;
};

/** Compare two read payloads. Pure. */
function diffPayloads(A: BundlePayload, B: BundlePayload): BundleDiff {
  const entriesA = new Map(A.entries.map((e) => [e.id, e]));
  const entriesB = new Map(B.entries.map((e) => [e.id, e]));
  const changedEntries = [...entriesA.keys()]
    .filter((id) => entriesB.has(id))
    .map((id) => ({ id, fields: diffValues(entriesA.get(id), entriesB.get(id)) }))
    .filter((c) => c.fields.length > 0);

  const added: TrialRef[] = [];
  const removed: TrialRef[] = [];
  const changed: Array<TrialRef & { fields: string[] }> = [];
  const byField: Record<string, number> = {};
  for (const [id, t] of A.trials) {
    const u = B.trials.get(id);
    if (!u) {
      removed.push(ref(t));
      continue;
    }
    const fields = trialFields(t, u);
    if (fields.length === 0) continue;
    changed.push({ ...ref(t), fields });
    for (const f of fields) byField[f] = (byField[f] ?? 0) + 1;
  }
  for (const [id, t] of B.trials) if (!A.trials.has(id)) added.push(ref(t));

  const result: BundleDiff = {
    identical: A.digest === B.digest,
    a: {
      dir: A.dir,
      digest: A.digest,
      study: A.header.study.id,
      trials: A.trials.size,
    },
    b: {
      dir: B.dir,
      digest: B.digest,
      study: B.header.study.id,
      trials: B.trials.size,
    },
    study: diffValues(A.study, B.study),
    recipe: diffValues(A.recipe, B.recipe),
    entries: {
      added: [...entriesB.keys()].filter((id) => !entriesA.has(id)),
      removed: [...entriesA.keys()].filter((id) => !entriesB.has(id)),
      changed: changedEntries,
    },
    stimuli: {
      prompts: diffValues(withoutInputs(A.prompts), withoutInputs(B.prompts)),
      items: diffValues(withoutInputs(A.items), withoutInputs(B.items)),
      wrappers: diffValues(withoutInputs(A.wrappers), withoutInputs(B.wrappers)),
    },
    trials: { added, removed, changed, by_field: byField },
  };
  return result;
}

/**
 * Compare two sealed bundles by meaning. Throws E_DIFF_NOT_A_BUNDLE when either cannot be read.
 *
 * @example
 * const d = await diffBundles('bundles/v1', 'bundles/v2');
 * d.trials.by_field; // { prompt: 12 } — twelve trials got a new prompt text
 */
export async function diffBundles(a: string, b: string): Promise<BundleDiff> {
  const [A, B] = await Promise.all([readBundlePayload(a), readBundlePayload(b)]);
  return diffPayloads(A, B);
}
