/**
 * Reading a sealed bundle for people to look at: its digest, trials, entries and variant records.
 * Used by `stimkit label` (the rater's ground truth and images) and `stimkit view`. The bundle is
 * read by `openBundle` (manifest-checked, validated); images are opened by digest only, never by a
 * path taken from a request.
 */
import { openBundle, type SealedBundle } from '../bundle/reader.js';
import type { BundleEntry, BundleVariant } from '../bundle/payload-schemas.js';
import type { Trial } from '../bundle/format.js';
import type { LoadedPack } from '../languages/load.js';

export type { BundleEntry };
/** One variant image the bundle holds (variants.json `records`). */
export type VariantRecord = BundleVariant;

export interface BundleData {
  /** Absolute path of the bundle folder. */
  dir: string;
  /** sha256 of `manifest-sha256.txt`. */
  digest: string;
  study: { id: string; title: string };
  trials: Trial[];
  trialById: Map<string, Trial>;
  entries: Map<string, BundleEntry>;
  variants: VariantRecord[];
  /** The bundle as opened (its image files by digest). */
  sealed: SealedBundle;
  /** The study's own language packs sealed in the bundle (read before the shipped ones). */
  packs: LoadedPack[];
}

/** Open a sealed bundle (E_LABEL_BUNDLE when it is not one) and read its trials, entries and variants. */
export async function loadBundle(dir: string): Promise<BundleData> {
  const sealed = await openBundle(dir, 'E_LABEL_BUNDLE');
  const [trials, entries, variants, packs] = await Promise.all([
    sealed.trials(),
    sealed.entries(),
    sealed.variants(),
    sealed.languagePacks(),
  ]);
  return {
    dir: sealed.dir,
    digest: sealed.digest,
    study: sealed.header.study,
    trials,
    trialById: new Map(trials.map((t) => [t.id, t])),
    entries: new Map((entries ?? []).map((e) => [e.id, e])),
    variants: variants?.records ?? [],
    sealed,
    packs,
  };
}

/** The absolute file of an image in the bundle, by its digest (which must be 64 hex digits). */
export function imageFile(bundle: BundleData, digest: string): string {
  return bundle.sealed.imageFile(digest);
}

/** The text parts of a trial's messages, joined by a blank line: the prompt as the model read it. */
export function promptText(trial: Trial): string {
  return trial.messages
    .flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])))
    .join('\n\n');
}

/** The text of a language map in `lang`, falling back to English, then to any language. */
export function inLang(text: Record<string, string> | undefined, lang: string): string {
  if (!text) return '';
  return text[lang] ?? text.en ?? Object.values(text)[0] ?? '';
}
