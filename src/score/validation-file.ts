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
import { StimkitError } from '../core/errors.js';
import { relPosix, sha256, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { SCORES_FILES } from './format.js';
import { openScores } from './read.js';
import { validateJudges, type ValidationReport } from '../audit/validate.js';

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
 * The scores' scores.jsonl must still match the sha256 score.json records.
 */
export async function writeValidation(
  scoresDir: string,
  labelsCsv: string,
  out: string = path.join(scoresDir, VALIDATION_FILE),
): Promise<WrittenValidation> {
  const { header, headerFile } = await openScores(scoresDir, 'E_AUDIT_SCORES');
  const outDir = path.dirname(path.resolve(out));
  const report = await validateJudges(scoresDir, labelsCsv, {
    labelsName: relPosix(outDir, path.resolve(labelsCsv)),
    bundleDigest: header.bundle.digest,
  });
  const scoresInput = report.inputs.find((i) => i.role === 'scores')!;
  const listedScores = header.files.find((f) => f.file === SCORES_FILES.records);
  if (!listedScores || listedScores.sha256 !== scoresInput.sha256) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_SCORES',
      file: path.join(scoresDir, SCORES_FILES.records),
      message:
        'scores.jsonl does not match the sha256 score.json records: it changed after scoring',
      fix: 'score again, then validate',
    });
  }
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
