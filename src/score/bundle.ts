/**
 * What scoring reads from a sealed bundle: its digest, its trials, and (for the instrument) the
 * items' polarity keys and the wrapper pools' option labels. Every payload file read is checked
 * against `manifest-sha256.txt` first, so scores always belong to the bundle whose digest they
 * carry (a full re-hash of the images is `stimkit verify`'s job).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseManifest } from '../bundle/bagit.js';
import { PAYLOAD, type Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';

/** A topic of `items.json`: the pole agreement with its affirmative supports. */
interface BundleTopic {
  id: string;
  title: string;
  key: string | null;
  affirmative_pole: 'plus' | 'minus';
  poles: { plus: string; minus: string };
}

/** An item of `items.json` (the fields scoring uses). */
interface BundleItem {
  id: string;
  topic: string;
  lang: string;
  framing: 'affirmative' | 'reverse';
  polarity_key: 1 | -1;
  affirmative_pole: 'plus' | 'minus';
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
  /** Read another payload file (path under `data/`) as JSON, checked against the manifest. */
  readJson: (name: string) => Promise<unknown>;
}

function bundleError(
  dir: string,
  file: string,
  message: string,
  fix: string,
  cause?: unknown,
): StimkitError {
  return StimkitError.fromProblem(
    { code: 'E_SCORE_BUNDLE', file: path.join(dir, file), message, fix },
    cause,
  );
}

/**
 * Read payload file `data/<name>` and check it against the manifest. Null when it is not listed and
 * not `required`; throws `E_SCORE_BUNDLE` when it is missing, unlisted but required, or changed.
 */
async function readPayload(
  dir: string,
  manifest: ReadonlyMap<string, string>,
  name: string,
  required: boolean,
): Promise<Buffer | null> {
  const rel = `data/${name}`;
  const listed = manifest.get(rel);
  if (listed === undefined) {
    if (!required) return null;
    throw bundleError(
      dir,
      rel,
      'the bundle has no such payload file',
      'pass a bundle whose study has this part, or re-bundle',
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(dir, rel));
  } catch (err) {
    throw bundleError(
      dir,
      rel,
      'a payload file the manifest lists is missing',
      'run `stimkit verify` on the bundle',
      err,
    );
  }
  if (sha256(bytes) !== listed) {
    throw bundleError(
      dir,
      rel,
      'this payload file does not match manifest-sha256.txt: the bundle was changed after sealing',
      'run `stimkit verify` and score an unchanged bundle',
    );
  }
  return bytes;
}

/** Load a bundle for scoring. Throws `E_SCORE_BUNDLE` naming the file when it is not a usable bundle. */
export async function loadScoreBundle(dir: string): Promise<ScoreBundle> {
  let manifestBytes: Buffer;
  try {
    manifestBytes = await readFile(path.join(dir, 'manifest-sha256.txt'));
  } catch (err) {
    throw bundleError(
      dir,
      'manifest-sha256.txt',
      'not a sealed bundle (no manifest-sha256.txt)',
      'pass the folder `stimkit bundle` wrote with --bundle',
      err,
    );
  }
  const digest = sha256(manifestBytes);
  const manifest = new Map(
    parseManifest(manifestBytes.toString('utf8')).lines.map((l) => [l.path, l.digest]),
  );

  const payload = (name: string, required: boolean) => readPayload(dir, manifest, name, required);
  const readJson = async (name: string): Promise<unknown> =>
    JSON.parse((await payload(name, true))!.toString('utf8'));

  const trialsText = (await payload(PAYLOAD.trials, true))!.toString('utf8');
  const trials = trialsText
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Trial);
  const order = new Map(trials.map((t, i) => [t.id, i]));

  const topics = new Map<string, BundleTopic>();
  const items = new Map<string, BundleItem>();
  let poles: ScoreBundle['poles'] = null;
  const itemsBytes = await payload(PAYLOAD.items, false);
  if (itemsBytes) {
    const doc = JSON.parse(itemsBytes.toString('utf8')) as {
      poles: { plus: string; minus: string };
      topics: BundleTopic[];
      items: BundleItem[];
    };
    poles = doc.poles;
    for (const t of doc.topics) topics.set(t.id, t);
    for (const it of doc.items) items.set(it.id, it);
  }
  const options = new Map<string, { label: string; value: number }[]>();
  const wrappersBytes = await payload(PAYLOAD.wrappers, false);
  if (wrappersBytes) {
    const doc = JSON.parse(wrappersBytes.toString('utf8')) as {
      pools: Record<string, { options: { label: string; value: number }[] }>;
    };
    for (const [lang, pool] of Object.entries(doc.pools)) options.set(lang, pool.options);
  }
  return { dir, digest, trials, order, topics, items, poles, options, readJson };
}
