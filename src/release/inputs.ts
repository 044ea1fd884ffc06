/**
 * What `stimkit release` reads, each checked at the door: the sealed bundle (verified, as `stimkit
 * verify` does), the scores folder (its score.json, and trials.csv against the sha256 score.json
 * records; same bundle), the ledger run the scores came from (same bundle), and `--labels DIR`'s
 * labels.csv.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { readCsvObjects } from '../core/csv.js';
import { exists, sha256, sha256File } from '../core/fsio.js';
import { openScores } from '../score/read.js';
import { openLedger, type LedgerResult } from '../ledger/read.js';
import type { ScoreLine, ScoresHeader } from '../score/format.js';
import { openBundle } from '../bundle/reader.js';
import type { BundleEntry, BundleVariant } from '../bundle/payload-schemas.js';
import { verifyBundle } from '../verify/index.js';

/** The sealed bundle's parts the release reads. */
export interface ReleaseBundle {
  dir: string;
  digest: string;
  study: string;
  languages: string[];
  entries: Map<string, BundleEntry>;
  variants: BundleVariant[];
  recipe: Record<string, unknown>;
  /** Image sha256s per trial id. */
  trialImages: Map<string, string[]>;
}

const problem = (code: string, file: string, message: string, fix: string, cause?: unknown) =>
  StimkitError.fromProblem({ code, file, message, fix }, cause);

/**
 * Verify the bundle (every file re-hashed, as `stimkit verify` does), then read it through the one
 * reader of sealed bundles (`openBundle`: each payload file checked against the manifest and
 * validated against its schema).
 */
export async function readReleaseBundle(dir: string): Promise<ReleaseBundle> {
  const v = await verifyBundle(dir);
  if (!v.ok || v.digest === null)
    throw new StimkitError('E_RELEASE_BUNDLE', `${dir}: the bundle does not verify`, {
      problems: v.problems,
      fix: 'release from the sealed bundle as it was run (stimkit verify names each changed file)',
    });
  const b = await openBundle(dir, 'E_RELEASE_BUNDLE');
  const variants = await b.variants();
  const trialImages = new Map<string, string[]>();
  const languages = new Set<string>();
  for (const t of await b.trials()) {
    trialImages.set(t.id, t.images);
    languages.add(t.lang);
  }
  return {
    dir: b.dir,
    digest: b.digest,
    study: b.header.study.id,
    languages: [...languages].sort(),
    entries: new Map(((await b.entries()) ?? []).map((e) => [e.id, e])),
    variants: variants?.records ?? [],
    recipe: variants?.recipe ?? {},
    trialImages,
  };
}

/** The scores folder: its header and trials.csv, of the same bundle. */
export async function readReleaseScores(
  dir: string,
  digest: string,
): Promise<{ header: ScoresHeader; sha: string; trialsCsv: string; lines: ScoreLine[] }> {
  const scores = await openScores(dir, 'E_RELEASE_SCORES');
  const { header, sha } = scores;
  if (header.bundle.digest !== digest)
    throw StimkitError.fromProblem({
      code: 'E_RELEASE_SCORES',
      file: path.join(dir, 'score.json'),
      message: 'the scores are of another bundle',
      expected: digest,
      got: header.bundle.digest,
      fix: 'pass the scores of this bundle',
    });
  return {
    header,
    sha,
    trialsCsv: await scores.required('trials.csv'),
    lines: await scores.lines(),
  };
}

/** Every final result of the ledger run the scores were made from. */
export async function readReleaseLedger(
  file: string,
  digest: string,
  run: string | null,
): Promise<{ run: string; sha: string; results: LedgerResult[] }> {
  if (!(await exists(file)))
    throw problem(
      'E_RELEASE_LEDGER',
      file,
      'no such ledger',
      'pass the run ledger the scores were made from',
    );
  const ledger = openLedger(file);
  try {
    const r = ledger.run(run ?? undefined);
    if (r.bundle_digest !== digest)
      throw StimkitError.fromProblem({
        code: 'E_RELEASE_LEDGER',
        file,
        message: `run "${r.label}" is of another bundle`,
        expected: digest,
        got: r.bundle_digest,
        fix: 'pass the ledger of the bundle the scores were made from',
      });
    return {
      run: r.label,
      sha: await sha256File(file),
      results: [...ledger.results({ run: r.label })],
    };
  } finally {
    ledger.close();
  }
}

/**
 * `--labels DIR`: its labels.csv (stimkit label export), with its sha256; every rating must be of
 * the released bundle (its `bundle_digest`).
 */
export async function readReleaseLabels(
  dir: string,
  digest: string,
): Promise<{ file: string; text: string; sha: string }> {
  const file = path.join(dir, 'labels.csv');
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw problem(
      'E_RELEASE_LABELS',
      file,
      'no readable labels.csv in --labels',
      'pass the folder holding stimkit label export’s labels.csv',
      err,
    );
  });
  const rows = readCsvObjects(text);
  const other = rows.findIndex((r) => r.bundle_digest !== digest);
  if (other >= 0)
    throw StimkitError.fromProblem({
      code: 'E_RELEASE_LABELS',
      file,
      field: `bundle_digest (row ${other + 1})`,
      message: `${rows.filter((r) => r.bundle_digest !== digest).length} of ${rows.length} ratings are not of the released bundle`,
      expected: digest,
      got: rows[other]!.bundle_digest || '(empty)',
      fix: 'pass the labels exported from a sample of this bundle (stimkit label export)',
    });
  return { file, text, sha: sha256(text) };
}
