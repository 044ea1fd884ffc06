/**
 * The scores of `--scores DIR` (a `stimkit score` folder) as Inspect scores per trial × model:
 * the instrument's label, score and keyed stance (from `scores.jsonl`), and each audit dimension
 * D1–D6 (from `audit.csv`). A cell without a value (a non-answer, a dimension that does not apply,
 * a judge that gave no label) is left out, never written as 0. The folder must be of the exported
 * bundle (and, when scored from a ledger, of the exported run); every file read is checked
 * against the sha256 `score.json` records.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readCsvObjects } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { SCORES_FILES, ScoreLine, ScoresHeader } from '../score/format.js';
import type { InspectScore } from './inspect-format.js';

/** The scores of one scores folder: trial × model key → Inspect scores. */
export interface ExportScores {
  /** sha256 of `score.json`. */
  sha256: string;
  byKey: Map<string, Record<string, InspectScore>>;
}

/** The key of a trial × model in `ExportScores.byKey`. */
export const scoreKey = (model: string, trial: string): string => `${model}\n${trial}`;

/** Each audit dimension: its score name (the column holding the value) and columns kept beside it. */
const AUDIT_SCORES: ReadonlyArray<{ column: string; metadata: readonly string[] }> = [
  {
    column: 'd1_refusal',
    metadata: ['d1_refusal_reason', 'd1_refusal_lexical', 'd1_refusal_lexical_reason'],
  },
  { column: 'd2_integrity', metadata: ['d2_failure_type', 'd2_covered_facts', 'd2_missing_facts'] },
  { column: 'd3_grounded', metadata: [] },
  {
    column: 'd4_state_aligned',
    metadata: ['d4_strategy', 'd4_direction', 'd4_quotes', 'marker_flag'],
  },
  { column: 'd5_language_consistent', metadata: ['d5_language_auto', 'd5_share'] },
  { column: 'd6_length_clean', metadata: ['d6_length_raw', 'd6_length_markdown'] },
];
/** The score names of the audit dimensions and of the instrument. */
export const AUDIT_SCORE_NAMES = AUDIT_SCORES.map((d) => d.column);
export const INSTRUMENT_SCORE_NAMES = ['instrument_label', 'instrument_score', 'instrument_stance'];
const JUDGE_COLUMNS = ['judge', 'judge_status', 'judge_confidence', 'judge_flags'] as const;

function scoresError(file: string, message: string, fix: string, cause?: unknown): StimkitError {
  return StimkitError.fromProblem({ code: 'E_EXPORT_SCORES', file, message, fix }, cause);
}

/** A CSV cell as a score value: a number when it is one, else the text; null when empty. */
function cellValue(cell: string | undefined): number | string | null {
  if (cell === undefined || cell === '') return null;
  const n = Number(cell);
  return Number.isFinite(n) ? n : cell;
}

function withValues(row: Record<string, string>, columns: readonly string[]) {
  const out: Record<string, number | string> = {};
  for (const c of columns) {
    const v = cellValue(row[c]);
    if (v !== null) out[c] = v;
  }
  return out;
}

function auditScores(row: Record<string, string>): Record<string, InspectScore> {
  const out: Record<string, InspectScore> = {};
  const judge = withValues(row, JUDGE_COLUMNS);
  for (const d of AUDIT_SCORES) {
    const value = cellValue(row[d.column]);
    if (value === null) continue;
    out[d.column] = { value, metadata: { ...withValues(row, d.metadata), ...judge }, history: [] };
  }
  return out;
}

/**
 * The instrument's scores of one line. A trial whose outcome is not an answer has none (its
 * cells are empty, the outcome its reason), nor has one without a response in a scores folder
 * of an earlier stimkit (`no_response`, scored 0 by the convention of the paper's tables, not read
 * from an answer): the sample's `outcome` score says why.
 */
function instrumentScores(line: ScoreLine): Record<string, InspectScore> {
  const out: Record<string, InspectScore> = {};
  if ((line.outcome != null && line.outcome !== 'answer') || line.reason === 'no_response')
    return out;
  const why = line.reason !== null ? { explanation: line.reason } : {};
  const parse = line.parse;
  if (typeof parse.label === 'string')
    out.instrument_label = {
      value: parse.label,
      ...why,
      metadata: { option: parse.option ?? null, source: parse.source ?? null },
      history: [],
    };
  if (line.score !== null) out.instrument_score = { value: line.score, ...why, history: [] };
  if (line.stance !== null) out.instrument_stance = { value: line.stance, ...why, history: [] };
  return out;
}

