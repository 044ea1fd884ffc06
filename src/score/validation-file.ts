/**
 * Writing `validation.json` and listing it in the scores folder: `stimkit validate` compares the
 * judges of a scores folder with human labels (validate.ts); the report carries the sha256 of
 * both inputs (the folder's scores.jsonl and the labels CSV). When it is written into the scores
 * folder (the default), score.json's `files` list gains (or updates) a `validation.json` entry
 * with its sha256, so `stimkit report` reads it like every other scores file: checked, and only
 * while it belongs to these scores. Scoring the folder again drops the entry (score.json is
 * rewritten), so a validation of older scores is never shown as current.
 */
import path from 'node:path';
import { relPosix, sha256, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { SCORES_FILES } from './format.js';
import { openScores } from './read.js';
import { validateJudges } from '../audit/validate.js';
import type { ValidationReport } from '../audit/validation-format.js';

/** The file name `stimkit report` looks for in a scores folder. */
const VALIDATION_FILE = 'validation.json';

/** What `writeValidation` did. */
export interface WrittenValidation {
  report: ValidationReport;
  out: string;
  /** True when score.json now lists the file (it was written into the scores folder). */
  listed: boolean;
}

/**
 * Validate the judges of `scoresDir` against `labelsCsv`, write the report to `out` (default
 * `<scoresDir>/validation.json`) and, when `out` is in the scores folder, list it in score.json.
 * The scores' scores.jsonl must still match the sha256 score.json records (checked before it is
 * read).
 */
export async function writeValidation(
  scoresDir: string,
  labelsCsv: string,
  out: string = path.join(scoresDir, VALIDATION_FILE),
): Promise<WrittenValidation> {
  const scores = await openScores(scoresDir, 'E_AUDIT_SCORES');
  const { header, headerFile } = scores;
  const outDir = path.dirname(path.resolve(out));
  // scores.jsonl as score.json lists it: checked against its sha256 before a line is read
  const records = {
    file: path.join(scoresDir, SCORES_FILES.records),
    text: await scores.required(SCORES_FILES.records),
  };
  const report = await validateJudges(records, labelsCsv, {
    labelsName: relPosix(outDir, path.resolve(labelsCsv)),
    bundleDigest: header.bundle.digest,
  });
  const scoresInput = report.inputs.find((i) => i.role === 'scores')!;
  scoresInput.file = relPosix(outDir, path.resolve(scoresDir, SCORES_FILES.records));
  const text = artifactJson(report);
  await writeFileAtomic(out, text);
  const listed = outDir === path.resolve(scoresDir) && path.basename(out) === VALIDATION_FILE;
  if (listed) {
    const entry = { file: VALIDATION_FILE, rows: report.items, sha256: sha256(text) };
    const files = [...header.files.filter((f) => f.file !== VALIDATION_FILE), entry];
    await writeFileAtomic(headerFile, artifactJson({ ...header, files }));
  }
  return { report, out, listed };
}
