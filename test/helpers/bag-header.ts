// A hand-made test bag of run trials with their entries (what the audit scorers read): its
// `data/bundle.json` header is what `stimkit bundle` writes, so that the one bundle reader (which
// checks the header and the entries against their schemas) opens it.
import { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleHeader } from '../../src/bundle/format.js';
import type { Trial } from '../../src/bundle/format.js';
import { TRIAL_ID_SCHEME } from '../../src/bundle/trial-id.js';
import { writeBag } from '../../src/bundle/write-bag.js';
import { canonicalJson } from '../../src/core/json.js';

/** The bytes of `data/bundle.json` for study `id` with `trials` trials and no images. */
function bagHeader(id: string, trials: number): string {
  const header: BundleHeader = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    study: { id, title: id },
    trials,
    images: 0,
    files: { entries: 'entries.json', trials: 'trials.jsonl' },
    trial_id: TRIAL_ID_SCHEME,
    canonical_json: 'RFC 8785 (JCS)',
  };
  return `${canonicalJson(header)}\n`;
}

/** Seal `trials` and an entry per trial (sensitive, no expected facts) as study `id` in `dir`. */
export async function writeScoreBag(
  dir: string,
  id: string,
  trials: readonly Trial[],
): Promise<void> {
  const entries = trials.map((t) => ({
    id: t.entry,
    title: { en: String(t.entry) },
    topic: 'fixture',
    sensitivity: 'high',
    expected_facts: [],
  }));
  await writeBag(
    dir,
    [
      { path: 'bundle.json', bytes: bagHeader(id, trials.length) },
      { path: 'trials.jsonl', bytes: trials.map((t) => `${canonicalJson(t)}\n`).join('') },
      {
        path: 'entries.json',
        // as `stimkit bundle` writes it: the corpus's name and languages with the entries
        bytes: `${canonicalJson({ corpus: 'fixture', languages: [...new Set(trials.map((t) => t.lang))].sort(), entries })}\n`,
      },
    ],
    [['Bag-Software-Agent', 'stimkit test fixture']],
  );
}
