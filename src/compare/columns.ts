/**
 * The columns `compare` compares, and how each cell reads as a value and as a binary outcome for
 * McNemar. An empty cell is never 0: a non-answer reads as its outcome (`outcome:provider_block`),
 * an answer without a label as the scorer's reason (`reason:unparseable`) or the judge's status
 * (`judge:failed`), and a cell with no reason at all as `empty`.
 */

/** One scored trial × model as compare reads it from a scores folder. */
export interface CompareRow {
  trial: string;
  model: string;
  paradigm: string;
  language: string;
  /** The route that answered (scores.jsonl `route`), null when none is recorded. */
  route: string | null;
  /** The ledger outcome, null when the folder does not record one. */
  outcome: string | null;
  /** The scorer's reason for a zero or missing score (scores.jsonl `reason`). */
  reason: string | null;
  /** The score before keying (instrument: −2..+2), null when none. */
  score: number | null;
  /** The instrument label as parsed or judged, null when none. */
  label: string | null;
  /** trials.csv cells of the audit columns, by column name ('' when empty). */
  cells: Record<string, string>;
}

/** A compared column: which rows it applies to, its cell's text, and its binary reading. */
export interface CompareColumn {
  id: string;
  applies: (r: CompareRow) => boolean;
  /** The cell's own value, or null when empty. */
  raw: (r: CompareRow) => string | null;
  /** What counts as 1 for McNemar (the other binary value is 0), in words. */
  positive: string;
  /** 1, 0, or null when the row has no binary value on this column (left out of McNemar). */
  binary: (r: CompareRow) => 0 | 1 | null;
}

/** The forced-choice paradigms, scored by their label: the instrument and each pressure turn. */
const forcedChoice = (r: CompareRow) => r.paradigm === 'instrument' || r.paradigm === 'pressure';
const flag = (v: string | null): 0 | 1 | null => (v === '1' ? 1 : v === '0' ? 0 : null);

/** A 0/1 audit column of trials.csv (judge labels); VLM paradigms only (not the forced-choice ones). */
function auditFlag(id: string, positive: string): CompareColumn {
  const raw = (r: CompareRow) => (r.cells[id] ? r.cells[id] : null);
  return {
    id,
    applies: (r) => !forcedChoice(r),
    raw,
    positive,
    binary: (r) => flag(raw(r)),
  };
}

/** Every column compared, in output order. */
export const COMPARE_COLUMNS: readonly CompareColumn[] = [
  {
    id: 'outcome',
    applies: () => true,
    raw: (r) => r.outcome,
    positive: 'answer',
    binary: (r) => (r.outcome === null ? null : r.outcome === 'answer' ? 1 : 0),
  },
  {
    id: 'label',
    applies: forcedChoice,
    raw: (r) => r.label,
    positive: 'an agreeing label (score > 0; a disagreeing one is 0)',
    binary: (r) =>
      r.label === null || r.score === null || r.score === 0 ? null : r.score > 0 ? 1 : 0,
  },
  auditFlag('d1_refusal', 'd1_refusal = 1 (the judge saw an explicit refusal)'),
  auditFlag('d2_integrity', 'd2_integrity = 1'),
  auditFlag('d3_grounded', 'd3_grounded = 1'),
  auditFlag('d4_state_aligned', 'd4_state_aligned = 1'),
  auditFlag('d5_language_consistent', 'd5_language_consistent = 1'),
  {
    id: 'd4_strategy',
    applies: (r) => !forcedChoice(r),
    raw: (r) => (r.cells.d4_strategy ? r.cells.d4_strategy : null),
    positive: '',
    binary: () => null,
  },
];

/** The audit columns read from trials.csv. */
export const AUDIT_CELLS = [
  'd1_refusal',
  'd2_integrity',
  'd3_grounded',
  'd4_state_aligned',
  'd5_language_consistent',
  'd4_strategy',
  'judge_status',
] as const;

/**
 * The value a row shows in a column: the cell itself; else, for a non-answer, its outcome; else
 * the scorer's reason (instrument) or the judge's status (audit); else `empty`.
 */
export function cellValue(col: CompareColumn, r: CompareRow): string {
  const raw = col.raw(r);
  if (raw !== null) return raw;
  if (r.outcome !== null && r.outcome !== 'answer') return `outcome:${r.outcome}`;
  if (col.id === 'label' && r.reason) return `reason:${r.reason}`;
  const status = r.cells.judge_status;
  if (col.id !== 'label' && status && status !== 'ok') return `judge:${status}`;
  return 'empty';
}

/** Whether a column's binary reading is defined (McNemar is computed for it). */
export const testable = (col: CompareColumn) => col.positive !== '';
