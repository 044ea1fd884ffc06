/**
 * Reading the payload of a sealed bundle for `stimkit diff`: the header, study, entries, recipe,
 * stimuli and trials, parsed from `data/`. Reading does not verify (`stimkit verify` does).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { BUNDLE_FORMAT, PAYLOAD } from '../bundle/format.js';

/** A trial as diff sees it (the payload's JSON line, parsed). */
export type TrialRecord = Record<string, unknown> & { id: string; paradigm: string; lang: string };

/** The parts of a bundle a diff compares. */
export interface BundlePayload {
  dir: string;
  digest: string;
  header: Record<string, unknown>;
  study: Record<string, unknown>;
  entries: Array<Record<string, unknown> & { id: string }>;
  recipe: unknown;
  prompts: unknown;
  items: unknown;
  wrappers: unknown;
  trials: Map<string, TrialRecord>;
}

async function readJson(dir: string, rel: string, required: boolean): Promise<unknown> {
  const file = path.join(dir, 'data', rel);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw StimkitError.fromProblem(
      {
        code: 'E_DIFF_NOT_A_BUNDLE',
        file: dir,
        field: `data/${rel}`,
        message: `cannot read data/${rel} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        fix: 'pass the folder stimkit bundle --out wrote (check it with stimkit verify)',
      },
      err,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_DIFF_NOT_A_BUNDLE',
        file: dir,
        field: `data/${rel}`,
        message: 'not valid JSON',
        fix: 'run stimkit verify on the bundle; restore it from a copy that verifies',
      },
      err,
    );
  }
}

/** Read a bundle's payload. Throws E_DIFF_NOT_A_BUNDLE naming the file it cannot read. */
export async function readBundlePayload(dir: string): Promise<BundlePayload> {
  const header = (await readJson(dir, PAYLOAD.bundle, true)) as Record<string, unknown>;
  if (header?.format !== BUNDLE_FORMAT) {
    throw StimkitError.fromProblem({
      code: 'E_DIFF_NOT_A_BUNDLE',
      file: dir,
      field: `data/${PAYLOAD.bundle}`,
      message: 'not a stimkit bundle header',
      expected: BUNDLE_FORMAT,
      got: JSON.stringify(header?.format ?? null),
      fix: 'pass the folder stimkit bundle --out wrote',
    });
  }
  let manifest: Buffer;
  try {
    manifest = await readFile(path.join(dir, 'manifest-sha256.txt'));
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_DIFF_NOT_A_BUNDLE',
        file: dir,
        field: 'manifest-sha256.txt',
        message: 'the payload manifest is missing',
        fix: 'pass a complete bundle (stimkit verify names what is missing)',
      },
      err,
    );
  }
  const study =
    ((await readJson(dir, PAYLOAD.study, true)) as { study?: Record<string, unknown> })?.study ??
    {};
  const entries =
    ((await readJson(dir, PAYLOAD.entries, false)) as { entries?: BundlePayload['entries'] } | null)
      ?.entries ?? [];
  const recipe =
    ((await readJson(dir, PAYLOAD.variants, false)) as { recipe?: unknown } | null)?.recipe ?? null;
  const trialsText = await readFile(path.join(dir, 'data', PAYLOAD.trials), 'utf8').catch(() => '');
  const trials = new Map<string, TrialRecord>();
  for (const line of trialsText.split('\n')) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as TrialRecord;
    trials.set(t.id, t);
  }
  return {
    dir,
    digest: sha256(manifest),
    header,
    study,
    entries,
    recipe,
    prompts: await readJson(dir, PAYLOAD.prompts, false),
    items: await readJson(dir, PAYLOAD.items, false),
    wrappers: await readJson(dir, PAYLOAD.wrappers, false),
    trials,
  };
}
