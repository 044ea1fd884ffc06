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
import path from 'node:path';
import { z } from 'zod';
import { StimkitError } from '../core/errors.js';

/** The part of `study.json` scoring reads (the sealed study was checked whole when bundled). */
const StudyPart = z.looseObject({
  study: z.looseObject({
    models: z.record(z.string(), z.array(z.string())).optional(),
    pressure: z
      .looseObject({ other_language: z.record(z.string(), z.string()).optional() })
      .optional(),
  }),
});

/** The model sets and the pressure block's other languages of a bundle with pressure trials. */
async function studyPart(sealed: SealedBundle, trials: Trial[]): Promise<ScoreBundle['study']> {
  if (!trials.some((t) => t.paradigm === 'pressure')) return { modelSets: {}, otherLanguage: {} };
  const parsed = StudyPart.safeParse((await sealed.study()) ?? { study: {} });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw StimkitError.fromProblem({
      code: 'E_SCORE_BUNDLE',
      file: path.join(sealed.dir, 'data', 'study.json'),
      field: issue.path.join('.'),
      message: `the sealed study's model sets or pressure block are not readable: ${issue.message}`,
      fix: 're-bundle the study with this version of stimkit, then score the new bundle',
    });
  }
  const study = parsed.data.study;
  return { modelSets: study.models ?? {}, otherLanguage: study.pressure?.other_language ?? {} };
}

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
  /**
   * What the pressure scorer reads of the sealed study (`study.json`): its model sets (name →
   * model names) and `pressure.other_language`; empty unless the bundle has pressure trials.
   */
  study: { modelSets: Record<string, string[]>; otherLanguage: Record<string, string> };
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
    study: await studyPart(sealed, trials),
    sealed,
  };
}
