/**
 * What scoring reads from a sealed bundle: its digest, its trials, and (for the instrument) the
 * items' polarity keys and the wrapper pools' option labels. The bundle is read by `openBundle`,
 * which checks every payload file it reads against `manifest-sha256.txt`, so scores always belong
 * to the bundle whose digest they carry (a full re-hash of the images is `stimkit verify`'s job).
 */
import type { Trial } from '../bundle/format.js';
import type { BundleItem, BundleTopic } from '../bundle/payload-schemas.js';
import { openBundle, type SealedBundle } from '../bundle/reader.js';
import type { LoadedPack } from '../languages/load.js';

/** The bundle as scoring sees it. */
export interface ScoreBundle {
  /** The bundle folder as given. */
  dir: string;
  /** sha256 of `manifest-sha256.txt`. */
  digest: string;
  /** Trials in plan order. */
  trials: Trial[];
  /** Trial id → position in `trials`. */
  order: Map<string, number>;
  /** Instrument topics and items, empty without an instrument. */
  topics: Map<string, BundleTopic>;
  items: Map<string, BundleItem>;
  /** The poles' labels of the instrument (`{plus: 'Pro-U.S.', minus: 'Pro-China'}`), or null. */
  poles: { plus: string; minus: string } | null;
  /** Response options per language (`wrappers.json`). */
  options: Map<string, { label: string; value: number }[]>;
  /** The study's own language packs sealed in the bundle: read before the shipped ones. */
  packs: LoadedPack[];
  /** The bundle as opened: its header and its other payload files. */
  sealed: SealedBundle;
}

/** Load a bundle for scoring. Throws `E_SCORE_BUNDLE` naming the file when it is not a usable bundle. */
export async function loadScoreBundle(dir: string): Promise<ScoreBundle> {
  const sealed = await openBundle(dir, 'E_SCORE_BUNDLE');
  const [trials, items, wrappers, packs] = await Promise.all([
    sealed.trials(),
    sealed.items(),
    sealed.wrappers(),
    sealed.languagePacks(),
  ]);
  return {
    dir,
    digest: sealed.digest,
    trials,
    order: new Map(trials.map((t, i) => [t.id, i])),
    topics: new Map((items?.topics ?? []).map((t) => [t.id, t])),
    items: new Map((items?.items ?? []).map((it) => [it.id, it])),
    poles: items?.poles ?? null,
    options: new Map(Object.entries(wrappers?.pools ?? {}).map(([l, p]) => [l, p.options])),
    packs,
    sealed,
  };
}
