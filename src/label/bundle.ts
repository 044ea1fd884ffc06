/**
 * Reading a sealed bundle for people to look at: its digest, trials, entries and variant records.
 * Used by `stimkit label` (the rater's ground truth and images) and `stimkit view`. It trusts a
 * bundle `stimkit verify` accepts and checks only what these commands rely on; images are opened
 * by digest only, never by a path taken from a request.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { BUNDLE_FORMAT, imagePayloadPath, PAYLOAD, type Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';

/** What a rater or a viewer sees of an entry (a subset of entries.json's records). */
export interface BundleEntry {
  id: string;
  title: Record<string, string>;
  topic: string;
  sensitivity: string;
  roles: string[];
  provenance: Record<string, string | undefined>;
  expected_facts: Array<Record<string, unknown> & { id: string }>;
  notes?: string;
  anchor?: { name: Record<string, string> };
}

/** One variant image the bundle holds (variants.json `records`). */
export interface VariantRecord {
  entry: string;
  code: string;
  name: string;
  sha256: string;
  width: number;
  height: number;
}

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
}

function bundleProblem(
  dir: string,
  file: string,
  message: string,
  fix: string,
  cause?: unknown,
): StimkitError {
  return StimkitError.fromProblem(
    { code: 'E_LABEL_BUNDLE', file: path.join(dir, file), message, fix },
    cause,
  );
}

async function readJson(dir: string, rel: string, optional = false): Promise<unknown> {
  const file = path.join(dir, rel);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (optional && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw bundleProblem(
      dir,
      rel,
      'cannot read this bundle file',
      'give the folder `stimkit bundle` wrote (check it with `stimkit verify`)',
      err,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw bundleProblem(
      dir,
      rel,
      'not valid JSON',
      'the bundle is damaged: run `stimkit verify` on it',
      err,
    );
  }
}

/** The bundle digest: sha256 of the bytes of `manifest-sha256.txt`. */
async function bundleDigest(dir: string): Promise<string> {
  try {
    return sha256(await readFile(path.join(dir, 'manifest-sha256.txt')));
  } catch (err) {
    throw bundleProblem(
      dir,
      'manifest-sha256.txt',
      'not a sealed bundle (no manifest-sha256.txt)',
      'give the folder `stimkit bundle --out` wrote',
      err,
    );
  }
}

/** Load a bundle's header, trials, entries and variant records. */
export async function loadBundle(dirGiven: string): Promise<BundleData> {
  const dir = path.resolve(dirGiven);
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_LABEL_BUNDLE',
        file: dirGiven,
        message: 'no bundle folder here',
        fix: 'give the folder `stimkit bundle --out` wrote',
      },
      err,
    );
  }
  const digest = await bundleDigest(dir);
  const header = (await readJson(dir, `data/${PAYLOAD.bundle}`)) as {
    format?: string;
    study?: { id: string; title: string };
  };
  if (header?.format !== BUNDLE_FORMAT) {
    throw bundleProblem(
      dir,
      `data/${PAYLOAD.bundle}`,
      `not a stimkit bundle header (format ${JSON.stringify(header?.format)})`,
      'give the folder `stimkit bundle --out` wrote',
    );
  }
  let text: string;
  try {
    text = await readFile(path.join(dir, 'data', PAYLOAD.trials), 'utf8');
  } catch (err) {
    throw bundleProblem(
      dir,
      `data/${PAYLOAD.trials}`,
      'cannot read the trials',
      'run `stimkit verify` on the bundle',
      err,
    );
  }
  const trials: Trial[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      trials.push(JSON.parse(line) as Trial);
    } catch (err) {
      throw StimkitError.fromProblem(
        {
          code: 'E_LABEL_BUNDLE',
          file: path.join(dir, 'data', PAYLOAD.trials),
          line: i + 1,
          message: 'not JSON',
          fix: 'run `stimkit verify` on the bundle',
        },
        err,
      );
    }
  });
  const entriesFile = (await readJson(dir, `data/${PAYLOAD.entries}`, true)) as
    { entries?: BundleEntry[] } | undefined;
  const variantsFile = (await readJson(dir, `data/${PAYLOAD.variants}`, true)) as
    { records?: VariantRecord[] } | undefined;
  return {
    dir,
    digest,
    study: header.study ?? { id: '?', title: '' },
    trials,
    trialById: new Map(trials.map((t) => [t.id, t])),
    entries: new Map((entriesFile?.entries ?? []).map((e) => [e.id, e])),
    variants: variantsFile?.records ?? [],
  };
}

/** The absolute file of an image in the bundle, by its digest (which must be 64 hex digits). */
export function imageFile(bundle: BundleData, digest: string): string {
  if (!/^[0-9a-f]{64}$/.test(digest)) throw new Error(`not an image digest: ${digest}`);
  return path.join(bundle.dir, 'data', imagePayloadPath(digest));
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