/** `score.json`, parsed and checked against the exported bundle and run. */
async function readHeader(
  dir: string,
  digest: string,
  run: string,
): Promise<{ header: ScoresHeader; text: string }> {
  const file = path.join(dir, SCORES_FILES.header);
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw scoresError(
      file,
      'no readable score.json: not a scores folder (or an interrupted one)',
      'pass the --out folder of `stimkit score` with --scores',
      err,
    );
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw scoresError(file, 'score.json is not JSON', 'score again', err);
  }
  const parsed = ScoresHeader.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw scoresError(
      file,
      `not a stimkit.scores 1 header (${issue.path.join('.')}: ${issue.message})`,
      'score again with this version of stimkit',
    );
  }
  const header = parsed.data;
  if (header.bundle.digest !== digest)
    throw StimkitError.fromProblem({
      code: 'E_EXPORT_SCORES_BUNDLE',
      file,
      message: 'these scores are of another bundle',
      expected: digest,
      got: header.bundle.digest,
      fix: 'pass the scores of this bundle (stimkit score --bundle B --ledger L)',
    });
  if (header.params.source === 'ledger' && header.params.run !== run)
    throw StimkitError.fromProblem({
      code: 'E_EXPORT_SCORES_RUN',
      file,
      message: 'these scores are of another run of the ledger',
      expected: run,
      got: String(header.params.run),
      fix: 'score the exported run, or export the scored run with --run LABEL',
    });
  return { header, text };
}

/** A file `score.json` lists, checked against its sha256 (null when not listed). */
async function readListed(dir: string, header: ScoresHeader, file: string): Promise<string | null> {
  const listed = header.files.find((f) => f.file === file);
  if (!listed) return null;
  const text = await readFile(path.join(dir, file), 'utf8').catch((err: unknown) => {
    throw scoresError(
      path.join(dir, file),
      'a file score.json lists is missing',
      'score again',
      err,
    );
  });
  if (sha256(text) !== listed.sha256)
    throw scoresError(
      path.join(dir, file),
      'this file does not match the sha256 score.json records: it changed after scoring',
      'score again',
    );
  return text;
}

/** The lines of `scores.jsonl`, each checked (`E_EXPORT_SCORES` naming the line). */
function scoreLines(dir: string, text: string): ScoreLine[] {
  const file = path.join(dir, SCORES_FILES.records);
  return text.split('\n').flatMap((l, i) => {
    if (l === '') return [];
    let parsed;
    try {
      parsed = ScoreLine.safeParse(JSON.parse(l));
    } catch (err) {
      throw StimkitError.fromProblem(
        { code: 'E_EXPORT_SCORES', file, line: i + 1, message: 'not JSON', fix: 'score again' },
        err,
      );
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw StimkitError.fromProblem({
        code: 'E_EXPORT_SCORES',
        file,
        line: i + 1,
        field: issue.path.join('.'),
        message: `not a scores line: ${issue.message}`,
        fix: 'score again with this version of stimkit',
      });
    }
    return [parsed.data];
  });
}

/** Read a scores folder for the export of `digest` (and ledger run `run`). */
export async function readExportScores(
  dir: string,
  digest: string,
  run: string,
): Promise<ExportScores> {
  const { header, text } = await readHeader(dir, digest, run);
  const byKey = new Map<string, Record<string, InspectScore>>();
  const add = (key: string, scores: Record<string, InspectScore>) =>
    byKey.set(key, { ...byKey.get(key), ...scores });
  for (const line of scoreLines(dir, (await readListed(dir, header, SCORES_FILES.records)) ?? ''))
    if (line.paradigm === 'instrument')
      add(scoreKey(line.model, line.trial), instrumentScores(line));
  const audit = (await readListed(dir, header, 'audit.csv')) ?? '';
  for (const row of readCsvObjects(audit, { raw: header.params.csv === 'raw' }))
    add(scoreKey(row.model ?? '', row.trial ?? ''), auditScores(row));
  return { sha256: sha256(text), byKey };
}
