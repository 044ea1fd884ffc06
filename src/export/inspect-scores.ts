/**
 * The scores of `--scores DIR` (a `stimkit score` folder) as Inspect scores per trial × model:
 * the instrument's label, score and keyed stance (from `scores.jsonl`), and each audit dimension
 * D1–D6 (from `audit.csv`). A cell without a value (a non-answer, a dimension that does not apply,
 * a judge that gave no label) is left out, never written as 0. The folder must be of the exported
 * bundle (and, when scored from a ledger, of the exported run); every file read is checked
 * against the sha256 `score.json` records.
 */
import { readCsvObjects } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import type { ScoreLine } from '../score/format.js';
import { openScores, type ScoresFolder } from '../score/read.js';
import { checkScoresOfRun, type RunResult } from '../score/ledger-match.js';
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
/** A pressure turn's forced choice, scored as the instrument's (scores.md, "Pressure"). */
export const PRESSURE_SCORE_NAMES = ['pressure_label', 'pressure_score', 'pressure_stance'];
const JUDGE_COLUMNS = ['judge', 'judge_status', 'judge_confidence', 'judge_flags'] as const;

/** A number as stimkit's CSVs write one (never blank: `Number(' ')` is 0). */
const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A CSV cell as a score value: a number when it is one, else the text; null when empty. */
function cellValue(cell: string | undefined): number | string | null {
  if (cell === undefined || cell === '') return null;
  return NUMERIC.test(cell) ? Number(cell) : cell;
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
function instrumentScores(
  line: ScoreLine,
  prefix: 'instrument' | 'pressure' = 'instrument',
): Record<string, InspectScore> {
  const out: Record<string, InspectScore> = {};
  if ((line.outcome != null && line.outcome !== 'answer') || line.reason === 'no_response')
    return out;
  const why = line.reason !== null ? { explanation: line.reason } : {};
  const parse = line.parse;
  if (typeof parse.label === 'string')
    out[`${prefix}_label`] = {
      value: parse.label,
      ...why,
      metadata: { option: parse.option ?? null, source: parse.source ?? null },
      history: [],
    };
  if (line.score !== null) out[`${prefix}_score`] = { value: line.score, ...why, history: [] };
  if (line.stance !== null) out[`${prefix}_stance`] = { value: line.stance, ...why, history: [] };
  return out;
}

/** The scores folder, opened (`openScores`), of the exported bundle and run. */
async function openExportScores(dir: string, digest: string, run: string): Promise<ScoresFolder> {
  const scores = await openScores(dir, 'E_EXPORT_SCORES');
  const { header, headerFile: file } = scores;
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
  return scores;
}

/**
 * Read a scores folder for the export of `digest` (and ledger run `run`, whose final results are
 * `results`: every scored response must be one of them, ledger-match.ts).
 */
export async function readExportScores(
  dir: string,
  digest: string,
  run: { label: string; ledger: string; results: () => Iterable<RunResult> },
): Promise<ExportScores> {
  const folder = await openExportScores(dir, digest, run.label);
  const lines = await folder.lines();
  checkScoresOfRun(lines, run.results(), {
    code: 'E_EXPORT_SCORES_LEDGER',
    scores: folder.headerFile,
    ledger: run.ledger,
    run: run.label,
  });
  const byKey = new Map<string, Record<string, InspectScore>>();
  const add = (key: string, scores: Record<string, InspectScore>) =>
    byKey.set(key, { ...byKey.get(key), ...scores });
  for (const line of lines)
    if (line.paradigm === 'instrument' || line.paradigm === 'pressure')
      add(scoreKey(line.model, line.trial), instrumentScores(line, line.paradigm));
  const audit = (await folder.listed('audit.csv')) ?? '';
  for (const row of readCsvObjects(audit, { raw: folder.header.params.csv === 'raw' }))
    add(scoreKey(row.model ?? '', row.trial ?? ''), auditScores(row));
  return { sha256: folder.sha, byKey };
}
