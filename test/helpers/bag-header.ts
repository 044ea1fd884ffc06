// The `data/bundle.json` header of a hand-made test bag: what `stimkit bundle` writes, for a study
// of `trials` text or VLM trials, so that the one bundle reader (which checks the header against
// its schema) opens the bag.
import { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleHeader } from '../../src/bundle/format.js';
import { TRIAL_ID_SCHEME } from '../../src/bundle/trial-id.js';
import { canonicalJson } from '../../src/core/json.js';

/** The bytes of `data/bundle.json` for study `id` with `trials` trials and no images. */
export function bagHeader(id: string, trials: number): string {
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
